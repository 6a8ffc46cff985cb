//! The visitor's sign creator, `/criar-placa-pix`: no account needed.
//!
//! Two steps, both server-rendered: "Revisar dados" checks every field at once and shows how the
//! name and city will be written in the code; "Confirmar" sends `CreateQrCode` and, once the
//! `qrcodes` read model has the code (read-your-writes, bounded), redirects to
//! `/placa-pix-criada/{id}` ([`sign_created`]) with the code's private management token in a
//! cookie scoped to that page, and the sign's design (template, size, theme, headline, footer)
//! in its query, which the page's downloads and print link carry on.
//!
//! Beside the fields, the preview image is the sign itself ([`super::sign_preview`]) drawn
//! from the form's values: redrawn as they are typed when scripts run, from the last submit
//! when they do not.
//!
//! A field holding U+0000, which neither the event log nor the sign's address can carry
//! ([`domain::text::storable`]), is refused before anything else: the form again (422) with
//! that field's message and the character taken out, so nothing is made and sending again
//! works (`SignForm::without_nul`).

use std::time::Instant;

use askama::Template;
use axum::Form;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use commands::{CommandError, CommandMetadata, ExpectedVersion, IdempotencyKey};
use domain::brcode::{BrCodeError, FormPreview, StaticCodeRequest, preview_form};
use domain::qrcode::{CreateAnonymousQrCode, CreateQrCode, QrCodeCommand, QrCodeError};
use uuid::Uuid;

use crate::assets;
use crate::client_address::ClientAddress;
use crate::error::AppError;
use crate::html::{HtmlTemplate, Meta};
use crate::pages::sign_input::{FieldErrors, SignForm};
use crate::pages::{sign_created, sign_preview};
use crate::signs::SignRequest;
use crate::state::AppState;
use domain::sign::{self as layout, PaperSize, Template as SignTemplate, Theme};

/// The key kinds offered, as (form value, label).
const KEY_KINDS: [(&str, &str); 6] = [
    ("", "Identificar automaticamente"),
    ("cpf", "CPF"),
    ("cnpj", "CNPJ"),
    ("email", "E-mail"),
    ("telefone", "Celular"),
    ("aleatoria", "Chave aleatória"),
];

/// Namespace of the QR-code ids derived from idempotency keys (a fixed, random UUID).
const QRCODE_ID_NAMESPACE: Uuid = Uuid::from_u128(0x6f1c_2b7e_93d4_4a0b_8e55_21c9_0d3a_7f18);

/// What the review step shows.
#[derive(Debug, Clone)]
pub struct Preview {
    /// The key as it will be written.
    pub key: String,
    /// The name as it will be written.
    pub name: String,
    /// The city as it will be written.
    pub city: String,
    /// The amount in pt-BR, or "Valor livre".
    pub amount: String,
    /// The description as it will be written.
    pub description: Option<String>,
    /// What was changed, in pt-BR sentences.
    pub changes: Vec<String>,
    /// The key is a CPF: the page says how the sign hides it and what the code still carries.
    pub cpf: bool,
    /// The key as the sign prints it ("Chave CPF: ***.456.789-**").
    pub key_line: String,
}

/// One choice of a select: (value, label).
pub type Choice = (&'static str, &'static str);

