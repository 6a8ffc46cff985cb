//! What the visitor's sign form posts (`/criar-placa-pix`, and the preview's query): the fields
//! as typed ([`SignForm`]), parsed at the edge into the sign's options and the code's values,
//! with a pt-BR message per field ([`FieldErrors`]). Kept apart from the page's handlers so the
//! preview image ([`super::sign_preview`]) and the created page ([`super::sign_created`]) read
//! the same form without importing the page that shows it.

use domain::brcode::{BrCodeError, Field, StaticCodeForm};
use domain::sign::{
    self as layout, PaperSize, SignError, SignOptions, Template as SignTemplate, Theme,
};
use serde::Deserialize;

use crate::signs::{self, SignRequest};

/// The preview image's address ([`super::sign_preview::PATH`]), which the form's preview link
/// is built on.
pub const PREVIEW_PATH: &str = "/criar-placa-pix/previa.svg";

/// The message beside a field that held U+0000 (taken out of the value shown again), naming the
/// field by its label.
pub fn nul_in_field(label: &str) -> String {
    format!(
        "O campo {label} tinha um caractere nulo (U+0000), que não pode ser usado. Nós o apagamos: confira o texto e envie de novo."
    )
}

/// The message for U+0000 in a hidden field of the form (the review's request id, the
/// confirmation).
pub const NUL_IN_FORM: &str = "O formulário chegou com um caractere nulo (U+0000), que não pode ser usado. Confira os dados e envie de novo.";

/// The form's fields as posted (names in pt-BR, as in the HTML).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SignForm {
    /// Key kind: blank (detect), `cpf`, `cnpj`, `email`, `telefone` or `aleatoria`.
    #[serde(default)]
    pub tipo: String,
    /// The key as typed.
    #[serde(default)]
    pub chave: String,
    /// Recipient name.
    #[serde(default)]
    pub nome: String,
    /// City.
    #[serde(default)]
    pub cidade: String,
    /// Optional amount in pt-BR (`25,90`).
    #[serde(default)]
    pub valor: String,
    /// Optional description shown to the payer.
    #[serde(default)]
    pub descricao: String,
    /// Sign template slug (`classico`, `faixa`, `moldura`, `minimalista`); blank: the default.
    #[serde(default)]
    pub modelo: String,
    /// Paper size slug (`a4`, `a5`, …); blank: A4.
    #[serde(default)]
    pub tamanho: String,
    /// Colour theme slug (`verde`, `azul`, `grafite`, `vinho`); blank: the default.
    #[serde(default)]
    pub tema: String,
    /// The headline; blank: "Pague com Pix".
    #[serde(default)]
    pub titulo: String,
    /// Optional footer (opening hours, a social handle…).
    #[serde(default)]
    pub rodape: String,
    /// Present (`1`) on the confirmation step.
    #[serde(default)]
    pub confirmar: String,
    /// Idempotency key minted when the review was shown, so a double submit makes one code.
    #[serde(default)]
    pub pedido: String,
}

impl SignForm {
    /// Whether nothing that goes into the code has been typed yet (the design fields have
    /// defaults, so they don't count): the creator's blank state, not a mistake.
    pub fn is_blank(&self) -> bool {
        [
            &self.chave,
            &self.nome,
            &self.cidade,
            &self.valor,
            &self.descricao,
        ]
        .iter()
        .all(|field| field.trim().is_empty())
    }

    /// The form with every U+0000 taken out, and a message for each field that held one
    /// ([`nul_in_field`], or [`NUL_IN_FORM`] for the hidden fields, which are cleared so the
    /// review starts again); `None` when no field held one.
    pub(crate) fn without_nul(&self) -> Option<(SignForm, FieldErrors, Option<String>)> {
        let held = |value: &str| domain::text::storable(value).is_err();
        let fields = [
            &self.tipo,
            &self.chave,
            &self.nome,
            &self.cidade,
            &self.valor,
            &self.descricao,
            &self.modelo,
            &self.tamanho,
            &self.tema,
            &self.titulo,
            &self.rodape,
            &self.confirmar,
            &self.pedido,
        ];
        if !fields.into_iter().any(|value| held(value)) {
            return None;
        }
        let mut errors = FieldErrors::default();
        let mut clean = self.clone();
        for (value, slot, label) in [
            (&mut clean.tipo, &mut errors.key_kind, "Tipo de chave"),
            (&mut clean.chave, &mut errors.key, "Chave Pix"),
            (&mut clean.nome, &mut errors.name, "Nome de quem recebe"),
            (&mut clean.cidade, &mut errors.city, "Cidade"),
            (&mut clean.valor, &mut errors.amount, "Valor"),
            (&mut clean.descricao, &mut errors.description, "Descrição"),
            (&mut clean.modelo, &mut errors.template, "Modelo"),
            (&mut clean.tamanho, &mut errors.size, "Tamanho do papel"),
            (&mut clean.tema, &mut errors.theme, "Cores"),
            (&mut clean.titulo, &mut errors.headline, "Título"),
            (&mut clean.rodape, &mut errors.footer, "Rodapé"),
        ] {
            if held(value) {
                value.retain(|c| c != '\0');
                *slot = Some(nul_in_field(label));
            }
        }
        let general = (held(&self.confirmar) || held(&self.pedido)).then(|| NUL_IN_FORM.to_owned());
        clean.confirmar.clear();
        clean.pedido.clear();
        Some((clean, errors, general))
    }

