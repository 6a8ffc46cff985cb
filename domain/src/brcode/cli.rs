//! The command-line face of the engine, as a pure function: arguments in, exit status and text
//! out, no I/O. The `brcode` example and the `balcao brcode` role are thin wrappers around
//! [`run`].
//!
//! ```text
//! brcode parse PAYLOAD
//! brcode make --key K --name N --city C [--key-type T] [--amount 12,50] [--txid T]
//!             [--info I] [--postal-code P] [--single-use]
//! brcode make --url U --name N --city C [--postal-code P]
//! brcode svg PAYLOAD [--level m|q]
//! ```
//!
//! * `parse` prints one JSON object `{"valid", "crc_valid", "errors", "warnings", "fields"}`
//!   (`valid` is strict validity; errors and warnings are `{code, field, message}`; `fields`
//!   uses the names of the shared vectors' `expected` objects). Exit status 0 when valid, 1 when
//!   not.
//! * `make` prints the payload on stdout and, on stderr, one pt-BR line per value it wrote
//!   differently from how it was typed. On any error it prints the pt-BR messages on stderr and
//!   exits with 2.
//! * `svg` prints the QR code as SVG (level M unless `--level q`).
//! * Usage errors exit with 2.
//!
//! ```
//! use domain::brcode::cli::run;
//!
//! let args: Vec<String> = ["make", "--key", "123.456.789-09", "--name", "José", "--city", "São Paulo", "--amount", "12,50"]
//!     .iter().map(|s| s.to_string()).collect();
//! let out = run(&args);
//! assert_eq!(out.exit_code, 0);
//! assert!(out.stdout.starts_with("000201"));
//! assert!(out.stderr.contains("“São Paulo” será escrito como “SAO PAULO”"));
//! ```

use serde_json::{Value, json};

use super::error::BrCodeError;
use super::make::{DynamicCodeRequest, StaticCodeForm, make_dynamic, make_static_from_form};
use super::parse::inspect;
use crate::qr::{EcLevel, QrMatrix};

/// What a CLI run produced. The wrapper writes `stdout` and `stderr` and exits with
/// `exit_code`.
///
/// ```
/// let out = domain::brcode::cli::run(&[]);
/// assert_eq!(out.exit_code, 2);
/// assert!(out.stderr.contains("Uso:"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliOutput {
    /// 0 success, 1 `parse` of an invalid code, 2 usage or input error.
    pub exit_code: u8,
    /// Text for standard output.
    pub stdout: String,
    /// Text for standard error.
    pub stderr: String,
}

/// The usage text (pt-BR).
///
/// ```
/// assert!(domain::brcode::cli::USAGE.starts_with("Uso:"));
/// ```
pub const USAGE: &str = "Uso:
  brcode parse CODIGO
  brcode make --key CHAVE --name NOME --city CIDADE [--key-type cpf|cnpj|email|telefone|aleatoria]
              [--amount 12,50] [--txid TXID] [--info MENSAGEM] [--postal-code CEP] [--single-use]
  brcode make --url ENDERECO --name NOME --city CIDADE [--postal-code CEP]
  brcode svg CODIGO [--level m|q]
";

impl CliOutput {
    fn ok(stdout: String, stderr: String) -> Self {
        Self {
            exit_code: 0,
            stdout,
            stderr,
        }
    }

    fn usage(message: &str) -> Self {
        Self {
            exit_code: 2,
            stdout: String::new(),
            stderr: format!("{message}\n{USAGE}"),
        }
    }

    fn errors(errors: &[BrCodeError]) -> Self {
        let stderr = errors.iter().map(|e| format!("Erro: {e}\n")).collect();
        Self {
            exit_code: 2,
            stdout: String::new(),
            stderr,
        }
    }
}

/// Runs one command. `args` are the arguments after the program name.
///
/// ```
/// use domain::brcode::cli::run;
///
/// let payload = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";
/// let out = run(&["parse".to_string(), payload.to_string()]);
/// let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
/// assert_eq!(json["valid"], true);
/// assert_eq!(json["fields"]["merchant_name"], "Fulano de Tal");
/// assert_eq!(out.exit_code, 0);
/// ```
#[must_use]
pub fn run(args: &[String]) -> CliOutput {
    let Some((command, rest)) = args.split_first() else {
        return CliOutput::usage("Informe um comando.");
    };
    match command.as_str() {
        "parse" => parse_command(rest),
        "make" => make_command(rest),
        "svg" => svg_command(rest),
        "help" | "--help" | "-h" | "ajuda" => CliOutput::ok(USAGE.to_owned(), String::new()),
        other => CliOutput::usage(&format!("Comando desconhecido: “{other}”.")),
    }
}

