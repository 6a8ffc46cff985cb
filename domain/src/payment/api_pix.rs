//! The body of the API Pix webhook callback (`POST {webhookUrl}/pix`, BCB API Pix 2.9.0,
//! callbacks of `PUT /webhook/{chave}`), parsed and validated **whole** into domain values.
//!
//! [`parse_delivery`] accepts the delivery only when every entry matches the `Pix` schema and
//! every refund the `Devolucao` schema; otherwise it lists every problem (with its JSON path) and
//! the receiver writes nothing. The rules, from the spec:
//!
//! | field | rule |
//! |---|---|
//! | `pix` | required array of `Pix` |
//! | `endToEndId` | required, `[a-zA-Z0-9]{32}` |
//! | `txid` | `[a-zA-Z0-9]{1,35}` (the spec's `allOf` of `TxId`, 26–35, and 1–35: static codes use 1–25, so the wider one is what banks send) |
//! | `valor` | required, `\d{1,10}\.\d{2}`, read into centavos without floats; more than zero ([`bounds::amount`]) |
//! | `chave` | at most 77 characters, one line ([`text::one_line`]) |
//! | `horario` | required, RFC 3339 date-time, from the start of Pix to a few minutes from now ([`bounds::paid_at`]) |
//! | `infoPagador` | at most 140 characters, free text ([`text::free_text`]) |
//! | `componentesValor` | an object |
//! | `devolucoes` | array of `Devolucao` (a single object is also read, as the spec's own example `pixWebhook1` sends it) |
//! | `devolucoes[].id` | required, `[a-zA-Z0-9]{1,35}` |
//! | `devolucoes[].rtrId` | required, `[a-zA-Z0-9]{32}` |
//! | `devolucoes[].valor` | required, `\d{1,10}\.\d{2}`, more than zero |
//! | `devolucoes[].horario` | required object; `solicitacao`, `liquidacao` RFC 3339 when present, in the same window as `horario` |
//! | `devolucoes[].status` | required, `EM_PROCESSAMENTO`, `DEVOLVIDO` or `NAO_REALIZADO` |
//! | `devolucoes[].natureza` | `ORIGINAL`, `RETIRADA`, `MED_OPERACIONAL`, `MED_FRAUDE` or `MED_PIX_AUTOMATICO` |
//! | `devolucoes[].descricao`, `motivo` | at most 140 characters, free text |
//! | `pagador` | not in the 2.9.0 `Pix` schema, but sent by many PSPs: an object with `nome` (≤ 200, one line), and `cpf` (11 digits) or `cnpj` (14 digits) |
//! | every string read | no U+0000 ([`text::storable`]): PostgreSQL cannot hold it, and a projector would park the payment |
//!
//! Patterns are matched against the whole value. Other properties are ignored, as JSON Schema
//! allows them (and are not kept); a property the schema types as a string must be a string
//! (`null` is refused). A lone surrogate escape (`"\ud800"`) makes the body invalid JSON.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::money::Centavos;
use crate::text;

use super::{RefundReport, RefundStatus, bounds};

/// One `pix` entry, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PixEntry {
    /// `endToEndId`.
    pub end_to_end_id: String,
    /// `txid`.
    pub txid: Option<String>,
    /// `valor`.
    pub amount: Centavos,
    /// `chave`.
    pub chave: Option<String>,
    /// `horario`, as sent (RFC 3339).
    pub paid_at: String,
    /// `infoPagador`.
    pub payer_info: Option<String>,
    /// `pagador.nome`.
    pub payer_name: Option<String>,
    /// `pagador.cpf` or `pagador.cnpj`.
    pub payer_document: Option<String>,
    /// `devolucoes`.
    pub refunds: Vec<RefundReport>,
}

/// One problem with a delivery: where, and what (pt-BR).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// JSON path, e.g. `pix[3].endToEndId`.
    pub path: String,
    /// What is wrong, in pt-BR.
    pub message: String,
}

/// At most this many problems are listed (a hostile body could have millions).
pub const MAX_PROBLEMS: usize = 20;

