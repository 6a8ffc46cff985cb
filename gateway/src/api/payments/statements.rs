//! Bank statements (issue 35): the owner uploads the OFX or CSV the bank app exported, sees what
//! each Pix received in it is, picks the code of each line that fits several, and imports; an
//! import can be undone as a whole.
//!
//! | call | who | answer |
//! |---|---|---|
//! | `POST …/extratos/previa` `{arquivo, conteudo}` | owner, manager ([`Right::ViewAllTransactions`]) | 200 the counts and every Pix credit line with its decision; nothing written |
//! | `POST …/extratos` `{arquivo, conteudo, escolhas: [{linha, qrcode}]}` (an `Idempotency-Key` names the import: a retry is the same import, and its claims make it record nothing more) | as the preview | 201 `{importacao, registrados, vinculados, jaImportados}`; with more than [`BACKGROUND_LINES`] lines to write, 202 `{importacao, emAndamento, total}` and the lines are written in the background ([`super::statement_runs`]) |
//! | `GET …/extratos/{importacao}/andamento` | as the preview | 200 how far a background import has got; 404 |
//! | `DELETE …/extratos/{importacao}` | as the preview | 200 `{importacao, anulados, liberados}`; 404; 409 `statement-import-already-undone` |
//! | `GET …/extratos` | as the preview | 200 `{importacoes: [{importacao, arquivo, quando, quem, registrados, desfeita, desfeitaEm}]}`, newest first (the `statement_imports` read model; an import that recorded no payment is not listed) |
//!
//! `conteudo` is the file's bytes in base64 (what a browser's `FileReader` gives), at most
//! [`MAX_FILE_BYTES`]: more is 413 `statement-too-large`. A file that cannot be read is 422 with
//! the parser's pt-BR message naming the line (`statement-…` codes, `field: "file"`), an
//! unknown CSV layout 422 `statement-unknown-csv-layout` quoting the header, with the file's
//! first rows in `error.details.amostra` (`{separador, linhas}`); nothing is written. The owner
//! then names the columns: preview and import take `colunas` (1-based: `{separador: ";" | "," |
//! "tab", cabecalho, data, valor | entrada + saida, descricao: [..], identificador?}`, each
//! checked, 422 `invalid-argument` naming `colunas.…`), and read the file with them.
//!
//! The import never trusts the preview the client saw: it parses and reconciles the file again,
//! against the account's codes and payments as they are then, and takes from the client only
//! the owner's picks (`escolhas`), each checked to be a code of this account. Every line an
//! ambiguous decision left open needs a pick (a code, or `null` for "sem QR code"); a pick may
//! also overrule a match. Lines are recorded by `commands::payments::statement_import`, in
//! batches of at most `MAX_BATCH_LINES`, each batch one transaction; the line claims make a
//! repeated or overlapping import record nothing twice.
//!
//! What the book is made of: the account's codes and payment links and its standing payments of
//! the statement's days (read models: they only suggest, the owner confirms, and the claims and
//! the payment streams keep anything from counting twice), and the lines already imported or
//! linked, from the claims themselves (write side).

use std::collections::{HashMap, HashSet};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use chrono::{Duration, SecondsFormat};
use commands::FeedPosition;
use commands::payments::statement_import::{
    ImportLine, LineTarget, MAX_BATCH_LINES, StatementBatch, UndoImport, claimed_lines,
    line_claim_value, record_statement_batch, undo_statement_import,
};
use domain::money::Centavos;
use domain::statement::csv::{AmountColumns, ColumnMap};
use domain::statement::reconcile::{
    Book, CandidateCode, Confidence, Decision, Reconciled, RecordedPayment, Rules, reconcile,
};
use domain::statement::{Statement, StatementLine};
use domain::team::Right;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use super::statement_runs::{BACKGROUND_LINES, Run, start};
use crate::api::access::{Workspace, projection_error};
use crate::api::json::Json;
use crate::api::support::metadata;
use crate::error::ApiError;
use crate::read_your_writes::wait_for;
use crate::state::AppState;

/// The largest statement file accepted: a year of a busy shop's OFX is well under it.
pub const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;

