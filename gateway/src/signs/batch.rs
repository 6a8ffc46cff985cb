//! A batch's signs in one PDF: `GET /placas/lote/{batch_id}.pdf`, one page (or sticker sheet)
//! per code of a batch made with `POST /api/accounts/{id}/qrcodes/lote`, each page carrying its
//! own code (its own txid), in the order of the batch's lines.
//!
//! It takes the same query as the one-code files (`modelo`, `tamanho`, `tema`, `titulo`,
//! `rodape`, `logo=nao`; see [`super`]). Only PDF: PNG and SVG hold one page.
//!
//! Like the one-code files it needs no session: the batch id is as hard to guess as a code's
//! id, and every code it lists is already public on its own payer page and sign. Archived codes
//! take no payments, so they are left out; a batch with none left is a 404.
//!
//! | status | when |
//! |---|---|
//! | 200 | the PDF, `Content-Disposition: attachment; filename="placas-pix-lote-loja-da-ana-a6.pdf"`, `ETag` |
//! | 304 | `If-None-Match` matches (every code's payload and every option) |
//! | 400 | an unknown option (the pt-BR page of the one-code files) |
//! | 404 | not a batch id, no code of it still taking payments, or an extension other than `.pdf` |

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use domain::sign::{self, SignContent, SignDocument, Template as SignTemplate};
use projections::qrcodes;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{
    Format, SignRequest, account_logo, bad_options, content_for, etag, file_answer, file_name,
    holder_of, quoted_tag, render,
};
use crate::error::AppError;
use crate::state::AppState;

/// `placas-pix-lote-loja-da-ana-a6.pdf` (or `qrcodes-pix-lote-…` for bare codes): the
/// one-code file name, said in the plural.
pub fn batch_file_name(name: &str, request: &SignRequest) -> String {
    let single = file_name(name, &request.options, Format::Pdf);
    if let Some(rest) = single.strip_prefix("placa-pix-") {
        format!("placas-pix-lote-{rest}")
    } else if let Some(rest) = single.strip_prefix("qrcode-pix-") {
        format!("qrcodes-pix-lote-{rest}")
    } else {
        single
    }
}

/// The batch's tag: every page's own tag, in order, hashed together.
fn batch_etag(contents: &[SignContent], request: &SignRequest) -> String {
    let mut hash = Sha256::new();
    hash.update(b"lote\0");
    for content in contents {
        hash.update(etag(content, request, Format::Pdf).as_bytes());
    }
    quoted_tag(hash)
}

/// Lays every sign out and renders them as the pages of one PDF.
fn render_batch(contents: &[SignContent], request: &SignRequest) -> Result<Vec<u8>, AppError> {
    let docs = contents
        .iter()
        .map(|content| sign::layout(content, &request.options))
        .collect::<Result<Vec<SignDocument>, _>>()
        .map_err(|e| AppError::Internal(anyhow::anyhow!("sign layout: {e}")))?;
    render::pdf(&docs).map_err(|e| AppError::Internal(anyhow::anyhow!("sign render: {e}")))
}

/// `GET /placas/lote/{batch_id}.pdf`.
pub async fn download(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let id = file.strip_suffix(".pdf").ok_or(AppError::NotFound)?;
    let batch_id = Uuid::parse_str(id).map_err(|_| AppError::NotFound)?;
    let request = match SignRequest::from_query(&query) {
        Ok(request) => request,
        Err(message) => return Ok(bad_options(message)),
    };
    let views = qrcodes::list_by_batch(&state.pool, batch_id).await?;
    let first = views.first().ok_or(AppError::NotFound)?;
    let name = batch_file_name(&first.merchant_name, &request);
    // Every code of a batch belongs to the account that made it: one logo for all pages.
    let logo = match first.owner_id {
        Some(owner) if request.with_logo && request.options.template != SignTemplate::CodeOnly => {
            account_logo(&state, owner).await?
        }
        _ => None,
    };
    let mut contents: Vec<SignContent> = Vec::with_capacity(views.len());
    // The codes of a batch are usually made with one key: its holder is read once.
    let mut holders: HashMap<(Option<Uuid>, &str), Option<String>> = HashMap::new();
    for view in &views {
        let holder = match holders.get(&(view.key_id, view.pix_key.as_str())) {
            Some(holder) => holder.clone(),
            None => {
                let holder = holder_of(&state, view).await?;
                holders.insert((view.key_id, view.pix_key.as_str()), holder.clone());
                holder
            }
        };
        let mut content = content_for(view, holder, &request);
        content.logo.clone_from(&logo);
        contents.push(content);
    }
    let etag = batch_etag(&contents, &request);
    // Archiving a code changes the batch's pages: a cached copy is checked again after a minute.
    file_answer(
        &headers,
        &etag,
        &name,
        Format::Pdf,
        "public, max-age=60",
        move || render_batch(&contents, &request),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_batch_file_name_says_it_holds_many_signs() {
        let request = SignRequest::from_query(&HashMap::new()).expect("defaults");
        assert_eq!(
            batch_file_name("LOJA DA ANA", &request),
            "placas-pix-lote-loja-da-ana-a4.pdf"
        );
        let bare =
            SignRequest::from_query(&HashMap::from([("modelo".to_owned(), "codigo".to_owned())]))
                .expect("bare code");
        assert_eq!(
            batch_file_name("LOJA DA ANA", &bare),
            "qrcodes-pix-lote-loja-da-ana-quadrado.pdf"
        );
    }
}