/// Parses and validates a whole delivery received at `now` (the times it reports are bounded
/// by it, [`bounds::paid_at`]).
///
/// # Errors
///
/// Every problem found (up to [`MAX_PROBLEMS`]), when the body is not JSON or any entry breaks
/// the schema.
pub fn parse_delivery(body: &[u8], now: DateTime<Utc>) -> Result<Vec<PixEntry>, Vec<Problem>> {
    let value = json_of(body)?;
    let mut problems = Problems::default();
    let Some(list) = value
        .as_object()
        .and_then(|o| o.get("pix"))
        .and_then(Value::as_array)
    else {
        return Err(vec![Problem {
            path: "pix".to_owned(),
            message: "O corpo deve ser um objeto com a lista \"pix\".".to_owned(),
        }]);
    };
    let mut entries = Vec::with_capacity(list.len());
    for (index, item) in list.iter().enumerate() {
        let path = format!("pix[{index}]");
        match item.as_object() {
            Some(object) => {
                if let Some(entry) = entry(object, &path, now, &mut problems) {
                    entries.push(entry);
                }
            }
            None => problems.add(&path, "Cada Pix deve ser um objeto."),
        }
        if problems.full() {
            break;
        }
    }
    if problems.0.is_empty() {
        Ok(entries)
    } else {
        Err(problems.0)
    }
}

/// The body as JSON, or the one problem that it is not.
fn json_of(body: &[u8]) -> Result<Value, Vec<Problem>> {
    serde_json::from_slice(body).map_err(|error| {
        vec![Problem {
            path: String::new(),
            message: format!("O corpo não é JSON válido ({error})."),
        }]
    })
}

#[derive(Default)]
struct Problems(Vec<Problem>);

impl Problems {
    fn add(&mut self, path: &str, message: impl Into<String>) {
        if !self.full() {
            self.0.push(Problem {
                path: path.to_owned(),
                message: message.into(),
            });
        }
    }

    fn full(&self) -> bool {
        self.0.len() >= MAX_PROBLEMS
    }
}

/// `[a-zA-Z0-9]{min,max}`, whole.
fn alphanumeric(text: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// `\d{1,10}\.\d{2}`, whole.
fn decimal(text: &str) -> Option<Centavos> {
    let (integer, fraction) = text.split_once('.')?;
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !(1..=10).contains(&integer.len())
        || fraction.len() != 2
        || !digits(integer)
        || !digits(fraction)
    {
        return None;
    }
    Centavos::parse_emv(text).ok()
}

/// An RFC 3339 time a bank can report at `now` ([`bounds::paid_at`]).
fn bank_time(now: DateTime<Utc>) -> impl Fn(&str) -> Result<(), String> {
    move |text: &str| match DateTime::parse_from_rfc3339(text) {
        Ok(at) => bounds::paid_at(&at, now).map_err(|fault| fault.to_string()),
        Err(_) => Err(
            "O horário deve ser uma data e hora RFC 3339, como 2020-11-16T20:15:00.358Z."
                .to_owned(),
        ),
    }
}

/// A `valor` (`\d{1,10}\.\d{2}`) a payment or a refund can have ([`bounds::amount`]).
fn amount(format: &'static str) -> impl Fn(&str) -> Result<(), String> {
    move |text: &str| match decimal(text) {
        Some(centavos) => bounds::amount(centavos)
            .map(|_| ())
            .map_err(|fault| fault.to_string()),
        None => Err(format.to_owned()),
    }
}

/// The string at `name`: `Ok(None)` when absent, `Err(())` (a problem recorded) when not a string.
fn string<'a>(
    object: &'a Map<String, Value>,
    name: &str,
    path: &str,
    required: bool,
    problems: &mut Problems,
) -> Result<Option<&'a str>, ()> {
    let at = format!("{path}.{name}");
    match object.get(name) {
        None if required => {
            problems.add(&at, "Campo obrigatório ausente.");
            Err(())
        }
        None => Ok(None),
        Some(Value::String(text)) => match text::storable(text) {
            Ok(()) => Ok(Some(text)),
            Err(fault) => {
                problems.add(&at, fault.to_string());
                Err(())
            }
        },
        Some(_) => {
            problems.add(&at, "Deve ser um texto.");
            Err(())
        }
    }
}

/// A string field checked by `valid`, with `message` when it fails.
fn checked<'a>(
    object: &'a Map<String, Value>,
    name: &str,
    path: &str,
    required: bool,
    problems: &mut Problems,
    valid: impl Fn(&str) -> bool,
    message: &str,
) -> Result<Option<&'a str>, ()> {
    let check = |text: &str| {
        if valid(text) {
            Ok(())
        } else {
            Err(message.to_owned())
        }
    };
    checked_by(object, name, path, required, problems, check)
}

