//! A portrait sign's column: logo, title, name lines and code stacked and centred.

use super::*;

/// The text of a panel, above and below the code.
pub(super) struct Stack {
    /// The logo's drawn width and height, when there is one.
    pub(super) logo: Option<(f64, f64)>,
    /// The space under the logo.
    pub(super) logo_gap: f64,
    pub(super) above: Vec<Block>,
    pub(super) below: Vec<Block>,
}

/// The logo's tallest drawn height and widest share of the text column, and the space under it,
/// as shares of the panel's base size.
pub(super) const LOGO_HEIGHT: f64 = 0.12;
pub(super) const LOGO_MAX_WIDTH: f64 = 0.6;
pub(super) const LOGO_GAP: f64 = 0.02;

impl Stack {
    pub(super) fn build(
        content: &SignContent,
        options: &SignOptions,
        base: f64,
        inner_w: f64,
        attempt: &Attempt,
    ) -> Self {
        let theme = options.theme;
        let template = options.template;
        let headline_colour = match template {
            Template::Band => "#fff",
            Template::Minimal => DARK,
            _ => theme.primary(),
        };
        let headline_size = if template == Template::Minimal {
            base * 0.075
        } else {
            base * 0.09
        };
        let block = |role, text: &str, weight, colour: &str, size: f64, lines, give| Block {
            role,
            fitted: fit(text, weight, size, size * 0.55, inner_w, lines, give),
            weight,
            colour: colour.to_owned(),
            boxed: 0.0,
        };
        let above = vec![block(
            Role::Headline,
            &content.headline,
            Weight::Bold,
            headline_colour,
            headline_size,
            2,
            Give::Shrink,
        )];
        let logo = content.logo.as_ref().filter(|_| attempt.logo).map(|logo| {
            let aspect = logo.drawn_aspect();
            let w = (base * LOGO_HEIGHT * aspect).min(inner_w * LOGO_MAX_WIDTH);
            (w, w / aspect)
        });
        let mut below = vec![
            block(
                Role::Name,
                &content.name,
                Weight::Bold,
                DARK,
                base * 0.065,
                2,
                Give::Shrink,
            ),
            block(
                Role::City,
                &content.city,
                Weight::Regular,
                MUTED,
                base * 0.042,
                1,
                Give::Shrink,
            ),
        ];
        if let Some(amount) = content.amount {
            below.push(block(
                Role::Amount,
                &format!("Valor: {amount}"),
                Weight::Bold,
                theme.primary(),
                base * 0.06,
                1,
                Give::Shrink,
            ));
        }
        if attempt.description
            && let Some(description) = content.description.as_deref().filter(|d| !d.is_empty())
        {
            below.push(block(
                Role::Description,
                description,
                Weight::Regular,
                DARK,
                base * 0.038,
                2,
                Give::Wrap,
            ));
        }
        if attempt.key
            && let Some(key) = content.key_line.as_deref()
        {
            below.push(block(
                Role::Key,
                key,
                Weight::Regular,
                MUTED,
                base * 0.032,
                2,
                Give::Shrink,
            ));
        }
        let pad = base * 0.018;
        let anti_size = base * 0.036;
        below.push(Block {
            role: Role::AntiFraud,
            fitted: fit(
                &anti_fraud_line(content.holder.as_deref()),
                Weight::Bold,
                anti_size,
                anti_size * 0.7,
                inner_w - 2.0 * pad,
                3,
                Give::Wrap,
            ),
            weight: Weight::Bold,
            colour: DARK.to_owned(),
            boxed: pad,
        });
        if attempt.instruction {
            below.push(block(
                Role::Instruction,
                INSTRUCTION,
                Weight::Regular,
                MUTED,
                base * 0.032,
                2,
                Give::Wrap,
            ));
        }
        if attempt.footer
            && let Some(footer) = content.footer.as_deref().filter(|f| !f.is_empty())
        {
            below.push(block(
                Role::Footer,
                footer,
                Weight::Regular,
                theme.primary(),
                base * 0.034,
                2,
                Give::Wrap,
            ));
        }
        Self {
            logo,
            logo_gap: base * LOGO_GAP,
            above,
            below,
        }
    }

    /// The logo (with the space under it) and the headline.
    pub(super) fn above_height(&self) -> f64 {
        let logo = self.logo.map_or(0.0, |(_, h)| h + self.logo_gap);
        logo + self.above.iter().map(Block::height).sum::<f64>()
    }

    /// Everything but the code: the text, the gaps between blocks and around the code.
    pub(super) fn height(&self, base: f64) -> f64 {
        let gaps = self.below.len() as f64 * base * GAP;
        self.above_height()
            + self.below.iter().map(Block::height).sum::<f64>()
            + gaps
            + 2.0 * base * 0.03
    }
}