    /// The code's fields as the BR Code engine reads them.
    pub(crate) fn to_domain(&self) -> StaticCodeForm {
        StaticCodeForm {
            key: self.chave.trim().to_owned(),
            key_kind: self.tipo.clone(),
            merchant_name: self.nome.clone(),
            merchant_city: self.cidade.clone(),
            amount: self.valor.clone(),
            additional_info: self.descricao.clone(),
            ..StaticCodeForm::default()
        }
    }

    /// The sign's design as chosen, and a pt-BR message for each choice refused (a refused
    /// choice falls back to its default, so the preview still draws).
    pub(crate) fn design(&self) -> (SignRequest, FieldErrors) {
        let mut errors = FieldErrors::default();
        let mut options = SignOptions::default();
        fn chosen(value: &str) -> Option<&str> {
            Some(value.trim()).filter(|v| !v.is_empty())
        }
        if let Some(value) = chosen(&self.modelo) {
            match value.parse::<SignTemplate>() {
                Ok(SignTemplate::CodeOnly) | Err(_) => {
                    errors.template =
                        Some(SignError::UnknownTemplate(value.to_owned()).to_string());
                }
                Ok(template) => options.template = template,
            }
        }
        if let Some(value) = chosen(&self.tamanho) {
            match value.parse::<PaperSize>() {
                Ok(PaperSize::Square) | Err(_) => {
                    errors.size = Some(SignError::UnknownSize(value.to_owned()).to_string());
                }
                Ok(size) => options.size = size,
            }
        }
        if let Some(value) = chosen(&self.tema) {
            match value.parse::<Theme>() {
                Ok(theme) => options.theme = theme,
                Err(error) => errors.theme = Some(error.to_string()),
            }
        }
        let headline = chosen(&self.titulo)
            .filter(|h| *h != layout::DEFAULT_HEADLINE)
            .map(str::to_owned);
        let headline = match headline {
            Some(h) if h.chars().count() > layout::MAX_HEADLINE_CHARS => {
                errors.headline = Some(SignError::HeadlineTooLong.to_string());
                None
            }
            other => other,
        };
        let footer = match chosen(&self.rodape).map(str::to_owned) {
            Some(f) if f.chars().count() > layout::MAX_FOOTER_CHARS => {
                errors.footer = Some(SignError::FooterTooLong.to_string());
                None
            }
            other => other,
        };
        let request = SignRequest {
            options,
            dpi: signs::render::DEFAULT_DPI,
            headline,
            footer,
            with_logo: true,
        };
        (request, errors)
    }

    /// The preview image's address for these values.
    pub(crate) fn preview_url(&self) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in [
            ("tipo", &self.tipo),
            ("chave", &self.chave),
            ("nome", &self.nome),
            ("cidade", &self.cidade),
            ("valor", &self.valor),
            ("descricao", &self.descricao),
            ("modelo", &self.modelo),
            ("tamanho", &self.tamanho),
            ("tema", &self.tema),
            ("titulo", &self.titulo),
            ("rodape", &self.rodape),
        ] {
            if !value.is_empty() {
                query.append_pair(name, value);
            }
        }
        format!("{}?{}", PREVIEW_PATH, query.finish())
    }
}

/// One pt-BR message per form field (the first problem found in it).
#[derive(Debug, Clone, Default)]
pub struct FieldErrors {
    /// Key kind.
    pub key_kind: Option<String>,
    /// Key.
    pub key: Option<String>,
    /// Name.
    pub name: Option<String>,
    /// City.
    pub city: Option<String>,
    /// Amount.
    pub amount: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Template.
    pub template: Option<String>,
    /// Paper size.
    pub size: Option<String>,
    /// Colour theme.
    pub theme: Option<String>,
    /// Headline.
    pub headline: Option<String>,
    /// Footer.
    pub footer: Option<String>,
}

impl FieldErrors {
    pub(crate) fn from_errors(errors: &[BrCodeError]) -> (Self, Option<String>) {
        let mut out = FieldErrors::default();
        let mut general = Vec::new();
        for error in errors {
            let slot = match error.field() {
                Field::PixKey => &mut out.key,
                Field::MerchantName => &mut out.name,
                Field::MerchantCity => &mut out.city,
                Field::TransactionAmount => &mut out.amount,
                Field::AdditionalInfo => &mut out.description,
                _ => {
                    general.push(error.to_string());
                    continue;
                }
            };
            slot.get_or_insert_with(|| error.to_string());
        }
        let general = (!general.is_empty()).then(|| general.join(" "));
        (out, general)
    }

    /// These errors with the design's.
    pub(crate) fn with_design(mut self, design: FieldErrors) -> Self {
        self.template = design.template;
        self.size = design.size;
        self.theme = design.theme;
        self.headline = design.headline;
        self.footer = design.footer;
        self
    }

    /// Whether any field was refused.
    pub fn any(&self) -> bool {
        !self.summary().is_empty()
    }

    /// Each refused field as (the input's id, its message), in the form's order: the summary at
    /// the top of the page links each to its field, so a phone user sees at once what to fix.
    pub fn summary(&self) -> Vec<(&'static str, &str)> {
        [
            ("tipo", &self.key_kind),
            ("chave", &self.key),
            ("nome", &self.name),
            ("cidade", &self.city),
            ("valor", &self.amount),
            ("descricao", &self.description),
            ("modelo", &self.template),
            ("tamanho", &self.size),
            ("tema", &self.theme),
            ("titulo", &self.headline),
            ("rodape", &self.footer),
        ]
        .into_iter()
        .filter_map(|(id, message)| message.as_deref().map(|m| (id, m)))
        .collect()
    }
}