/// A string field checked by `check`, whose error is the problem's message.
fn checked_by<'a>(
    object: &'a Map<String, Value>,
    name: &str,
    path: &str,
    required: bool,
    problems: &mut Problems,
    check: impl Fn(&str) -> Result<(), String>,
) -> Result<Option<&'a str>, ()> {
    let text = string(object, name, path, required, problems)?;
    match text.map(check) {
        Some(Err(message)) => {
            problems.add(&format!("{path}.{name}"), message);
            Err(())
        }
        _ => Ok(text),
    }
}

/// At most `max` characters, and text of the `kind` given ([`text::one_line`],
/// [`text::free_text`]).
fn text_of(
    max: usize,
    kind: fn(&str) -> Result<(), text::TextFault>,
    too_long: &'static str,
) -> impl Fn(&str) -> Result<(), String> {
    move |text: &str| {
        if text.chars().count() > max {
            return Err(too_long.to_owned());
        }
        kind(text).map_err(|fault| fault.to_string())
    }
}

fn entry(
    object: &Map<String, Value>,
    path: &str,
    now: DateTime<Utc>,
    problems: &mut Problems,
) -> Option<PixEntry> {
    let e2e = checked(
        object,
        "endToEndId",
        path,
        true,
        problems,
        |t| alphanumeric(t, 32, 32),
        "O endToEndId deve ter exatamente 32 letras ou números.",
    );
    let txid = checked(
        object,
        "txid",
        path,
        false,
        problems,
        |t| alphanumeric(t, 1, 35),
        "O txid deve ter de 1 a 35 letras ou números.",
    );
    let valor = checked_by(
        object,
        "valor",
        path,
        true,
        problems,
        amount("O valor deve ser escrito como 110.00 (até 10 dígitos, ponto e 2 casas)."),
    );
    let chave = checked_by(
        object,
        "chave",
        path,
        false,
        problems,
        text_of(77, text::one_line, "A chave pode ter até 77 caracteres."),
    );
    let horario = checked_by(object, "horario", path, true, problems, bank_time(now));
    let info = checked_by(
        object,
        "infoPagador",
        path,
        false,
        problems,
        text_of(
            140,
            text::free_text,
            "O infoPagador pode ter até 140 caracteres.",
        ),
    );
    if let Some(components) = object.get("componentesValor")
        && !components.is_object()
    {
        problems.add(&format!("{path}.componentesValor"), "Deve ser um objeto.");
    }
    let payer = payer(object.get("pagador"), path, problems);
    let refunds = refunds(object.get("devolucoes"), path, now, problems);
    let (
        Ok(Some(e2e)),
        Ok(txid),
        Ok(Some(valor)),
        Ok(chave),
        Ok(Some(horario)),
        Ok(info),
        Ok(payer),
        Ok(refunds),
    ) = (e2e, txid, valor, chave, horario, info, payer, refunds)
    else {
        return None;
    };
    let (payer_name, payer_document) = payer;
    Some(PixEntry {
        end_to_end_id: e2e.to_owned(),
        txid: txid.map(str::to_owned),
        amount: decimal(valor)?,
        chave: chave.map(str::to_owned),
        paid_at: horario.to_owned(),
        payer_info: info.map(str::to_owned),
        payer_name,
        payer_document,
        refunds,
    })
}

type Payer = (Option<String>, Option<String>);

fn payer(value: Option<&Value>, path: &str, problems: &mut Problems) -> Result<Payer, ()> {
    let Some(value) = value else {
        return Ok((None, None));
    };
    let path = format!("{path}.pagador");
    let Some(object) = value.as_object() else {
        problems.add(&path, "Deve ser um objeto.");
        return Err(());
    };
    let name = checked_by(
        object,
        "nome",
        &path,
        false,
        problems,
        text_of(200, text::one_line, "O nome pode ter até 200 caracteres."),
    );
    let digits = |n: usize| move |t: &str| t.len() == n && t.bytes().all(|b| b.is_ascii_digit());
    let cpf = checked(
        object,
        "cpf",
        &path,
        false,
        problems,
        digits(11),
        "O CPF deve ter 11 dígitos.",
    );
    let cnpj = checked(
        object,
        "cnpj",
        &path,
        false,
        problems,
        digits(14),
        "O CNPJ deve ter 14 dígitos.",
    );
    let (Ok(name), Ok(cpf), Ok(cnpj)) = (name, cpf, cnpj) else {
        return Err(());
    };
    Ok((name.map(str::to_owned), cpf.or(cnpj).map(str::to_owned)))
}