/// The form page.
#[derive(Template)]
#[template(path = "sign_form.html")]
pub struct SignFormPage {
    /// Head data.
    pub meta: Meta,
    /// The values typed so far.
    pub form: SignForm,
    /// Key kinds for the select.
    pub key_kinds: &'static [(&'static str, &'static str)],
    /// Per-field messages.
    pub errors: FieldErrors,
    /// A message not tied to one field.
    pub general_error: Option<String>,
    /// The review, when every field is valid.
    pub preview: Option<Preview>,
    /// Templates offered (the bare code is the dashboard's download, not a sign).
    pub templates: Vec<Choice>,
    /// Paper sizes offered.
    pub sizes: Vec<Choice>,
    /// Colour themes offered.
    pub themes: Vec<Choice>,
    /// The design as it will be drawn: template, size and theme slugs.
    pub chosen: (&'static str, &'static str, &'static str),
    /// The default headline, as the field's placeholder.
    pub default_headline: &'static str,
    /// The longest headline and footer, for the fields' `maxlength`.
    pub max_headline: usize,
    /// The longest footer.
    pub max_footer: usize,
    /// The preview image's address for the values shown.
    pub preview_url: String,
    /// Path of the live-preview script.
    pub preview_js: &'static str,
}

fn page(state: &AppState, form: SignForm) -> SignFormPage {
    let (design, _) = form.design();
    let options = design.options;
    SignFormPage {
        meta: Meta::page(
            &state.site,
            "/criar-placa-pix",
            "Criar placa Pix grátis com QR code | Balcão",
            "Crie grátis uma placa Pix com QR code que todo app de banco aceita: digite a chave, o nome e a cidade e confira antes de imprimir.",
        )
        .with_json_ld(&state.site.organization_json_ld()),
        preview_url: form.preview_url(),
        form,
        key_kinds: &KEY_KINDS,
        errors: FieldErrors::default(),
        general_error: None,
        preview: None,
        templates: SignTemplate::ALL
            .into_iter()
            .filter(|t| *t != SignTemplate::CodeOnly)
            .map(|t| (t.slug(), t.label()))
            .collect(),
        sizes: PaperSize::ALL
            .into_iter()
            .filter(|s| *s != PaperSize::Square)
            .map(|s| (s.slug(), s.label()))
            .collect(),
        themes: Theme::ALL
            .into_iter()
            .map(|t| (t.slug(), t.label()))
            .collect(),
        chosen: (
            options.template.slug(),
            options.size.slug(),
            options.theme.slug(),
        ),
        default_headline: layout::DEFAULT_HEADLINE,
        max_headline: layout::MAX_HEADLINE_CHARS,
        max_footer: layout::MAX_FOOTER_CHARS,
        preview_js: assets::sign_preview_script_path(),
    }
}

/// `GET /criar-placa-pix`: the empty form.
pub async fn show(State(state): State<AppState>) -> HtmlTemplate<SignFormPage> {
    let form = SignForm {
        titulo: layout::DEFAULT_HEADLINE.to_owned(),
        ..SignForm::default()
    };
    HtmlTemplate(page(&state, form))
}

/// `POST /criar-placa-pix`: review, or create and redirect to the payer page.
pub async fn submit(
    State(state): State<AppState>,
    client: ClientAddress,
    Form(mut form): Form<SignForm>,
) -> Result<Response, AppError> {
    if let Some((clean, errors, general_error)) = form.without_nul() {
        let mut view = page(&state, clean);
        view.errors = errors;
        view.general_error = general_error;
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, HtmlTemplate(view)).into_response());
    }
    let preview = preview_form(&form.to_domain());
    let (design, design_errors) = form.design();
    if !preview.errors.is_empty() || design_errors.any() {
        form.confirmar.clear();
        return Ok(invalid_form(&state, form, &preview.errors, design_errors));
    }
    if form.confirmar != "1" {
        if Uuid::parse_str(&form.pedido).is_err() {
            form.pedido = Uuid::new_v4().to_string();
        }
        let mut view = page(&state, form);
        view.preview = Some(describe(&preview));
        return Ok(HtmlTemplate(view).into_response());
    }
    if let Err(wait) = state.create_limiter.check(client.0, Instant::now()) {
        return Err(AppError::TooManyRequests {
            retry_after_secs: wait.as_secs().max(1),
        });
    }
    create(&state, &form, preview, &design).await
}

