//! Layout tests over every template × paper size, with the longest name, city and headline the
//! product accepts.

use super::*;
use crate::brcode::{StaticCodeRequest, make_static};
use crate::pix_key::PixKey;

/// A code with the widest 25-character name and 15-character city, an amount, a txid and the
/// longest key (a 77-character e-mail is longer than any sign text box).
fn longest() -> SignContent {
    let key = PixKey::detect("recebimentos.da.loja.matriz@mercadinho-sao-joao-e-filhos.com.br")
        .expect("key");
    let made = make_static(
        &StaticCodeRequest::new(key.clone(), "W".repeat(25), "M".repeat(15))
            .with_amount(Centavos::new(123_456_789))
            .with_txid("MESA07CAIXA02TURNOMANHA01"),
    )
    .expect("code");
    SignContent {
        payload: made.payload,
        name: made.merchant_name,
        city: made.merchant_city,
        // A holder name near the longest a key is registered with (99 of 100 characters).
        holder: Some(
            "Mercadinho São João e Filhos Comércio de Alimentos e Bebidas da Vila Mariana Sociedade Limitada EPP"
                .to_owned(),
        ),
        amount: Some(Centavos::new(123_456_789)),
        description: Some(
            "Combo almoço executivo com sobremesa e bebida da casa, pague no caixa".to_owned(),
        ),
        key_line: Some(format!("Chave e-mail: {}", key.as_str())),
        headline: "W".repeat(MAX_HEADLINE_CHARS),
        footer: Some(
            "Aberto de segunda a sábado, das 8h às 20h · siga @mercadinhosaojoao no Instagram"
                .to_owned(),
        ),
        logo: None,
    }
}

fn typical() -> SignContent {
    let key = PixKey::detect("123e4567-e12b-12d1-a456-426655440000").expect("key");
    let made = make_static(&StaticCodeRequest::new(
        key,
        "Loja da Ana",
        "Belo Horizonte",
    ))
    .expect("code");
    SignContent::new(made.payload, made.merchant_name, made.merchant_city)
}

fn every_option() -> impl Iterator<Item = SignOptions> {
    Template::ALL.into_iter().flat_map(|template| {
        PaperSize::ALL.into_iter().map(move |size| SignOptions {
            template,
            size,
            theme: Theme::Blue,
        })
    })
}

fn check(doc: &SignDocument, content: &SignContent, options: &SignOptions) {
    let page = Rect {
        x: 0.0,
        y: 0.0,
        w: doc.width_mm,
        h: doc.height_mm,
    };
    let panels = match options.size {
        PaperSize::TableTent => 2,
        PaperSize::Stickers => 6,
        _ => 1,
    };
    assert_eq!(doc.panels.len(), panels, "{options:?}");
    assert_eq!(doc.codes.len(), panels, "one code per panel: {options:?}");
    for panel in &doc.panels {
        assert!(
            page.contains(panel),
            "{options:?}: panel {panel:?} leaves the page"
        );
    }
    for code in &doc.codes {
        let panel = doc.panels[code.panel];
        assert!(
            panel.contains(&code.rect),
            "{options:?}: the code leaves its panel"
        );
        assert!(
            code.symbol_mm >= MIN_SYMBOL_MM,
            "{options:?}: the code is {:.1} mm",
            code.symbol_mm
        );
        let quiet = code.rect.w - code.symbol_mm;
        assert!(
            (quiet - 8.0 * code.module_mm).abs() < 1e-6,
            "{options:?}: four modules of quiet zone on each side"
        );
    }
    for text in &doc.texts {
        let panel = doc.panels[text.panel];
        assert!(
            panel.contains(&text.rect),
            "{options:?}: {:?} {:?} leaves its panel: {:?} not in {panel:?}",
            text.role,
            text.text,
            text.rect
        );
        for code in &doc.codes {
            assert!(
                !text.rect.intersects(&code.rect),
                "{options:?}: {:?} {:?} overlaps the code",
                text.role,
                text.text
            );
        }
    }
    for (a, first) in doc.texts.iter().enumerate() {
        for second in &doc.texts[a + 1..] {
            assert!(
                !first.rect.intersects(&second.rect),
                "{options:?}: {:?} {:?} overlaps {:?} {:?}",
                first.role,
                first.text,
                second.role,
                second.text
            );
        }
    }
    if options.template != Template::CodeOnly {
        for panel in 0..panels {
            let anti_fraud: Vec<&str> = doc
                .texts
                .iter()
                .filter(|t| t.panel == panel && t.role == Role::AntiFraud)
                .map(|t| t.text.as_str())
                .collect();
            assert_eq!(
                anti_fraud.join(" "),
                anti_fraud_line(content.holder.as_deref()),
                "{options:?}: panel {panel} prints the anti-fraud line whole"
            );
            for role in [Role::Headline, Role::Name, Role::City] {
                let printed: Vec<&str> = doc
                    .texts
                    .iter()
                    .filter(|t| t.panel == panel && t.role == role)
                    .map(|t| t.text.as_str())
                    .collect();
                assert!(!printed.is_empty(), "{options:?}: {role:?} is printed");
            }
        }
    } else {
        assert!(doc.texts.is_empty(), "the bare code has no text");
    }
    for logo in &doc.logos {
        assert!(
            doc.panels.iter().any(|panel| panel.contains(logo)),
            "{options:?}: the logo {logo:?} leaves its panel"
        );
        for code in &doc.codes {
            assert!(
                !logo.intersects(&code.rect),
                "{options:?}: the logo overlaps the code or its quiet zone"
            );
        }
        for text in &doc.texts {
            assert!(
                !logo.intersects(&text.rect),
                "{options:?}: the logo overlaps {:?} {:?}",
                text.role,
                text.text
            );
        }
    }
}

