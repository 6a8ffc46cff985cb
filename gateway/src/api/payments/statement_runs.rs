//! Big statement imports, run in the background with a progress bar (issue 35).
//!
//! A statement of 100,000 Pix is a hundred batches of `MAX_BATCH_LINES`: longer than a request
//! may last (the router answers 408 after 30 s, and a request cut short would drop its batch in
//! the middle). So an import with more than [`BACKGROUND_LINES`] lines to write is answered 202
//! `{importacao, emAndamento: true, total}` at once, and its batches are written by a task of its
//! own, which no client going away stops. The task notes after each batch how far it has got in
//! `statement_import_runs` (migration 0033: side state, not a read model), which
//! `GET …/extratos/{importacao}/andamento` ([`progress`]) answers from, on whichever gateway the
//! screen asks:
//!
//! `{importacao, arquivo, total, feitas, registrados, vinculados, jaImportados, concluida,
//! incompleta?, interrompida?}`; 404 for an import this account has no run of.
//!
//! What counts is still the write side: each batch claims its lines and appends its events in
//! one transaction, so a gateway that dies mid-file leaves whole batches, and the same file sent
//! again writes only the rest. The run then has no news for [`STALLED_AFTER_SECONDS`] and the screen says
//! so (`interrompida`). The same import asked for again while its run is alive (a retry with the
//! same `Idempotency-Key`) starts nothing: it is answered with that run.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use commands::FeedPosition;
use commands::payments::statement_import::{
    ImportLine, MAX_BATCH_LINES, StatementBatch, record_statement_batch,
};
use domain::team::Right;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::api::access::Workspace;
use crate::api::json::Json;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// More lines to write than this and the import runs in the background (two batches answer in
/// well under a second; a hundred may not within a request).
pub const BACKGROUND_LINES: usize = 2 * MAX_BATCH_LINES;

/// A run with no news for this long is taken as stopped (its gateway restarted): a batch is a
/// few hundred milliseconds, and every statement of it is bounded by the statement timeout.
pub const STALLED_AFTER_SECONDS: i64 = 120;

/// A big import to write in the background.
#[derive(Debug, Clone)]
pub struct Run {
    /// The account importing.
    pub account_id: Uuid,
    /// The import (from the request's `Idempotency-Key`, or new).
    pub import_id: Uuid,
    /// The file's name.
    pub file_name: String,
    /// Who imports, by account id.
    pub recorded_by: String,
    /// When, RFC 3339: every batch's `recorded_at`.
    pub recorded_at: String,
    /// The lines to write.
    pub lines: Vec<ImportLine>,
    /// Credits of the file that need no writing.
    pub already: usize,
    /// The request's metadata (correlation, who), for every batch.
    pub metadata: commands::CommandMetadata,
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// Starts `run` in the background unless a live run of the same import exists, and answers 202
/// with the run's figures either way.
///
/// # Errors
///
/// Storage failures noting the run (nothing was written then).
pub async fn start(state: &AppState, run: Run) -> Result<Response, ApiError> {
    let total = run.lines.len();
    // A run that finished or stalled is started afresh; a live one is left alone.
    let started: Option<bool> = sqlx::query_scalar(
        "insert into statement_import_runs (account_id, import_id, file_name, total, already)
         values ($1, $2, $3, $4, $5)
         on conflict (account_id, import_id) do update
            set file_name = excluded.file_name, total = excluded.total, done = 0, recorded = 0,
                linked = 0, already = excluded.already, incomplete = false, started_at = now(),
                updated_at = now(), finished_at = null
          where statement_import_runs.finished_at is not null
             or statement_import_runs.updated_at < now() - $6::bigint * interval '1 second'
         returning true",
    )
    .bind(run.account_id)
    .bind(run.import_id)
    .bind(&run.file_name)
    .bind(count(total))
    .bind(count(run.already))
    .bind(STALLED_AFTER_SECONDS)
    .fetch_optional(&state.pool)
    .await
    .map_err(ApiError::from)?;
    let import_id = run.import_id;
    if started.is_some() {
        tokio::spawn(write(state.clone(), run));
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({
            "importacao": import_id,
            "emAndamento": true,
            "total": total,
        })),
    )
        .into_response())
}