/// The request body limit of the statement routes: the file in base64 and the picks.
pub const BODY_LIMIT: usize = MAX_FILE_BYTES / 3 * 4 + 1024 * 1024;

/// How many codes and links of the account are looked at (the newest).
const MAX_CODES: i64 = 20_000;

/// A link's id in the book, apart from QR codes' ids.
const LINK_PREFIX: &str = "link:";

/// Namespace of import ids derived from idempotency keys (a fixed, random UUID of its own).
const IMPORT_ID_NAMESPACE: Uuid = Uuid::from_u128(0x3b8e_1f0a_9c24_4d6e_b5a7_02c9_e4f1_7d38);

/// The body of a preview or an import.
#[derive(Debug, Default, Deserialize)]
pub struct Upload {
    /// The file's name as the owner chose it.
    #[serde(default)]
    pub arquivo: String,
    /// The file's bytes, base64.
    #[serde(default)]
    pub conteudo: String,
    /// The owner's picks, by line of the file.
    #[serde(default)]
    pub escolhas: Vec<Pick>,
    /// Which column holds what, for a CSV of a layout Balcão does not know.
    #[serde(default)]
    pub colunas: Option<Columns>,
}

/// The owner's columns of a CSV (1-based, as the screen numbers them).
#[derive(Debug, Deserialize)]
pub struct Columns {
    /// `;`, `,` or `tab`.
    #[serde(default)]
    pub separador: String,
    /// Rows before the first transaction (the header, lines about the account).
    #[serde(default)]
    pub cabecalho: usize,
    /// The date's column.
    #[serde(default)]
    pub data: usize,
    /// The signed amount's column; or `entrada` and `saida`.
    #[serde(default)]
    pub valor: Option<usize>,
    /// Money in.
    #[serde(default)]
    pub entrada: Option<usize>,
    /// Money out.
    #[serde(default)]
    pub saida: Option<usize>,
    /// The description's columns, joined.
    #[serde(default)]
    pub descricao: Vec<usize>,
    /// The bank's id of the transaction, if a column has it.
    #[serde(default)]
    pub identificador: Option<usize>,
}

/// The most columns a mapping may name (a statement has a handful).
const MAX_COLUMN: usize = 60;

/// The most rows before the first transaction.
const MAX_HEADER_ROWS: usize = 50;

impl Columns {
    /// The mapping in the domain's terms, or 422 naming the field.
    fn mapping(&self) -> Result<domain::statement::CsvMapping, ApiError> {
        let wrong = |field: &str, message: &'static str| {
            ApiError::invalid_argument(format!("colunas.{field}"), message)
        };
        let separator = match self.separador.as_str() {
            ";" => ';',
            "," => ',',
            "tab" | "\t" => '\t',
            _ => {
                return Err(wrong(
                    "separador",
                    "Escolha o separador das colunas: ponto e vírgula, vírgula ou tabulação.",
                ));
            }
        };
        if self.cabecalho > MAX_HEADER_ROWS {
            return Err(wrong(
                "cabecalho",
                "Informe quantas linhas vêm antes do primeiro lançamento (até 50).",
            ));
        }
        let column = |n: usize| (1..=MAX_COLUMN).contains(&n).then(|| n - 1);
        let date = column(self.data)
            .ok_or_else(|| wrong("data", "Escolha a coluna com a data do lançamento."))?;
        let amount = match (self.valor, self.entrada, self.saida) {
            (Some(v), None, None) => AmountColumns::Signed(
                column(v).ok_or_else(|| wrong("valor", "Escolha a coluna com o valor."))?,
            ),
            (None, Some(credit), Some(debit)) => AmountColumns::Split {
                credit: column(credit)
                    .ok_or_else(|| wrong("entrada", "Escolha a coluna com as entradas."))?,
                debit: column(debit)
                    .ok_or_else(|| wrong("saida", "Escolha a coluna com as saídas."))?,
            },
            _ => {
                return Err(wrong(
                    "valor",
                    "Escolha a coluna do valor, ou as duas colunas de entradas e saídas.",
                ));
            }
        };
        if self.descricao.is_empty() || self.descricao.len() > 5 {
            return Err(wrong(
                "descricao",
                "Escolha de uma a cinco colunas com a descrição do lançamento.",
            ));
        }
        let description = self
            .descricao
            .iter()
            .map(|&n| column(n))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(|| {
                wrong(
                    "descricao",
                    "Escolha de uma a cinco colunas com a descrição do lançamento.",
                )
            })?;
        let id = match self.identificador {
            None => None,
            Some(n) => Some(column(n).ok_or_else(|| {
                wrong(
                    "identificador",
                    "Escolha a coluna com o identificador do lançamento, ou nenhuma.",
                )
            })?),
        };
        let mut roles: Vec<usize> = vec![date];
        match amount {
            AmountColumns::Signed(c) => roles.push(c),
            AmountColumns::Split { credit, debit } => roles.extend([credit, debit]),
        }
        roles.extend(id);
        let distinct: HashSet<usize> = roles.iter().copied().collect();
        if distinct.len() != roles.len() || description.iter().any(|c| distinct.contains(c)) {
            return Err(ApiError::invalid_argument(
                "colunas",
                "Cada coluna só pode ter um papel: a data, o valor e a descrição em colunas diferentes.",
            ));
        }
        Ok(domain::statement::CsvMapping {
            separator,
            header_rows: self.cabecalho,
            columns: ColumnMap {
                date,
                amount,
                description,
                id,
            },
        })
    }
}