/// Splits `--flag value` / `--flag=value` pairs, positional arguments and bare switches.
struct Args {
    positional: Vec<String>,
    flags: Vec<(String, Option<String>)>,
}

const SWITCHES: [&str; 1] = ["--single-use"];

fn split_args(args: &[String]) -> Result<Args, String> {
    let mut parsed = Args {
        positional: Vec::new(),
        flags: Vec::new(),
    };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if !arg.starts_with("--") {
            parsed.positional.push(arg.clone());
            continue;
        }
        let (name, value) = match arg.split_once('=') {
            Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
            None if SWITCHES.contains(&arg.as_str()) => (arg.clone(), None),
            None => {
                let value = iter
                    .next()
                    .ok_or_else(|| format!("Falta o valor de {arg}."))?;
                (arg.clone(), Some(value.clone()))
            }
        };
        if parsed.flags.iter().any(|(n, _)| *n == name) {
            return Err(format!("A opção {name} foi informada duas vezes."));
        }
        parsed.flags.push((name, value));
    }
    Ok(parsed)
}

impl Args {
    fn take(&mut self, name: &str) -> Option<String> {
        let at = self.flags.iter().position(|(n, _)| n == name)?;
        self.flags.remove(at).1
    }

    fn switch(&mut self, name: &str) -> bool {
        let at = self.flags.iter().position(|(n, _)| n == name);
        at.map(|at| self.flags.remove(at)).is_some()
    }

    fn leftover(&self) -> Option<String> {
        self.flags
            .first()
            .map(|(n, _)| n.clone())
            .or_else(|| self.positional.first().cloned())
    }
}

fn parse_command(rest: &[String]) -> CliOutput {
    let [payload] = rest else {
        return CliOutput::usage("Informe um único código para ler (entre aspas).");
    };
    let report = inspect(payload);
    let list = |items: Vec<super::error::Report>| -> Value {
        serde_json::to_value(items).unwrap_or(Value::Null)
    };
    let output = json!({
        "valid": report.valid,
        "crc_valid": report.crc_valid,
        "errors": list(report.errors.iter().map(BrCodeError::report).collect()),
        "warnings": list(report.warnings.iter().map(super::error::Warning::report).collect()),
        "fields": report.code.as_ref().map_or_else(|| json!({}), super::fields::BrCode::fields_json),
    });
    CliOutput {
        exit_code: u8::from(!report.valid),
        stdout: format!("{output}\n"),
        stderr: String::new(),
    }
}

fn make_command(rest: &[String]) -> CliOutput {
    let mut args = match split_args(rest) {
        Ok(args) => args,
        Err(message) => return CliOutput::usage(&message),
    };
    let name = args.take("--name").unwrap_or_default();
    let city = args.take("--city").unwrap_or_default();
    let postal_code = args.take("--postal-code").unwrap_or_default();
    let made = if let Some(url) = args.take("--url") {
        if let Some(extra) = [
            "--key",
            "--key-type",
            "--amount",
            "--txid",
            "--info",
            "--single-use",
        ]
        .into_iter()
        .find(|f| args.flags.iter().any(|(n, _)| n == f))
        {
            return CliOutput::usage(&format!(
                "Código dinâmico (--url) não aceita {extra}: o valor e o txid vêm da cobrança."
            ));
        }
        let mut request = DynamicCodeRequest::new(url, name, city);
        request.postal_code = (!postal_code.trim().is_empty()).then_some(postal_code);
        if let Some(extra) = args.leftover() {
            return CliOutput::usage(&format!("Argumento não reconhecido: “{extra}”."));
        }
        make_dynamic(&request)
    } else {
        let form = StaticCodeForm {
            key: args.take("--key").unwrap_or_default(),
            key_kind: args.take("--key-type").unwrap_or_default(),
            merchant_name: name,
            merchant_city: city,
            amount: args.take("--amount").unwrap_or_default(),
            txid: args.take("--txid").unwrap_or_default(),
            additional_info: args.take("--info").unwrap_or_default(),
            postal_code,
            single_use: args.switch("--single-use"),
        };
        if let Some(extra) = args.leftover() {
            return CliOutput::usage(&format!("Argumento não reconhecido: “{extra}”."));
        }
        make_static_from_form(&form)
    };
    match made {
        Ok(made) => {
            let notes = made
                .changes
                .iter()
                .map(|c| format!("Ajuste: {c}\n"))
                .collect();
            CliOutput::ok(format!("{}\n", made.payload), notes)
        }
        Err(errors) => CliOutput::errors(&errors),
    }
}

