//! The command-line face of the engine, as a pure function: arguments in, exit status and text
//! out, no I/O. The `brcode` example and the `balcao brcode` role are thin wrappers around
//! [`run`]. The arguments are parsed by clap, which is why this module exists only with the
//! crate's `cli` feature (off by default, so the pure crate stays light for everyone else).
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
//! * Usage errors exit with 2, with a pt-BR sentence and [`USAGE`] (clap's own English messages
//!   are never shown).
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

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, Parser, Subcommand};
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

/// The tool's arguments. Help is ours ([`USAGE`], in pt-BR), so clap's flag and subcommand for
/// it are off.
#[derive(Debug, Parser)]
#[command(
    name = "brcode",
    disable_help_flag = true,
    disable_help_subcommand = true,
    disable_version_flag = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Reads a code and reports it as JSON.
    Parse {
        /// The payload, quoted.
        payload: String,
    },
    /// Writes a static code (`--key`) or a dynamic one (`--url`).
    Make(MakeArgs),
    /// Draws a code as SVG.
    Svg {
        /// The payload, quoted.
        payload: String,
        /// The error-correction level, `m` (default) or `q`.
        #[arg(long)]
        level: Option<String>,
    },
}

/// `make`'s options. Every text is optional here: a missing name, city or key is the engine's
/// refusal (with its pt-BR message), not a usage error. A dynamic code's amount and txid come
/// from the charge, so `--url` conflicts with the static code's options.
#[derive(Debug, Args)]
struct MakeArgs {
    #[arg(long)]
    name: Option<String>,
    #[arg(long)]
    city: Option<String>,
    #[arg(long = "postal-code")]
    postal_code: Option<String>,
    #[arg(long)]
    url: Option<String>,
    #[arg(long, conflicts_with = "url")]
    key: Option<String>,
    #[arg(long = "key-type", conflicts_with = "url")]
    key_type: Option<String>,
    #[arg(long, conflicts_with = "url")]
    amount: Option<String>,
    #[arg(long, conflicts_with = "url")]
    txid: Option<String>,
    #[arg(long, conflicts_with = "url")]
    info: Option<String>,
    #[arg(long = "single-use", conflicts_with = "url")]
    single_use: bool,
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
    if let Some("help" | "--help" | "-h" | "ajuda") = args.first().map(String::as_str) {
        return CliOutput::ok(USAGE.to_owned(), String::new());
    }
    let argv = std::iter::once("brcode").chain(args.iter().map(String::as_str));
    match Cli::try_parse_from(argv) {
        Ok(Cli { command }) => match command {
            Command::Parse { payload } => parse_command(&payload),
            Command::Make(make) => make_command(make),
            Command::Svg { payload, level } => svg_command(&payload, level.as_deref()),
        },
        Err(error) => CliOutput::usage(&usage_message(args, &error)),
    }
}

/// Clap's refusal, told in pt-BR in the words the tool has always used.
fn usage_message(args: &[String], error: &clap::Error) -> String {
    // "--key <KEY>" → "--key"; clap names the argument with its value placeholder.
    let named = |kind: ContextKind| -> Vec<String> {
        let names = match error.get(kind) {
            Some(ContextValue::String(name)) => vec![name.clone()],
            Some(ContextValue::Strings(names)) => names.clone(),
            _ => Vec::new(),
        };
        names
            .into_iter()
            .map(|n| n.split_whitespace().next().unwrap_or_default().to_owned())
            .collect()
    };
    let command = args.first().map(String::as_str);
    match (error.kind(), command) {
        (ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand, _) => {
            "Informe um comando.".to_owned()
        }
        (ErrorKind::InvalidSubcommand, Some(other)) => {
            format!("Comando desconhecido: “{other}”.")
        }
        (_, Some("parse")) => "Informe um único código para ler (entre aspas).".to_owned(),
        (ErrorKind::InvalidValue, _) if args.last().is_some_and(|a| a.starts_with("--")) => {
            format!(
                "Falta o valor de {}.",
                args.last().map_or("", String::as_str)
            )
        }
        (ErrorKind::ArgumentConflict, _) => {
            let mut names = named(ContextKind::InvalidArg);
            names.extend(named(ContextKind::PriorArg));
            match names.iter().find(|n| n.as_str() != "--url") {
                Some(extra) if names.len() > 1 && names.iter().any(|n| n == "--url") => {
                    format!(
                        "Código dinâmico (--url) não aceita {extra}: o valor e o txid vêm da cobrança."
                    )
                }
                Some(twice) => format!("A opção {twice} foi informada duas vezes."),
                None => "Opções que não combinam.".to_owned(),
            }
        }
        (_, Some("svg")) => "Informe um único código para desenhar (entre aspas).".to_owned(),
        (ErrorKind::UnknownArgument, _) => match named(ContextKind::InvalidArg).first() {
            Some(extra) => format!("Argumento não reconhecido: “{extra}”."),
            None => "Argumento não reconhecido.".to_owned(),
        },
        _ => "Argumentos inválidos.".to_owned(),
    }
}