/// 422 for a CSV of an unknown layout, with its first rows for the owner to name the columns.
fn unknown_layout(refusal: &domain::statement::StatementError, file: &[u8]) -> ApiError {
    let sample = domain::statement::csv_sample(file);
    let separator = match sample.separator {
        '\t' => "tab".to_owned(),
        other => other.to_string(),
    };
    ApiError::refused(refusal).with_details(json!({
        "amostra": {"separador": separator, "linhas": sample.rows},
    }))
}

/// The owner's pick for one line.
#[derive(Debug, Deserialize)]
pub struct Pick {
    /// The 1-based line of the file.
    pub linha: u64,
    /// The code (a QR code's id, or `link:` and a payment link's id); `null`: "sem QR code".
    #[serde(default)]
    pub qrcode: Option<String>,
}

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "statement-too-large",
        "O extrato passa de 5 MB. Exporte no app do banco um período menor e envie de novo.",
    )
}

/// The body read, the file decoded and parsed.
fn read(body: Result<Bytes, BytesRejection>) -> Result<(Upload, Statement), ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::invalid_json("Não foi possível ler o arquivo enviado. Tente de novo.")
        }
    })?;
    let upload: Upload = crate::api::json::parse(&bytes)?;
    let name = upload.arquivo.trim();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(ApiError::invalid_argument(
            "arquivo",
            "Informe o nome do arquivo (até 200 caracteres).",
        ));
    }
    let file = base64::engine::general_purpose::STANDARD
        .decode(upload.conteudo.trim())
        .map_err(|_| {
            ApiError::invalid_argument(
                "conteudo",
                "O conteúdo do arquivo não chegou inteiro. Escolha o arquivo e envie de novo.",
            )
        })?;
    if file.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let statement = match &upload.colunas {
        Some(columns) => domain::statement::parse_mapped(&file, &columns.mapping()?),
        None => domain::statement::parse(&file),
    }
    .map_err(|e| match e {
        domain::statement::StatementError::UnknownCsvLayout { .. } => unknown_layout(&e, &file),
        _ => ApiError::refused(&e),
    })?;
    Ok((upload, statement))
}

/// What a code of the book is, for the screen.
struct CodeInfo {
    kind: &'static str,
    description: Option<String>,
    amount: Option<i64>,
}