fn svg_command(rest: &[String]) -> CliOutput {
    let mut args = match split_args(rest) {
        Ok(args) => args,
        Err(message) => return CliOutput::usage(&message),
    };
    let level = match args
        .take("--level")
        .map(|l| l.parse::<EcLevel>())
        .transpose()
    {
        Ok(level) => level.unwrap_or_default(),
        Err(e) => return CliOutput::usage(&e.to_string()),
    };
    let ([payload], None) = (&args.positional[..], args.flags.first()) else {
        return CliOutput::usage("Informe um único código para desenhar (entre aspas).");
    };
    match QrMatrix::encode(payload.trim(), level) {
        Ok(qr) => CliOutput::ok(format!("{}\n", qr.to_svg()), String::new()),
        Err(e) => CliOutput {
            exit_code: 2,
            stdout: String::new(),
            stderr: format!("Erro: {e}\n"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(args: &[&str]) -> CliOutput {
        run(&args.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
    }

    fn json(out: &CliOutput) -> Value {
        serde_json::from_str(&out.stdout).expect("one JSON object")
    }

    #[test]
    fn parse_prints_exactly_the_five_keys() {
        let out = run_with(&[
            "parse",
            "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D",
        ]);
        let value = json(&out);
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(keys, ["crc_valid", "errors", "fields", "valid", "warnings"]);
        assert_eq!(out.stdout.lines().count(), 1);
    }

    #[test]
    fn parse_reports_an_invalid_code_with_exit_status_1_and_pt_br_errors() {
        let out = run_with(&[
            "parse",
            "00020126380014BR.GOV.BCB.PIX0116test@mail.com.br5204000053039865802BR5913FULANO DE TAL6009SAO PAULO62210517my_transaction_id630461CE",
        ]);
        assert_eq!(out.exit_code, 1);
        let value = json(&out);
        assert_eq!(value["valid"], false);
        assert_eq!(value["crc_valid"], true);
        assert_eq!(value["errors"][0]["code"], "txid-invalid-character");
        assert_eq!(value["errors"][0]["field"], "txid");
        assert_eq!(value["warnings"][0]["code"], "gui-not-lowercase");
        assert_eq!(value["fields"]["txid"], "my_transaction_id");
    }

    #[test]
    fn parse_refuses_a_key_no_dict_kind_can_hold_naming_the_key() {
        // Issue 17: "valid" with only a warning before; the colon fits no kind of key.
        let out = run_with(&[
            "parse",
            "00020101021128360014br.gov.bcb.pix011408074883:001965204000053039865802BR5908APPD S.C6015SAO JOSE CAMPOS62070503***63049821",
        ]);
        assert_eq!(out.exit_code, 1);
        let value = json(&out);
        assert_eq!(value["valid"], false);
        assert_eq!(value["errors"][0]["code"], "key-invalid");
        assert_eq!(value["errors"][0]["field"], "pix_key");
        let message = value["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("“08074883:00196”"), "{message}");
        assert_eq!(value["warnings"], json!([]));
    }

    #[test]
    fn parse_refuses_a_character_outside_printable_ascii_naming_the_field() {
        let out = run_with(&[
            "parse",
            "00020126830014br.gov.bcb.pix01364004901d-bd85-4769-8e52-cb4c42c506dc0221Jornada pagador 57768520400005303986540573.625802BR5903Pix6008Brasília62080504oooo6304B243",
        ]);
        assert_eq!(out.exit_code, 1);
        let value = json(&out);
        assert_eq!(value["errors"][0]["code"], "character-outside-alphabet");
        assert_eq!(value["errors"][0]["field"], "merchant_city");
        let message = value["errors"][0]["message"].as_str().unwrap();
        assert!(
            message.starts_with("O campo 60 (Cidade) tem o caractere “í”"),
            "{message}"
        );
        let out = run_with(&[
            "parse",
            "00020128360014BR.GOV.BCB.PIX0114+557199607473é520400005303986540510.005802BR5910SUPER_BIKE6008SALVADOR62120508PAGID771630467A0",
        ]);
        let value = json(&out);
        assert_eq!(value["errors"][0]["code"], "key-invalid");
        let message = value["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("o caractere “é”"), "{message}");
    }

    #[test]
    fn parse_of_garbage_prints_empty_fields_and_the_errors() {
        let out = run_with(&["parse", "hello"]);
        let value = json(&out);
        assert_eq!(value["fields"], json!({}));
        assert_eq!(value["crc_valid"], false);
        assert!(value["errors"].as_array().unwrap().len() >= 2);
    }

    #[test]
    fn make_prints_the_payload_and_reports_changes_on_stderr() {
        let out = run_with(&[
            "make",
            "--key",
            "(11) 91234-5678",
            "--name",
            "Padaria Pão Nosso",
            "--city=Belém",
            "--amount",
            "1.234,56",
            "--txid",
            "PED1",
            "--info",
            "Obrigado!",
            "--postal-code",
            "66010-000",
            "--single-use",
        ]);
        assert_eq!(out.exit_code, 0, "{}", out.stderr);
        let payload = out.stdout.trim_end();
        let parsed = crate::brcode::validate_strict(payload).unwrap();
        assert_eq!(parsed.code.pix_key(), Some("+5511912345678"));
        assert_eq!(parsed.code.transaction_amount.as_deref(), Some("1234.56"));
        assert!(parsed.code.is_single_use());
        assert_eq!(out.stderr.lines().count(), 5, "{}", out.stderr); // key, name, city, info, CEP
        assert!(out.stderr.lines().all(|l| l.starts_with("Ajuste: ")));
    }

    #[test]
    fn make_prints_every_error_in_pt_br_and_exits_with_2() {
        let out = run_with(&[
            "make",
            "--key",
            "111.111.111-11",
            "--name",
            "Leone Parise Vieira da Silva",
            "--city",
            "Maceió",
            "--amount",
            "0",
        ]);
        assert_eq!(out.exit_code, 2);
        assert!(out.stdout.is_empty());
        assert_eq!(
            out.stderr,
            "Erro: Um CPF com todos os dígitos iguais não é válido.\n\
             Erro: O nome do recebedor tem 28 caracteres; o limite do Pix é 25.\n\
             Erro: O valor deve ser maior que zero. Para o pagador digitar o valor, deixe o campo em branco.\n"
        );
    }

    #[test]
    fn make_with_a_url_makes_a_dynamic_code() {
        let out = run_with(&[
            "make",
            "--url",
            "https://pix.example.com/qr/v2/abc",
            "--name",
            "Loja",
            "--city",
            "Recife",
        ]);
        assert_eq!(out.exit_code, 0, "{}", out.stderr);
        assert!(out.stdout.contains("2525pix.example.com/qr/v2/abc"));
        assert!(out.stderr.contains("https://"));
    }

    #[test]
    fn make_refuses_an_amount_in_a_dynamic_code() {
        let out = run_with(&[
            "make",
            "--url",
            "pix.example.com/x",
            "--name",
            "Loja",
            "--city",
            "Recife",
            "--amount",
            "1",
        ]);
        assert_eq!(out.exit_code, 2);
        assert!(out.stderr.contains("não aceita --amount"));
    }

    #[test]
    fn usage_errors_exit_with_2() {
        assert_eq!(run_with(&[]).exit_code, 2);
        assert_eq!(run_with(&["frobnicate"]).exit_code, 2);
        assert_eq!(run_with(&["parse"]).exit_code, 2);
        assert_eq!(run_with(&["make", "--key"]).exit_code, 2);
        assert_eq!(
            run_with(&["make", "--name", "a", "--name", "b"]).exit_code,
            2
        );
        assert_eq!(run_with(&["make", "--bogus", "x"]).exit_code, 2);
        assert_eq!(run_with(&["help"]).exit_code, 0);
    }

    #[test]
    fn svg_draws_the_code_at_the_level_asked_for() {
        let m = run_with(&["svg", "000201"]);
        let q = run_with(&["svg", "000201", "--level", "q"]);
        assert_eq!((m.exit_code, q.exit_code), (0, 0));
        assert_ne!(m.stdout, q.stdout);
        assert!(m.stdout.starts_with("<svg"));
        assert_eq!(run_with(&["svg", "000201", "--level", "h"]).exit_code, 2);
    }
}