fn parse_command(payload: &str) -> CliOutput {
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

fn make_command(args: MakeArgs) -> CliOutput {
    let name = args.name.unwrap_or_default();
    let city = args.city.unwrap_or_default();
    let postal_code = args.postal_code.unwrap_or_default();
    let made = if let Some(url) = args.url {
        let mut request = DynamicCodeRequest::new(url, name, city);
        request.postal_code = (!postal_code.trim().is_empty()).then_some(postal_code);
        make_dynamic(&request)
    } else {
        let form = StaticCodeForm {
            key: args.key.unwrap_or_default(),
            key_kind: args.key_type.unwrap_or_default(),
            merchant_name: name,
            merchant_city: city,
            amount: args.amount.unwrap_or_default(),
            txid: args.txid.unwrap_or_default(),
            additional_info: args.info.unwrap_or_default(),
            postal_code,
            single_use: args.single_use,
        };
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

fn svg_command(payload: &str, level: Option<&str>) -> CliOutput {
    let level = match level.map(str::parse::<EcLevel>).transpose() {
        Ok(level) => level.unwrap_or_default(),
        Err(e) => return CliOutput::usage(&e.to_string()),
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
    fn usage_errors_are_told_in_portuguese_never_in_claps_english() {
        let first_line = |args: &[&str]| {
            let out = run_with(args);
            assert_eq!(out.exit_code, 2, "{args:?}");
            assert!(out.stderr.contains(USAGE), "{}", out.stderr);
            out.stderr.lines().next().unwrap_or_default().to_owned()
        };
        assert_eq!(first_line(&[]), "Informe um comando.");
        assert_eq!(
            first_line(&["frobnicate"]),
            "Comando desconhecido: “frobnicate”."
        );
        assert_eq!(
            first_line(&["parse"]),
            "Informe um único código para ler (entre aspas)."
        );
        assert_eq!(
            first_line(&["parse", "a", "b"]),
            "Informe um único código para ler (entre aspas)."
        );
        assert_eq!(first_line(&["make", "--key"]), "Falta o valor de --key.");
        assert_eq!(
            first_line(&["make", "--name", "a", "--name", "b"]),
            "A opção --name foi informada duas vezes."
        );
        assert_eq!(
            first_line(&["make", "--bogus", "x"]),
            "Argumento não reconhecido: “--bogus”."
        );
        assert_eq!(
            first_line(&[
                "make",
                "--single-use",
                "--url",
                "x",
                "--name",
                "a",
                "--city",
                "b"
            ]),
            "Código dinâmico (--url) não aceita --single-use: o valor e o txid vêm da cobrança."
        );
        assert_eq!(
            first_line(&["svg"]),
            "Informe um único código para desenhar (entre aspas)."
        );
        for help in ["help", "--help", "-h", "ajuda"] {
            assert_eq!(run_with(&[help]).stdout, USAGE);
        }
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