fn refunds(
    value: Option<&Value>,
    path: &str,
    now: DateTime<Utc>,
    problems: &mut Problems,
) -> Result<Vec<RefundReport>, ()> {
    let path = format!("{path}.devolucoes");
    let items: Vec<&Value> = match value {
        None => return Ok(Vec::new()),
        Some(Value::Array(items)) => items.iter().collect(),
        // The spec's own example pixWebhook1 sends one refund as an object.
        Some(single @ Value::Object(_)) => vec![single],
        Some(_) => {
            problems.add(&path, "Deve ser uma lista de devoluções.");
            return Err(());
        }
    };
    let mut refunds = Vec::with_capacity(items.len());
    let mut failed = false;
    for (index, item) in items.into_iter().enumerate() {
        let at = format!("{path}[{index}]");
        match item.as_object().map(|o| refund(o, &at, now, problems)) {
            Some(Some(refund)) => refunds.push(refund),
            Some(None) => failed = true,
            None => {
                problems.add(&at, "Cada devolução deve ser um objeto.");
                failed = true;
            }
        }
    }
    if failed { Err(()) } else { Ok(refunds) }
}

const NATURES: [&str; 5] = [
    "ORIGINAL",
    "RETIRADA",
    "MED_OPERACIONAL",
    "MED_FRAUDE",
    "MED_PIX_AUTOMATICO",
];

fn refund(
    object: &Map<String, Value>,
    path: &str,
    now: DateTime<Utc>,
    problems: &mut Problems,
) -> Option<RefundReport> {
    let id = checked(
        object,
        "id",
        path,
        true,
        problems,
        |t| alphanumeric(t, 1, 35),
        "O id da devolução deve ter de 1 a 35 letras ou números.",
    );
    let rtr = checked(
        object,
        "rtrId",
        path,
        true,
        problems,
        |t| alphanumeric(t, 32, 32),
        "O rtrId deve ter exatamente 32 letras ou números.",
    );
    let valor = checked_by(
        object,
        "valor",
        path,
        true,
        problems,
        amount("O valor deve ser escrito como 10.00 (até 10 dígitos, ponto e 2 casas)."),
    );
    let nature = checked(
        object,
        "natureza",
        path,
        false,
        problems,
        |t| NATURES.contains(&t),
        "Natureza desconhecida.",
    );
    let description = checked_by(
        object,
        "descricao",
        path,
        false,
        problems,
        text_of(
            140,
            text::free_text,
            "A descrição pode ter até 140 caracteres.",
        ),
    );
    let reason = checked_by(
        object,
        "motivo",
        path,
        false,
        problems,
        text_of(
            140,
            text::free_text,
            "O motivo pode ter até 140 caracteres.",
        ),
    );
    let status = checked(
        object,
        "status",
        path,
        true,
        problems,
        |t| RefundStatus::parse(t).is_some(),
        "O status deve ser EM_PROCESSAMENTO, DEVOLVIDO ou NAO_REALIZADO.",
    );
    let times = match object.get("horario") {
        None => {
            problems.add(&format!("{path}.horario"), "Campo obrigatório ausente.");
            Err(())
        }
        Some(Value::Object(horario)) => {
            let at = format!("{path}.horario");
            let requested =
                checked_by(horario, "solicitacao", &at, false, problems, bank_time(now));
            let settled = checked_by(horario, "liquidacao", &at, false, problems, bank_time(now));
            match (requested, settled) {
                (Ok(r), Ok(s)) => Ok((r.map(str::to_owned), s.map(str::to_owned))),
                _ => Err(()),
            }
        }
        Some(_) => {
            problems.add(&format!("{path}.horario"), "Deve ser um objeto.");
            Err(())
        }
    };
    let (
        Ok(Some(id)),
        Ok(Some(rtr)),
        Ok(Some(valor)),
        Ok(nature),
        Ok(_),
        Ok(reason),
        Ok(Some(status)),
        Ok((requested_at, settled_at)),
    ) = (id, rtr, valor, nature, description, reason, status, times)
    else {
        return None;
    };
    Some(RefundReport {
        refund_id: id.to_owned(),
        rtr_id: rtr.to_owned(),
        amount: decimal(valor)?,
        status: RefundStatus::parse(status)?,
        nature: nature.map(str::to_owned),
        requested_at,
        settled_at,
        reason: reason.map(str::to_owned),
    })
}