/// A PNG header of `w` × `h` pixels (enough for [`logo::Logo::check`]; the layout only reads
/// its proportions).
fn png_logo(w: u32, h: u32) -> logo::Logo {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend_from_slice(&w.to_be_bytes());
    bytes.extend_from_slice(&h.to_be_bytes());
    bytes.extend_from_slice(&[8, 6, 0, 0, 0]);
    logo::Logo::check(&bytes).expect("logo")
}

#[test]
fn a_logo_of_any_proportions_sits_above_the_headline_on_every_template_and_size_and_never_touches_the_code()
 {
    for (w, h) in [(1000, 200), (300, 300), (100, 700)] {
        for (longest_text, base) in [(true, longest()), (false, typical())] {
            let content = SignContent {
                logo: Some(png_logo(w, h)),
                ..base
            };
            for options in every_option() {
                let doc = layout(&content, &options).expect("lays out");
                check(&doc, &content, &options);
                // A typical sign on a sheet keeps its logo; the longest text on a small panel
                // may drop it (before the code would shrink).
                let sign_page = !longest_text
                    && matches!(options.size, PaperSize::A4 | PaperSize::A5)
                    && options.template != Template::CodeOnly;
                if sign_page {
                    assert_eq!(doc.logos.len(), 1, "{options:?}: the logo is printed");
                    assert!(doc.svg.contains(r#"href="data:image/png;base64,"#));
                }
                if options.template == Template::CodeOnly {
                    assert!(doc.logos.is_empty(), "the bare code has no logo");
                }
                assert!(doc.logos.len() <= doc.panels.len());
            }
        }
    }
}

#[test]
fn without_a_logo_nothing_is_drawn_for_it() {
    let doc = layout(&typical(), &SignOptions::default()).expect("lays out");
    assert!(doc.logos.is_empty());
    assert!(!doc.svg.contains("<image"));
}

#[test]
fn every_template_and_size_fits_the_longest_name_city_and_headline() {
    let content = longest();
    assert_eq!(content.name.chars().count(), 25);
    assert_eq!(content.city.chars().count(), 15);
    for options in every_option() {
        let doc = layout(&content, &options).expect("lays out");
        check(&doc, &content, &options);
    }
}

#[test]
fn every_template_and_size_lays_out_a_typical_sign() {
    let content = typical();
    for options in every_option() {
        let doc = layout(&content, &options).expect("lays out");
        check(&doc, &content, &options);
    }
}

#[test]
fn the_name_and_city_are_printed_in_full() {
    let content = longest();
    let doc = layout(&content, &SignOptions::default()).expect("lays out");
    let joined = |role| {
        doc.texts
            .iter()
            .filter(|t| t.role == role)
            .map(|t| t.text.as_str())
            .collect::<String>()
    };
    assert_eq!(joined(Role::Name), content.name);
    assert_eq!(joined(Role::City), content.city);
}

#[test]
fn the_a4_code_is_large_and_the_optional_lines_stay() {
    let doc = layout(&typical(), &SignOptions::default()).expect("lays out");
    assert!(doc.codes[0].symbol_mm >= 70.0, "{}", doc.codes[0].symbol_mm);
    assert!(doc.texts.iter().any(|t| t.role == Role::Instruction));
}

#[test]
fn the_svg_escapes_text_and_sets_the_paper_size() {
    let mut content = typical();
    content.footer = Some("Tom & Jerry <lanches>".to_owned());
    let doc = layout(&content, &SignOptions::default()).expect("lays out");
    assert!(
        doc.svg
            .starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm""#)
    );
    assert!(doc.svg.contains("Tom &amp; Jerry &lt;lanches&gt;"));
    assert!(doc.svg.contains(r#"font-family="DejaVu Sans""#));
}

#[test]
fn too_long_a_headline_or_footer_is_refused() {
    let mut content = typical();
    content.headline = "x".repeat(MAX_HEADLINE_CHARS + 1);
    assert_eq!(
        layout(&content, &SignOptions::default()),
        Err(SignError::HeadlineTooLong)
    );
    let mut content = typical();
    content.footer = Some("x".repeat(MAX_FOOTER_CHARS + 1));
    assert_eq!(
        layout(&content, &SignOptions::default()),
        Err(SignError::FooterTooLong)
    );
}

#[test]
fn options_parse_from_their_slugs_and_refuse_others_in_portuguese() {
    for template in Template::ALL {
        assert_eq!(template.slug().parse::<Template>(), Ok(template));
    }
    for size in PaperSize::ALL {
        assert_eq!(size.slug().parse::<PaperSize>(), Ok(size));
    }
    for theme in Theme::ALL {
        assert_eq!(theme.slug().parse::<Theme>(), Ok(theme));
    }
    let error = "a3".parse::<PaperSize>().expect_err("unknown");
    assert!(error.to_string().starts_with("O tamanho \"a3\" não existe"));
}
