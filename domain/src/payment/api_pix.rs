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
//! | `valor` | required, `\d{1,10}\.\d{2}`, read into centavos without floats |
//! | `chave` | at most 77 characters |
//! | `horario` | required, RFC 3339 date-time |
//! | `infoPagador` | at most 140 characters |
//! | `componentesValor` | an object |
//! | `devolucoes` | array of `Devolucao` (a single object is also read, as the spec's own example `pixWebhook1` sends it) |
//! | `devolucoes[].id` | required, `[a-zA-Z0-9]{1,35}` |
//! | `devolucoes[].rtrId` | required, `[a-zA-Z0-9]{32}` |
//! | `devolucoes[].valor` | required, `\d{1,10}\.\d{2}` |
//! | `devolucoes[].horario` | required object; `solicitacao`, `liquidacao` RFC 3339 when present |
//! | `devolucoes[].status` | required, `EM_PROCESSAMENTO`, `DEVOLVIDO` or `NAO_REALIZADO` |
//! | `devolucoes[].natureza` | `ORIGINAL`, `RETIRADA`, `MED_OPERACIONAL`, `MED_FRAUDE` or `MED_PIX_AUTOMATICO` |
//! | `devolucoes[].descricao`, `motivo` | at most 140 characters |
//! | `pagador` | not in the 2.9.0 `Pix` schema, but sent by many PSPs: an object with `nome` (≤ 200), and `cpf` (11 digits) or `cnpj` (14 digits) |
//!
//! Patterns are matched against the whole value. Other properties are ignored, as JSON Schema
//! allows them; a property the schema types as a string must be a string (`null` is refused).

use chrono::DateTime;
use serde_json::{Map, Value};

use crate::money::Centavos;

use super::{RefundReport, RefundStatus};

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

/// Parses and validates a whole delivery.
///
/// # Errors
///
/// Every problem found (up to [`MAX_PROBLEMS`]), when the body is not JSON or any entry breaks
/// the schema.
pub fn parse_delivery(body: &[u8]) -> Result<Vec<PixEntry>, Vec<Problem>> {
    let value: Value = serde_json::from_slice(body).map_err(|error| {
        vec![Problem {
            path: String::new(),
            message: format!("O corpo não é JSON válido ({error})."),
        }]
    })?;
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
                if let Some(entry) = entry(object, &path, &mut problems) {
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

fn date_time(text: &str) -> bool {
    DateTime::parse_from_rfc3339(text).is_ok()
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
        Some(Value::String(text)) => Ok(Some(text)),
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
    let text = string(object, name, path, required, problems)?;
    match text {
        Some(text) if !valid(text) => {
            problems.add(&format!("{path}.{name}"), message);
            Err(())
        }
        other => Ok(other),
    }
}

fn at_most(max: usize) -> impl Fn(&str) -> bool {
    move |text: &str| text.chars().count() <= max
}

fn entry(object: &Map<String, Value>, path: &str, problems: &mut Problems) -> Option<PixEntry> {
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
    let valor = checked(
        object,
        "valor",
        path,
        true,
        problems,
        |t| decimal(t).is_some(),
        "O valor deve ser escrito como 110.00 (até 10 dígitos, ponto e 2 casas).",
    );
    let chave = checked(
        object,
        "chave",
        path,
        false,
        problems,
        at_most(77),
        "A chave pode ter até 77 caracteres.",
    );
    let horario = checked(
        object,
        "horario",
        path,
        true,
        problems,
        date_time,
        "O horário deve ser uma data e hora RFC 3339, como 2020-09-09T20:15:00.358Z.",
    );
    let info = checked(
        object,
        "infoPagador",
        path,
        false,
        problems,
        at_most(140),
        "O infoPagador pode ter até 140 caracteres.",
    );
    if let Some(components) = object.get("componentesValor")
        && !components.is_object()
    {
        problems.add(&format!("{path}.componentesValor"), "Deve ser um objeto.");
    }
    let payer = payer(object.get("pagador"), path, problems);
    let refunds = refunds(object.get("devolucoes"), path, problems);
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
    let name = checked(
        object,
        "nome",
        &path,
        false,
        problems,
        at_most(200),
        "O nome pode ter até 200 caracteres.",
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
        match item.as_object().map(|o| refund(o, &at, problems)) {
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
    let valor = checked(
        object,
        "valor",
        path,
        true,
        problems,
        |t| decimal(t).is_some(),
        "O valor deve ser escrito como 10.00 (até 10 dígitos, ponto e 2 casas).",
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
    let description = checked(
        object,
        "descricao",
        path,
        false,
        problems,
        at_most(140),
        "A descrição pode ter até 140 caracteres.",
    );
    let reason = checked(
        object,
        "motivo",
        path,
        false,
        problems,
        at_most(140),
        "O motivo pode ter até 140 caracteres.",
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
            let message = "Deve ser uma data e hora RFC 3339.";
            let requested = checked(
                horario,
                "solicitacao",
                &at,
                false,
                problems,
                date_time,
                message,
            );
            let settled = checked(
                horario,
                "liquidacao",
                &at,
                false,
                problems,
                date_time,
                message,
            );
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
        Ok(_),
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's examples `pixWebhook1` and `pixWebhook2`, as the callback body lists them.
    const SPEC_BODY: &str = r#"{"pix":[
      {"endToEndId":"E12345678202009091221kkkkkkkkkkk","txid":"c3e0e7a4e7f1469a9f782d3d4999343c",
       "valor":"110.00","horario":"2020-09-09T20:15:00.358Z","infoPagador":"0123456789",
       "devolucoes":{"id":"123ABC","rtrId":"D12345678202009091221abcdf098765","valor":"10.00",
                     "horario":{"solicitacao":"2020-09-09T20:15:00.358Z"},"status":"EM_PROCESSAMENTO"}},
      {"endToEndId":"E87654321202009091221dfghi123456","txid":"971122d8f37211eaadc10242ac120002",
       "valor":"110.00","horario":"2020-09-09T20:15:00.358Z","infoPagador":"0123456789"}]}"#;

    #[test]
    fn the_specs_own_examples_are_read_into_centavos_with_their_refund() {
        let entries = parse_delivery(SPEC_BODY.as_bytes()).expect("the spec's examples are valid");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].amount, Centavos::new(11_000));
        assert_eq!(entries[0].refunds.len(), 1);
        assert_eq!(entries[0].refunds[0].amount, Centavos::new(1_000));
        assert_eq!(entries[0].refunds[0].status, RefundStatus::EmProcessamento);
        assert_eq!(entries[1].payer_info.as_deref(), Some("0123456789"));
        assert!(entries[1].refunds.is_empty());
    }

    fn problems_of(body: &str) -> Vec<Problem> {
        parse_delivery(body.as_bytes()).expect_err("refused")
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
            parse_delivery(max.as_bytes()).expect("valid")[0].amount,
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
                SPEC_BODY.replacen("2020-09-09T20:15:00.358Z", "09/09/2020", 1),
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
        let entries = parse_delivery(body.as_bytes()).expect("valid");
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
}