/// Writes the run's batches, noting each one; a failed batch ends the run as incomplete.
async fn write(state: AppState, run: Run) {
    let store = state.payments.commands.store();
    let account_id = run.account_id.to_string();
    let mut position: Option<FeedPosition> = None;
    let mut incomplete = false;
    for chunk in run.lines.chunks(MAX_BATCH_LINES) {
        let batch = StatementBatch {
            account_id: account_id.clone(),
            import_id: run.import_id.to_string(),
            file_name: run.file_name.clone(),
            recorded_by: run.recorded_by.clone(),
            recorded_at: run.recorded_at.clone(),
            lines: chunk.to_vec(),
        };
        match record_statement_batch(store, &batch, &run.metadata).await {
            Ok(outcome) => {
                position = outcome.position.or(position);
                let written = [
                    chunk.len(),
                    outcome.recorded(),
                    outcome.linked(),
                    outcome.already(),
                ];
                note(&state, &run, written, Ended::No).await;
            }
            Err(error) => {
                tracing::warn!(%error, import = %run.import_id, "a statement batch failed in the background");
                incomplete = true;
                break;
            }
        }
    }
    // Done when the screen can show it: the list and the imports include the last batch.
    wait_for(&state, projections::payments::NAME, position).await;
    wait_for(&state, projections::statement_imports::NAME, position).await;
    let ended = if incomplete {
        Ended::PartWay
    } else {
        Ended::Whole
    };
    note(&state, &run, [0; 4], ended).await;
}

/// Whether a run ended with this note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    No,
    Whole,
    PartWay,
}

/// Adds `written` (lines, recorded, linked, already there) to the run's row and notes how it
/// ended, if it did; a failure is logged and left: the row only feeds the progress bar.
async fn note(state: &AppState, run: &Run, written: [usize; 4], ended: Ended) {
    let [lines, recorded, linked, already] = written.map(count);
    let query = sqlx::query(
        "update statement_import_runs
            set done = done + $3, recorded = recorded + $4, linked = linked + $5,
                already = already + $6, incomplete = incomplete or $7,
                finished_at = case when $8 then now() else finished_at end, updated_at = now()
          where account_id = $1 and import_id = $2",
    )
    .bind(run.account_id)
    .bind(run.import_id)
    .bind(lines)
    .bind(recorded)
    .bind(linked)
    .bind(already)
    .bind(ended == Ended::PartWay)
    .bind(ended != Ended::No);
    if let Err(error) = query.execute(&state.pool).await {
        tracing::warn!(%error, import = %run.import_id, "the statement import's progress was not noted");
    }
}

/// The run's row.
#[derive(sqlx::FromRow)]
struct RunRow {
    file_name: String,
    total: i32,
    done: i32,
    recorded: i32,
    linked: i32,
    already: i32,
    incomplete: bool,
    updated_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
}

/// `GET /api/accounts/{accountId}/extratos/{importId}/andamento`: how far a background import
/// has got (see the module).
///
/// # Errors
///
/// 404 (`not-found`) for an import this account has no run of; the rights of the import.
pub async fn progress(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, import_id)): Path<(String, String)>,
) -> Result<Json<Value>, ApiError> {
    workspace.require(Right::ViewAllTransactions)?;
    let import_id = Uuid::parse_str(&import_id).map_err(|_| ApiError::not_found())?;
    let row: Option<RunRow> = sqlx::query_as(
        "select file_name, total, done, recorded, linked, already, incomplete, updated_at,
                finished_at, now() as now
           from statement_import_runs where account_id = $1 and import_id = $2",
    )
    .bind(workspace.account_uuid())
    .bind(import_id)
    .fetch_optional(&state.pool)
    .await
    .map_err(ApiError::from)?;
    let row = row.ok_or_else(ApiError::not_found)?;
    let mut answer = json!({
        "importacao": import_id,
        "arquivo": row.file_name,
        "total": row.total,
        "feitas": row.done,
        "registrados": row.recorded,
        "vinculados": row.linked,
        "jaImportados": row.already,
        "concluida": row.finished_at.is_some(),
    });
    if row.incomplete {
        answer["incompleta"] = json!(if row.done > 0 {
            "Parte do extrato foi importada e parte não. Envie o mesmo arquivo de novo: só as linhas que faltam serão registradas."
        } else {
            "Não foi possível importar o extrato agora. Envie o mesmo arquivo de novo em alguns minutos."
        });
    } else if row.finished_at.is_none()
        && (row.now - row.updated_at).num_seconds() > STALLED_AFTER_SECONDS
    {
        answer["interrompida"] = json!(
            "A importação parou no meio (o servidor foi reiniciado). Envie o mesmo arquivo de novo: só as linhas que faltam serão registradas."
        );
    }
    Ok(Json(answer))
}