/// Parses one `Devolucao` the bank answered (`PUT` or `GET /pix/{e2eid}/devolucao/{id}`),
/// checked as a `devolucoes` entry of a delivery is.
///
/// # Errors
///
/// Every problem found, when the body is not JSON or breaks the schema.
pub fn parse_refund(body: &[u8], now: DateTime<Utc>) -> Result<RefundReport, Vec<Problem>> {
    let value = json_of(body)?;
    let mut problems = Problems::default();
    let Some(object) = value.as_object() else {
        return Err(vec![Problem {
            path: String::new(),
            message: "A devolução deve ser um objeto.".to_owned(),
        }]);
    };
    match refund(object, "devolucao", now, &mut problems) {
        Some(report) if problems.0.is_empty() => Ok(report),
        _ => Err(problems.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's examples `pixWebhook1` and `pixWebhook2`, as the callback body lists them, moved
    /// from 2020-09-09 (before Pix began, so no bank sends it) to 2026-09-09.
    const SPEC_BODY: &str = r#"{"pix":[
      {"endToEndId":"E12345678202009091221kkkkkkkkkkk","txid":"c3e0e7a4e7f1469a9f782d3d4999343c",
       "valor":"110.00","horario":"2026-09-09T20:15:00.358Z","infoPagador":"0123456789",
       "devolucoes":{"id":"123ABC","rtrId":"D12345678202009091221abcdf098765","valor":"10.00",
                     "horario":{"solicitacao":"2026-09-09T20:15:00.358Z"},"status":"EM_PROCESSAMENTO"}},
      {"endToEndId":"E87654321202009091221dfghi123456","txid":"971122d8f37211eaadc10242ac120002",
       "valor":"110.00","horario":"2026-09-09T20:15:00.358Z","infoPagador":"0123456789"}]}"#;

    #[test]
    fn the_specs_own_examples_are_read_into_centavos_with_their_refund() {
        let entries =
            parse_delivery(SPEC_BODY.as_bytes(), now()).expect("the spec's examples are valid");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].amount, Centavos::new(11_000));
        assert_eq!(entries[0].refunds.len(), 1);
        assert_eq!(entries[0].refunds[0].amount, Centavos::new(1_000));
        assert_eq!(entries[0].refunds[0].status, RefundStatus::EmProcessamento);
        assert_eq!(entries[1].payer_info.as_deref(), Some("0123456789"));
        assert!(entries[1].refunds.is_empty());
    }

    fn problems_of(body: &str) -> Vec<Problem> {
        parse_delivery(body.as_bytes(), now()).expect_err("refused")
    }

    /// The clock the tests read deliveries at.
    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-27T21:00:00Z")
            .expect("a time")
            .with_timezone(&Utc)
    }

    #[test]
    fn one_bad_field_anywhere_refuses_the_whole_delivery_and_names_it() {
        let bad = SPEC_BODY.replace("E87654321202009091221dfghi123456", "E8765");
        let problems = problems_of(&bad);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].path, "pix[1].endToEndId");
    }

    #[test]
    fn amounts_must_have_exactly_two_decimals_and_no_sign() {
        for valor in [
            "110",
            "110.0",
            "110.000",
            "-1.00",
            "1,00",
            "12345678901.00",
            " 1.00",
        ] {
            let bad = SPEC_BODY.replacen("\"110.00\"", &format!("{valor:?}"), 1);
            let problems = problems_of(&bad);
            assert_eq!(problems[0].path, "pix[0].valor", "{valor}: {problems:?}");
        }
        let max = SPEC_BODY.replacen("\"110.00\"", "\"9999999999.99\"", 1);
        assert_eq!(
            parse_delivery(max.as_bytes(), now()).expect("valid")[0].amount,
            Centavos::new(999_999_999_999)
        );
    }

    #[test]
    fn txid_chave_horario_and_refund_fields_are_checked_too() {
        let cases = [
            (
                SPEC_BODY.replacen("c3e0e7a4e7f1469a9f782d3d4999343c", "tem espaço", 1),
                "pix[0].txid",
            ),
            (
                SPEC_BODY.replacen(
                    "\"infoPagador\"",
                    &format!("\"chave\":\"{}\",\"infoPagador\"", "x".repeat(78)),
                    1,
                ),
                "pix[0].chave",
            ),
            (
                SPEC_BODY.replacen("2026-09-09T20:15:00.358Z", "09/09/2020", 1),
                "pix[0].horario",
            ),
            (
                SPEC_BODY.replacen("EM_PROCESSAMENTO", "PENDENTE", 1),
                "pix[0].devolucoes[0].status",
            ),
            (
                SPEC_BODY.replacen("D12345678202009091221abcdf098765", "D1", 1),
                "pix[0].devolucoes[0].rtrId",
            ),
            (
                SPEC_BODY.replacen("\"0123456789\"", "null", 1),
                "pix[0].infoPagador",
            ),
        ];
        for (body, path) in cases {
            let problems = problems_of(&body);
            assert_eq!(problems[0].path, path, "{problems:?}");
        }
    }

    #[test]
    fn a_body_that_is_not_a_pix_list_is_refused() {
        assert_eq!(problems_of("não é json").len(), 1);
        assert_eq!(problems_of("{}")[0].path, "pix");
        assert_eq!(problems_of(r#"{"pix":{}}"#)[0].path, "pix");
        assert_eq!(problems_of(r#"{"pix":[1]}"#)[0].path, "pix[0]");
    }

    #[test]
    fn a_payer_sent_by_the_bank_is_read_and_checked() {
        let body = SPEC_BODY.replacen(
            "\"infoPagador\"",
            r#""pagador":{"nome":"Maria da Silva","cpf":"12345678909"},"infoPagador""#,
            1,
        );
        let entries = parse_delivery(body.as_bytes(), now()).expect("valid");
        assert_eq!(entries[0].payer_name.as_deref(), Some("Maria da Silva"));
        assert_eq!(entries[0].payer_document.as_deref(), Some("12345678909"));
        let bad = body.replace("12345678909", "123");
        assert_eq!(problems_of(&bad)[0].path, "pix[0].pagador.cpf");
    }

    #[test]
    fn a_hostile_body_gets_a_bounded_list_of_problems() {
        let entries = vec![r#"{"endToEndId":"x"}"#; 1000].join(",");
        let problems = problems_of(&format!("{{\"pix\":[{entries}]}}"));
        assert_eq!(problems.len(), MAX_PROBLEMS);
    }

    #[test]
    fn a_nul_in_any_string_field_refuses_the_delivery_and_names_the_field() {
        let with_payer = SPEC_BODY.replacen(
            "\"infoPagador\"",
            r#""pagador":{"nome":"Maria","cpf":"12345678909"},"chave":"loja@padaria.test","infoPagador""#,
            1,
        );
        let cases = [
            ("\"0123456789\"", "pix[0].infoPagador"),
            ("\"Maria\"", "pix[0].pagador.nome"),
            ("\"loja@padaria.test\"", "pix[0].chave"),
            ("\"110.00\"", "pix[0].valor"),
            ("\"123ABC\"", "pix[0].devolucoes[0].id"),
            ("\"EM_PROCESSAMENTO\"", "pix[0].devolucoes[0].status"),
        ];
        for (value, path) in cases {
            let hostile = format!("{}\\u0000x\"", &value[..value.len() - 1]);
            let bad = with_payer.replacen(value, &hostile, 1);
            let problems = problems_of(&bad);
            assert_eq!(problems[0].path, path, "{problems:?}");
        }
        let bad = with_payer.replacen("\"Maria\"", "\"a\\u0000b\"", 1);
        assert_eq!(
            problems_of(&bad)[0].message,
            "O texto tem um caractere nulo (U+0000), que não pode ser guardado."
        );
    }

    #[test]
    fn a_control_character_in_a_name_is_refused_and_free_text_keeps_its_line_breaks() {
        let body = SPEC_BODY.replacen(
            "\"infoPagador\"",
            r#""pagador":{"nome":"Maria\u001b[31m"},"infoPagador""#,
            1,
        );
        let problems = problems_of(&body);
        assert_eq!(problems[0].path, "pix[0].pagador.nome");
        assert_eq!(
            problems[0].message,
            "O texto tem um caractere de controle, que não cabe aqui."
        );
        let lines = SPEC_BODY.replacen("\"0123456789\"", "\"mesa 3\\r\\npedido 12\"", 1);
        let entries = parse_delivery(lines.as_bytes(), now()).expect("valid");
        assert_eq!(
            entries[0].payer_info.as_deref(),
            Some("mesa 3\r\npedido 12")
        );
        let bell = SPEC_BODY.replacen("\"0123456789\"", "\"a\\u0007\"", 1);
        assert_eq!(problems_of(&bell)[0].path, "pix[0].infoPagador");
    }

    #[test]
    fn a_lone_surrogate_escape_is_not_json() {
        let bad = SPEC_BODY.replacen("\"0123456789\"", "\"a\\ud800b\"", 1);
        let problems = problems_of(&bad);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.starts_with("O corpo não é JSON válido"));
    }

    #[test]
    fn no_centavos_is_no_payment_nor_refund() {
        let zero = SPEC_BODY.replacen("\"110.00\"", "\"0.00\"", 1);
        let problems = problems_of(&zero);
        assert_eq!(problems[0].path, "pix[0].valor");
        assert_eq!(problems[0].message, "O valor deve ser maior que zero.");
        let refund = SPEC_BODY.replacen("\"10.00\"", "\"0.00\"", 1);
        assert_eq!(problems_of(&refund)[0].path, "pix[0].devolucoes[0].valor");
    }

    #[test]
    fn times_before_pix_or_ahead_of_the_clock_are_refused_everywhere_they_are_read() {
        for (year, message) in [
            (
                "0000",
                "A data não pode ser anterior a 03/11/2020, quando o Pix começou.",
            ),
            (
                "2020",
                "A data não pode ser anterior a 03/11/2020, quando o Pix começou.",
            ),
            ("9999", "A data não pode estar no futuro."),
        ] {
            let time = format!("{year}-09-09T20:15:00.358Z");
            let bad = SPEC_BODY.replace("2026-09-09T20:15:00.358Z", &time);
            let problems = problems_of(&bad);
            let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
            assert_eq!(
                paths,
                [
                    "pix[0].horario",
                    "pix[0].devolucoes[0].horario.solicitacao",
                    "pix[1].horario"
                ],
                "{year}"
            );
            assert!(
                problems.iter().all(|p| p.message == message),
                "{problems:?}"
            );
        }
        // A bank's clock a little ahead of ours is fine.
        let ahead = SPEC_BODY.replacen("2026-09-09T20:15:00.358Z", "2026-11-27T21:04:00Z", 1);
        assert!(parse_delivery(ahead.as_bytes(), now()).is_ok());
    }

    mod hostile {
        use proptest::prelude::*;

        use super::*;

        /// Strings a hostile or broken sender may put anywhere: NUL, other controls, lone
        /// surrogate escapes, quotes and backslashes, other scripts, and plain valid values.
        fn hostile() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("\\u0000".to_owned()),
                Just("a\\u0000b".to_owned()),
                Just("\\ud800".to_owned()),
                Just("\\udfff\\ud800".to_owned()),
                Just("\\u0007\\u001b[2J".to_owned()),
                Just("\\n\\r\\t".to_owned()),
                Just("\\u0085\\u009f".to_owned()),
                Just("\\\"'\\\\".to_owned()),
                Just("Zoë 李 ☕ \\ud83d\\ude00".to_owned()),
                Just("\\uFFFE\\uFFFF\\u200f".to_owned()),
                "[a-zA-Z0-9]{32}",
                "[a-zA-Z0-9]{1,35}",
                "[0-9]{1,3}\\.[0-9]{2}",
                Just("2026-10-01T12:00:00Z".to_owned()),
                Just("0000-01-01T00:00:00Z".to_owned()),
                Just("DEVOLVIDO".to_owned()),
                "[0-9]{11}",
                "\\PC{0,10}",
            ]
        }

        /// Every string field of the spec's delivery, by its path.
        const FIELDS: [&str; 16] = [
            "endToEndId",
            "txid",
            "valor",
            "chave",
            "horario",
            "infoPagador",
            "pagador.nome",
            "pagador.cpf",
            "devolucoes[0].id",
            "devolucoes[0].rtrId",
            "devolucoes[0].valor",
            "devolucoes[0].natureza",
            "devolucoes[0].descricao",
            "devolucoes[0].motivo",
            "devolucoes[0].status",
            "devolucoes[0].horario.solicitacao",
        ];

        /// The spec's delivery as JSON text with `raw` (already escaped) in `field`.
        fn delivery_with(field: &str, raw: &str) -> String {
            let mut values: Vec<(&str, String)> = [
                ("endToEndId", "E12345678202609091221kkkkkkkkkkk"),
                ("txid", "c3e0e7a4e7f1469a9f782d3d4999343c"),
                ("valor", "110.00"),
                ("chave", "loja@padaria.test"),
                ("horario", "2026-09-09T20:15:00.358Z"),
                ("infoPagador", "0123456789"),
                ("pagador.nome", "Maria"),
                ("pagador.cpf", "12345678909"),
                ("devolucoes[0].id", "123ABC"),
                ("devolucoes[0].rtrId", "D12345678202009091221abcdf098765"),
                ("devolucoes[0].valor", "10.00"),
                ("devolucoes[0].natureza", "ORIGINAL"),
                ("devolucoes[0].descricao", "troco"),
                ("devolucoes[0].motivo", "pedido"),
                ("devolucoes[0].status", "EM_PROCESSAMENTO"),
                ("devolucoes[0].horario.solicitacao", "2026-09-09T20:16:00Z"),
            ]
            .into_iter()
            .map(|(name, value)| (name, format!("\"{value}\"")))
            .collect();
            for (name, value) in &mut values {
                if *name == field {
                    *value = format!("\"{raw}\"");
                }
            }
            let v = |name: &str| {
                values
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            };
            format!(
                r#"{{"pix":[{{"endToEndId":{},"txid":{},"valor":{},"chave":{},"horario":{},
                "infoPagador":{},"pagador":{{"nome":{},"cpf":{}}},
                "devolucoes":[{{"id":{},"rtrId":{},"valor":{},"natureza":{},"descricao":{},
                "motivo":{},"status":{},"horario":{{"solicitacao":{}}}}}]}}]}}"#,
                v("endToEndId"),
                v("txid"),
                v("valor"),
                v("chave"),
                v("horario"),
                v("infoPagador"),
                v("pagador.nome"),
                v("pagador.cpf"),
                v("devolucoes[0].id"),
                v("devolucoes[0].rtrId"),
                v("devolucoes[0].valor"),
                v("devolucoes[0].natureza"),
                v("devolucoes[0].descricao"),
                v("devolucoes[0].motivo"),
                v("devolucoes[0].status"),
                v("devolucoes[0].horario.solicitacao"),
            )
        }

        fn storable(text: Option<&String>) -> bool {
            text.is_none_or(|t| crate::text::storable(t).is_ok())
        }

        proptest! {
            /// Whatever string lands in whichever field, a delivery is either read into values
            /// the store can hold, or refused naming that field (or, when the escape is no JSON
            /// at all, the body).
            #[test]
            fn hostile_text_in_any_field_is_read_storable_or_refused_by_name(
                field in proptest::sample::select(FIELDS.to_vec()),
                raw in hostile(),
            ) {
                let body = delivery_with(field, &raw);
                match parse_delivery(body.as_bytes(), now()) {
                    Ok(entries) => {
                        let entry = &entries[0];
                        prop_assert!(storable(entry.payer_info.as_ref()));
                        prop_assert!(entry.payer_name.as_deref().is_none_or(|n| crate::text::one_line(n).is_ok()));
                        prop_assert!(storable(entry.chave.as_ref()));
                        prop_assert!(entry.amount.get() > 0);
                        prop_assert!(storable(Some(&entry.paid_at)));
                        for refund in &entry.refunds {
                            prop_assert!(refund.amount.get() > 0);
                            prop_assert!(storable(refund.nature.as_ref()));
                            prop_assert!(storable(refund.requested_at.as_ref()));
                        }
                    }
                    Err(problems) => {
                        let expected = format!("pix[0].{field}");
                        prop_assert!(
                            problems.iter().all(|p| p.path == expected || p.path.is_empty()),
                            "{field} = {raw:?}: {problems:?}"
                        );
                    }
                }
            }
        }
    }
}
