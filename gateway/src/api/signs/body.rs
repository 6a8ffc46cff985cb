//! A saved sign's request body, read into the domain's choices at the edge: slugs into
//! [`Template`], [`PaperSize`] and [`Theme`], each refusal a 422 under its field.

use domain::saved_sign::SignSettings;
use domain::sign::{PaperSize, Template, Theme};
use projections::signs::SignView;
use serde::Deserialize;

use crate::error::ApiError;

/// `POST` and `PATCH` body. In a `PATCH`, an absent field keeps its value; a blank
/// `headline` or `footer` clears it.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignBody {
    /// The account's QR code the sign prints (`POST` only; a sign keeps its code).
    #[serde(default)]
    pub qrcode_id: Option<String>,
    /// What the owner calls it.
    #[serde(default)]
    pub name: Option<String>,
    /// Template slug (`classico`, `faixa`, `moldura`, `minimalista`, `codigo`).
    #[serde(default)]
    pub template: Option<String>,
    /// Paper size slug (`a4`, `a5`, `a6`, `10x15`, `display-de-mesa`, `adesivos`, `quadrado`).
    #[serde(default)]
    pub size: Option<String>,
    /// Theme slug (`verde`, `azul`, `grafite`, `vinho`).
    #[serde(default)]
    pub theme: Option<String>,
    /// The headline; blank for the default.
    #[serde(default)]
    pub headline: Option<String>,
    /// The footer; blank for none.
    #[serde(default)]
    pub footer: Option<String>,
    /// Whether the account's logo is drawn.
    #[serde(default)]
    pub with_logo: Option<bool>,
}

fn template(text: &str) -> Result<Template, ApiError> {
    text.parse()
        .map_err(|e: domain::sign::SignError| ApiError::invalid_argument("template", e.to_string()))
}

fn size(text: &str) -> Result<PaperSize, ApiError> {
    text.parse()
        .map_err(|e: domain::sign::SignError| ApiError::invalid_argument("size", e.to_string()))
}

fn theme(text: &str) -> Result<Theme, ApiError> {
    text.parse()
        .map_err(|e: domain::sign::SignError| ApiError::invalid_argument("theme", e.to_string()))
}

impl SignBody {
    /// The choices of a new sign: absent ones take the sign routes' defaults (`classico`,
    /// `a4` — `quadrado` for the bare code —, `verde`, logo drawn).
    ///
    /// # Errors
    ///
    /// 422 `invalid-argument` under `template`, `size` or `theme` for a slug that names none.
    pub fn new_settings(&self) -> Result<SignSettings, ApiError> {
        let template = match self.template.as_deref() {
            Some(text) => template(text)?,
            None => Template::Classic,
        };
        let size = match self.size.as_deref() {
            Some(text) => size(text)?,
            None if template == Template::CodeOnly => PaperSize::Square,
            None => PaperSize::A4,
        };
        let theme = match self.theme.as_deref() {
            Some(text) => theme(text)?,
            None => Theme::default(),
        };
        Ok(SignSettings {
            name: self.name.clone().unwrap_or_default(),
            template,
            size,
            theme,
            headline: self.headline.clone(),
            footer: self.footer.clone(),
            with_logo: self.with_logo.unwrap_or(true),
        })
    }

    /// The choices of `view` with this body's fields laid over them.
    ///
    /// # Errors
    ///
    /// As [`SignBody::new_settings`].
    pub fn changed_settings(&self, view: &SignView) -> Result<SignSettings, ApiError> {
        Ok(SignSettings {
            name: self.name.clone().unwrap_or_else(|| view.name.clone()),
            template: template(self.template.as_deref().unwrap_or(&view.template))?,
            size: size(self.size.as_deref().unwrap_or(&view.size))?,
            theme: theme(self.theme.as_deref().unwrap_or(&view.theme))?,
            headline: self.headline.clone().or_else(|| view.headline.clone()),
            footer: self.footer.clone().or_else(|| view.footer.clone()),
            with_logo: self.with_logo.unwrap_or(view.with_logo),
        })
    }
}

/// The settings a row holds, read back into the domain's types (a duplicate's start).
///
/// # Errors
///
/// Never for a row the projection wrote (its slugs came from the domain's own types).
pub fn settings_of(view: &SignView) -> Result<SignSettings, ApiError> {
    SignBody::default().changed_settings(view)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_sign_takes_the_sign_routes_defaults() {
        let body = SignBody {
            name: Some("Caixa".to_owned()),
            ..SignBody::default()
        };
        let settings = body.new_settings().expect("defaults");
        assert_eq!(settings.template, Template::Classic);
        assert_eq!(settings.size, PaperSize::A4);
        assert_eq!(settings.theme, Theme::Green);
        assert!(settings.with_logo);
        let bare = SignBody {
            template: Some("codigo".to_owned()),
            ..SignBody::default()
        };
        assert_eq!(bare.new_settings().expect("bare").size, PaperSize::Square);
    }

    #[test]
    fn an_unknown_slug_is_refused_under_its_field_naming_the_accepted_values() {
        let body = SignBody {
            size: Some("carta".to_owned()),
            ..SignBody::default()
        };
        let error = body.new_settings().expect_err("no such size");
        assert_eq!(error.status(), axum::http::StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            error.message().contains("a4, a5, a6"),
            "{}",
            error.message()
        );
    }
}