/// The account's book for `statement` (see the module doc), and what each code is.
async fn book(
    state: &AppState,
    workspace: &Workspace,
    statement: &Statement,
) -> Result<(Book, HashMap<String, CodeInfo>), ApiError> {
    let account = workspace.account_uuid();
    let mut codes = Vec::new();
    let mut info = HashMap::new();
    for code in projections::qrcodes::list_by_owner(&state.pool, account, None, MAX_CODES)
        .await
        .map_err(projection_error)?
    {
        // A single-use code already paid takes no second payment.
        if code.single_use && code.paid_at.is_some() {
            continue;
        }
        let id = code.qrcode_id.hyphenated().to_string();
        info.insert(
            id.clone(),
            CodeInfo {
                kind: "qrcode",
                description: code.description.clone(),
                amount: code.amount_centavos,
            },
        );
        codes.push(CandidateCode {
            id,
            txid: Some(code.txid.clone()).filter(|t| t != "***"),
            amount: code
                .amount_centavos
                .and_then(|a| u64::try_from(a).ok())
                .map(Centavos::new),
            pix_key: Some(code.pix_key.clone()),
            created_at: code.created_at.fixed_offset(),
            valid_until: code.archived_at.map(|at| at.fixed_offset()),
            single_use: code.single_use,
        });
    }
    for link in projections::payment_links::list_by_owner(&state.pool, account, MAX_CODES)
        .await
        .map_err(projection_error)?
    {
        if link.paid_at.is_some() {
            continue;
        }
        let id = format!("{LINK_PREFIX}{}", link.link_id.hyphenated());
        info.insert(
            id.clone(),
            CodeInfo {
                kind: "link",
                description: link.description.clone(),
                amount: Some(link.amount_centavos),
            },
        );
        let until = match (link.expires_at, link.revoked_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        codes.push(CandidateCode {
            id,
            txid: Some(link.txid.clone()),
            amount: u64::try_from(link.amount_centavos).ok().map(Centavos::new),
            pix_key: Some(link.pix_key.clone()),
            created_at: link.created_at.fixed_offset(),
            valid_until: until.map(|at| at.fixed_offset()),
            single_use: true,
        });
    }
    let days: Vec<_> = statement
        .pix_credits()
        .map(|l| l.posted.day_in_brasilia())
        .collect();
    let mut payments: Vec<RecordedPayment> = Vec::new();
    if let (Some(first), Some(last)) = (days.iter().min(), days.iter().max()) {
        for view in projections::payments::standing_in_days(
            &state.pool,
            account,
            *first - Duration::days(1),
            *last + Duration::days(1),
        )
        .await
        .map_err(projection_error)?
        {
            payments.push(RecordedPayment {
                reference: view.reference.clone(),
                amount: Centavos::new(u64::try_from(view.amount_centavos).unwrap_or(0)),
                paid_at: view.paid_at.fixed_offset(),
                pix_key: view.pix_key.clone(),
                end_to_end_id: view.end_to_end_id.clone(),
                from_statement: view.source == "extrato",
                statement_lines: Vec::new(),
            });
        }
    }
    // The lines the write side knows were imported or linked: this file's by their key, the
    // others only as "this payment has its line".
    let claims = claimed_lines(&state.pool, workspace.account_id()).await?;
    let prefix = format!("{}:", workspace.account_id());
    let mut by_reference: HashMap<String, usize> = payments
        .iter()
        .enumerate()
        .map(|(i, p)| (p.reference.clone(), i))
        .collect();
    let mut keys_here: HashMap<String, String> = HashMap::new();
    for line in statement.pix_credits() {
        let key = domain::statement::reconcile::line_key(statement, line);
        keys_here.insert(line_claim_value(&key), key);
    }
    for (value, owner) in &claims {
        let Some(reference) = owner.strip_prefix(&prefix) else {
            continue;
        };
        let key = keys_here
            .get(value)
            .cloned()
            .unwrap_or_else(|| format!("claim:{value}"));
        let i = *by_reference.entry(reference.to_owned()).or_insert_with(|| {
            // Not among the standing payments of those days (another day, or not projected
            // yet): known by its claim alone, never matched by amount.
            payments.push(RecordedPayment {
                reference: reference.to_owned(),
                amount: Centavos::new(0),
                paid_at: chrono::DateTime::UNIX_EPOCH.fixed_offset(),
                pix_key: None,
                end_to_end_id: None,
                from_statement: true,
                statement_lines: Vec::new(),
            });
            payments.len() - 1
        });
        payments[i].statement_lines.push(key);
    }
    Ok((
        Book {
            codes,
            payments,
            statement_keys: Vec::new(),
        },
        info,
    ))
}

fn at(line: &StatementLine) -> String {
    line.posted.at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn confidence(confidence: Confidence) -> (&'static str, &'static str) {
    match confidence {
        Confidence::Txid => ("txid", "Certo: o extrato traz o identificador do QR code"),
        Confidence::AmountAndTime => (
            "valor_e_horario",
            "Provável: único QR code deste valor válido neste horário",
        ),
        Confidence::OpenAmount => (
            "valor_aberto",
            "Possível: único QR code de valor livre válido neste horário",
        ),
    }
}

fn code_json(id: &str, info: &HashMap<String, CodeInfo>) -> serde_json::Value {
    let code = info.get(id);
    json!({
        "id": id,
        "tipo": code.map_or("qrcode", |c| c.kind),
        "descricao": code.and_then(|c| c.description.clone()),
        "valorCentavos": code.and_then(|c| c.amount),
    })
}

fn line_json(r: &Reconciled<'_>, info: &HashMap<String, CodeInfo>) -> serde_json::Value {
    let line = r.line;
    let payer = match &line.name {
        Some(name) if !line.memo.contains(name.as_str()) => format!("{} - {name}", line.memo),
        _ => line.memo.clone(),
    };
    let mut json = json!({
        "linha": line.line,
        "data": at(line),
        "soDia": !line.posted.has_time,
        "valorCentavos": line.amount_centavos,
        "texto": payer,
    });
    match &r.decision {
        Decision::AlreadyImported { payment } => {
            json["decisao"] = json!("ja_importado");
            json["pagamento"] = json!(payment);
        }
        Decision::Duplicate { payment } => {
            json["decisao"] = json!("mesmo_pagamento");
            json["pagamento"] = json!(payment);
        }
        Decision::Matched {
            code,
            confidence: c,
        } => {
            let (id, words) = confidence(*c);
            json["decisao"] = json!("qrcode");
            json["qrcode"] = code_json(code, info);
            json["confianca"] = json!(id);
            json["confiancaTexto"] = json!(words);
        }
        Decision::Ambiguous { candidates } => {
            json["decisao"] = json!("ambiguo");
            json["candidatos"] = candidates.iter().map(|c| code_json(c, info)).collect();
        }
        Decision::Unmatched => json["decisao"] = json!("sem_qrcode"),
    }
    json
}

/// `POST /api/accounts/{accountId}/extratos/previa`: what importing the file would do.
///
/// # Errors
///
/// As the module table says.
pub async fn preview(
    State(state): State<AppState>,
    workspace: Workspace,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    workspace.require(Right::ViewAllTransactions)?;
    let (upload, statement) = read(body)?;
    let (book, info) = book(&state, &workspace, &statement).await?;
    let reconciled = reconcile(&statement, &book, Rules::default());
    let lines: Vec<serde_json::Value> = reconciled.iter().map(|r| line_json(r, &info)).collect();
    let count =
        |wanted: fn(&Decision) -> bool| reconciled.iter().filter(|r| wanted(&r.decision)).count();
    let credits = reconciled.len();
    Ok(Json(json!({
        "arquivo": upload.arquivo.trim(),
        "formato": match statement.format {
            domain::statement::StatementFormat::Ofx => "OFX".to_owned(),
            // Read as the owner said: no bank to name, and no parentheses inside the screen's.
            domain::statement::StatementFormat::Csv(domain::statement::csv::CHOSEN_COLUMNS) => {
                "CSV com as colunas escolhidas".to_owned()
            }
            domain::statement::StatementFormat::Csv(bank) => format!("CSV do {bank}"),
        },
        "linhasLidas": statement.lines.len(),
        "creditosPix": credits,
        "ignorados": statement.lines.len() - credits,
        "porQrcode": count(|d| matches!(d, Decision::Matched { .. })),
        "semQrcode": count(|d| matches!(d, Decision::Unmatched)),
        "mesmoPagamento": count(|d| matches!(d, Decision::Duplicate { .. })),
        "jaImportados": count(|d| matches!(d, Decision::AlreadyImported { .. })),
        "aRevisar": count(|d| matches!(d, Decision::Ambiguous { .. })),
        "linhas": lines,
    })))
}

/// The target of a code of the book: a QR code or a payment link.
fn record_target(code: Option<&str>) -> LineTarget {
    match code {
        Some(id) => match id.strip_prefix(LINK_PREFIX) {
            Some(link) => LineTarget::Record {
                qrcode_id: None,
                payment_link_id: Some(link.to_owned()),
            },
            None => LineTarget::Record {
                qrcode_id: Some(id.to_owned()),
                payment_link_id: None,
            },
        },
        None => LineTarget::Record {
            qrcode_id: None,
            payment_link_id: None,
        },
    }
}

/// The lines to import: each decision as the owner confirmed it.
fn confirmed(
    reconciled: &[Reconciled<'_>],
    picks: &[Pick],
    codes: &HashSet<&str>,
) -> Result<Vec<ImportLine>, ApiError> {
    let mut by_line: HashMap<u64, Option<&str>> = HashMap::new();
    for pick in picks {
        let code = pick.qrcode.as_deref().filter(|c| !c.is_empty());
        if let Some(code) = code
            && !codes.contains(code)
        {
            return Err(ApiError::invalid_argument(
                "escolhas",
                format!(
                    "Linha {}: o QR code escolhido não é desta conta (ou já foi pago).",
                    pick.linha
                ),
            ));
        }
        by_line.insert(pick.linha, code);
    }
    let mut lines = Vec::new();
    for r in reconciled {
        let number = u64::try_from(r.line.line).unwrap_or(u64::MAX);
        let target = match (&r.decision, by_line.get(&number)) {
            (Decision::AlreadyImported { .. }, _) => continue,
            (Decision::Duplicate { payment }, _) => LineTarget::SameAs {
                payment: payment.clone(),
            },
            (_, Some(pick)) => record_target(*pick),
            (Decision::Matched { code, .. }, None) => record_target(Some(code)),
            (Decision::Unmatched, None) => record_target(None),
            (Decision::Ambiguous { .. }, None) => {
                return Err(ApiError::invalid_argument(
                    "escolhas",
                    format!(
                        "Linha {number}: escolha o QR code deste Pix ou “sem QR code” antes de importar."
                    ),
                ));
            }
        };
        lines.extend(ImportLine::of(r, target));
    }
    Ok(lines)
}

/// `POST /api/accounts/{accountId}/extratos`: the confirmed import.
///
/// # Errors
///
/// As the module table says.
pub async fn import(
    State(state): State<AppState>,
    workspace: Workspace,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    workspace.require(Right::ViewAllTransactions)?;
    let key = crate::api::idempotency::key(&workspace, &headers, "painel-extrato")?;
    let (upload, statement) = read(body)?;
    let (book, _) = book(&state, &workspace, &statement).await?;
    let reconciled = reconcile(&statement, &book, Rules::default());
    let codes: HashSet<&str> = book.codes.iter().map(|c| c.id.as_str()).collect();
    let lines = confirmed(&reconciled, &upload.escolhas, &codes)?;
    let already_seen = reconciled.len() - lines.len();
    // A retry with its key is the same import: its lines' claims make it record nothing more.
    let import_id = crate::api::idempotency::id_for(&IMPORT_ID_NAMESPACE, key.as_ref());
    let meta = metadata(workspace.caller_id());
    let store = state.payments.commands.store();
    let recorded_at = crate::auth::accounts::now();
    if lines.len() > BACKGROUND_LINES {
        return start(
            &state,
            Run {
                account_id: workspace.account_uuid(),
                import_id,
                file_name: upload.arquivo.trim().to_owned(),
                recorded_by: workspace.caller_id().to_owned(),
                recorded_at,
                lines,
                already: already_seen,
                metadata: meta,
            },
        )
        .await;
    }
    let (mut recorded, mut linked, mut already) = (0, 0, already_seen);
    let mut position: Option<FeedPosition> = None;
    for chunk in lines.chunks(MAX_BATCH_LINES) {
        let batch = StatementBatch {
            account_id: workspace.account_id().to_owned(),
            import_id: import_id.to_string(),
            file_name: upload.arquivo.trim().to_owned(),
            recorded_by: workspace.caller_id().to_owned(),
            recorded_at: recorded_at.clone(),
            lines: chunk.to_vec(),
        };
        let outcome = match record_statement_batch(store, &batch, &meta).await {
            Ok(outcome) => outcome,
            // Batches already committed stand: say what they did rather than a failure.
            Err(error) if recorded + linked > 0 => {
                tracing::warn!(%error, import = %import_id, "a statement batch failed after others committed");
                return Ok(answer_import(
                    &state, import_id, recorded, linked, already, position, true,
                )
                .await);
            }
            Err(error) => return Err(error.into()),
        };
        recorded += outcome.recorded();
        linked += outcome.linked();
        already += outcome.already();
        position = outcome.position.or(position);
    }
    Ok(answer_import(
        &state, import_id, recorded, linked, already, position, false,
    )
    .await)
}

async fn answer_import(
    state: &AppState,
    import_id: Uuid,
    recorded: usize,
    linked: usize,
    already: usize,
    position: Option<FeedPosition>,
    partial: bool,
) -> Response {
    wait_for(state, projections::payments::NAME, position).await;
    wait_for(state, projections::statement_imports::NAME, position).await;
    let mut json = json!({
        "importacao": import_id,
        "registrados": recorded,
        "vinculados": linked,
        "jaImportados": already,
    });
    if partial {
        json["incompleta"] = json!(
            "Parte do extrato foi importada e parte não. Envie o mesmo arquivo de novo: só as linhas que faltam serão registradas."
        );
    }
    (StatusCode::CREATED, Json(json)).into_response()
}

/// `DELETE /api/accounts/{accountId}/extratos/{importId}`: undo an import as a whole.
///
/// # Errors
///
/// As the module table says.
pub async fn undo(
    State(state): State<AppState>,
    workspace: Workspace,
    Path((_, import_id)): Path<(String, String)>,
) -> Result<Json<serde_json::Value>, ApiError> {
    workspace.require(Right::ViewAllTransactions)?;
    let import_id = Uuid::parse_str(&import_id).map_err(|_| ApiError::not_found())?;
    let undo = UndoImport {
        account_id: workspace.account_id().to_owned(),
        import_id: import_id.to_string(),
        undone_by: workspace.caller_id().to_owned(),
        undone_at: crate::auth::accounts::now(),
    };
    let outcome = undo_statement_import(
        state.payments.commands.store(),
        &undo,
        &metadata(workspace.caller_id()),
    )
    .await?;
    wait_for(&state, projections::payments::NAME, outcome.position).await;
    wait_for(
        &state,
        projections::statement_imports::NAME,
        outcome.position,
    )
    .await;
    Ok(Json(json!({
        "importacao": import_id,
        "anulados": outcome.voided,
        "liberados": outcome.released,
    })))
}

/// `GET /api/accounts/{accountId}/extratos`: the account's imports, newest first.
///
/// # Errors
///
/// As the module table says.
pub async fn list(
    State(state): State<AppState>,
    workspace: Workspace,
) -> Result<Json<serde_json::Value>, ApiError> {
    workspace.require(Right::ViewAllTransactions)?;
    let imports = projections::statement_imports::list(&state.pool, workspace.account_uuid(), 200)
        .await
        .map_err(ApiError::from)?;
    let imports: Vec<serde_json::Value> = imports
        .iter()
        .map(|i| {
            json!({
                "importacao": i.import_id,
                "arquivo": i.file_name,
                "quando": i.imported_at.to_rfc3339_opts(SecondsFormat::Millis, true),
                "quem": i.imported_by,
                "registrados": i.recorded,
                "desfeita": i.undone_at.is_some(),
                "desfeitaEm": i.undone_at.map(|at| at.to_rfc3339_opts(SecondsFormat::Millis, true)),
            })
        })
        .collect();
    Ok(Json(json!({ "importacoes": imports })))
}