async fn create(
    state: &AppState,
    form: &SignForm,
    preview: FormPreview,
    design: &SignRequest,
) -> Result<Response, AppError> {
    let request = match preview.into_request(false) {
        Ok(request) => request,
        Err(errors) => {
            return Ok(invalid_form(
                state,
                form.clone(),
                &errors,
                FieldErrors::default(),
            ));
        }
    };
    let mut metadata = CommandMetadata::start().by("visitante");
    // With an idempotency key the code's id derives from it, so a repeated submit names the same
    // stream and gets the first answer back; without one every submit is a new code.
    let qrcode_id = match Uuid::parse_str(&form.pedido)
        .ok()
        .and_then(|_| IdempotencyKey::parse(&idempotency_key(form, &request)).ok())
    {
        Some(key) => {
            let id = Uuid::new_v5(&QRCODE_ID_NAMESPACE, key.as_str().as_bytes());
            metadata = metadata.with_idempotency_key(key);
            id
        }
        None => Uuid::new_v4(),
    };
    // The management link's token: derived from the one-time request id, so a double submit
    // (answered with the first code) hands out the first code's token too.
    let request_id = if Uuid::parse_str(&form.pedido).is_ok() {
        form.pedido.clone()
    } else {
        Uuid::new_v4().to_string()
    };
    let token = sign_created::management_token(state, &format!("{qrcode_id}:{request_id}"));
    let command = QrCodeCommand::CreateAnonymousQrCode(CreateAnonymousQrCode {
        create: CreateQrCode {
            qrcode_id: qrcode_id.to_string(),
            owner_id: None,
            created_by: None,
            request,
            requested_at: chrono::Utc::now().to_rfc3339(),
        },
        management_digest: crate::signs::management_token_digest(&token),
    });
    let outcome = match state
        .qrcodes
        .execute_expecting(
            &qrcode_id.to_string(),
            command,
            ExpectedVersion::NoStream,
            metadata,
        )
        .await
    {
        Ok(outcome) => outcome,
        Err(CommandError::Rejected(QrCodeError::Invalid(errors))) => {
            return Ok(invalid_form(
                state,
                form.clone(),
                &errors,
                FieldErrors::default(),
            ));
        }
        Err(error) => return Err(AppError::from(error)),
    };
    let id = outcome.stream_id;
    // The design travels in the address: the page's downloads and print link carry it on.
    // No wait for the projector: the sign's page draws a code it has not written yet from the
    // code's own stream.
    let target = format!("/placa-pix-criada/{id}{}", design.query());
    let mut response = Redirect::to(&target).into_response();
    response.headers_mut().insert(
        axum::http::header::SET_COOKIE,
        sign_created::token_cookie(state, qrcode_id, &token),
    );
    Ok(response)
}

/// One confirmation of one set of values: a double submit repeats the key and makes one code,
/// while going back and changing a value makes a new one.
fn idempotency_key(form: &SignForm, request: &StaticCodeRequest) -> String {
    use sha2::{Digest, Sha256};
    let values = format!(
        "{}\n{}\n{}\n{:?}\n{:?}",
        request.key.as_str(),
        request.merchant_name,
        request.merchant_city,
        request.amount.map(|a| a.get()),
        request.additional_info,
    );
    let digest: String = Sha256::digest(values.as_bytes())
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("criar-placa-pix:{}:{digest}", form.pedido)
}

/// The form again, 422, with a pt-BR message per field.
fn invalid_form(
    state: &AppState,
    form: SignForm,
    errors: &[BrCodeError],
    design: FieldErrors,
) -> Response {
    let (errors, general_error) = FieldErrors::from_errors(errors);
    let mut view = page(state, form);
    view.errors = errors.with_design(design);
    view.general_error = general_error;
    (StatusCode::UNPROCESSABLE_ENTITY, HtmlTemplate(view)).into_response()
}

fn describe(preview: &FormPreview) -> Preview {
    Preview {
        key: preview
            .key
            .as_ref()
            .map(|k| k.as_str().to_owned())
            .unwrap_or_default(),
        name: preview.merchant_name.clone().unwrap_or_default(),
        city: preview.merchant_city.clone().unwrap_or_default(),
        amount: preview.amount.map_or_else(
            || "Valor livre (quem paga digita)".to_owned(),
            |a| a.to_string(),
        ),
        description: preview.additional_info.clone(),
        changes: preview.changes.iter().map(ToString::to_string).collect(),
        cpf: preview
            .key
            .as_ref()
            .is_some_and(|k| k.kind() == domain::pix_key::PixKeyKind::Cpf),
        key_line: preview
            .key
            .as_ref()
            .map(sign_preview::key_line)
            .unwrap_or_default(),
    }
}
