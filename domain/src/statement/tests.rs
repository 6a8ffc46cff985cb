//! The sample statements under `domain/tests/data/statements/` (our own, shaped like the banks'
//! exports, with made-up people), read end to end.

use chrono::TimeZone;
use proptest::prelude::*;

use super::{LineId, StatementError, StatementFormat, parse};

macro_rules! sample {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/statements/",
            $name
        ))
    };
}

fn rfc(line: &super::StatementLine) -> String {
    line.posted.at.to_rfc3339()
}

#[test]
fn a_banco_do_brasil_sgml_file_in_windows_1252_reads_accents_ampersands_and_comma_amounts() {
    let statement = parse(sample!("banco_do_brasil_sgml_1252.ofx")).unwrap();
    assert_eq!(statement.format, StatementFormat::Ofx);
    assert_eq!(statement.account.as_deref(), Some("001/0001-9/99999-9"));
    assert_eq!(statement.lines.len(), 4);
    let first = &statement.lines[0];
    assert_eq!(first.id, LineId::Fitid("20240302001".into()));
    assert_eq!(first.amount_centavos, 1250);
    assert_eq!(
        first.memo,
        "Pix - Recebido 02/03 10:30 Padaria São João & Filhos"
    );
    assert_eq!(rfc(first), "2024-03-02T10:30:00-03:00");
    assert_eq!(first.line, 40);
    assert_eq!(statement.lines[1].amount_centavos, -123_456);
    assert!(!statement.lines[1].posted.has_time);
    let pix: Vec<i64> = statement.pix_credits().map(|l| l.amount_centavos).collect();
    assert_eq!(
        pix,
        [1250, 3000],
        "the refund (Devolução Pix) is not a payment"
    );
}

#[test]
fn an_itau_xml_file_reads_closed_tags_entities_millis_and_the_end_to_end_id() {
    let statement = parse(sample!("itau_xml_utf8.ofx")).unwrap();
    assert_eq!(statement.lines.len(), 3);
    let first = &statement.lines[0];
    assert_eq!(rfc(first), "2024-03-02T10:30:12-03:00");
    assert_eq!(
        first.end_to_end_id.as_deref(),
        Some("E60701190202403021330abcdefghijk")
    );
    assert_eq!(first.txid.as_deref(), Some("PEDIDO42"));
    let second = &statement.lines[1];
    assert_eq!(second.name.as_deref(), Some("Açougue Bom & Barato"));
    assert_eq!(second.trntype.as_deref(), Some("XFER"));
    assert!(second.is_pix_credit());
    assert!(!statement.lines[2].is_pix_credit());
}

#[test]
fn a_nubank_sgml_file_without_sign_on_or_closing_tags_keeps_two_equal_pix_apart() {
    let statement = parse(sample!("nubank_sgml_utf8.ofx")).unwrap();
    assert_eq!(statement.account.as_deref(), Some("0260//1234567-8"));
    let pix: Vec<&super::StatementLine> = statement.pix_credits().collect();
    assert_eq!(pix.len(), 2);
    assert_eq!(pix[0].amount_centavos, pix[1].amount_centavos);
    assert_ne!(pix[0].id, pix[1].id);
    assert!(!pix[0].posted.has_time);
}

#[test]
fn a_broken_amount_is_refused_naming_its_line_in_portuguese() {
    let error = parse(sample!("broken_amount.ofx")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Linha 58: valor “12,5x” não é um valor em reais."
    );
    assert_eq!(error.line(), Some(58));
}

#[test]
fn a_transaction_without_a_date_is_refused_naming_where_it_starts() {
    let error = parse(sample!("missing_date.ofx")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Linha 55: o lançamento não tem data (DTPOSTED)."
    );
}

#[test]
fn an_unreadable_date_is_refused_naming_its_line() {
    let text = "OFXHEADER:100\n\n<OFX>\n<STMTTRN>\n<TRNAMT>1.00\n<DTPOSTED>02/03/2024\n</OFX>";
    assert_eq!(
        parse(text.as_bytes()).unwrap_err().to_string(),
        "Linha 6: data “02/03/2024” não é uma data válida."
    );
}

#[test]
fn each_banks_csv_is_recognised_by_its_header() {
    let cases: [(&[u8], &str, &[i64]); 5] = [
        (sample!("nubank.csv"), "Nubank", &[1250, 123_456]),
        (sample!("inter.csv"), "Inter", &[1250, 100_000]),
        (sample!("itau.csv"), "Itaú", &[1250]),
        (sample!("banco_do_brasil.csv"), "Banco do Brasil", &[1250]),
        (sample!("c6.csv"), "C6 Bank", &[1250]),
    ];
    for (bytes, bank, pix) in cases {
        let statement = parse(bytes).unwrap_or_else(|e| panic!("{bank}: {e}"));
        assert_eq!(statement.format, StatementFormat::Csv(bank));
        let amounts: Vec<i64> = statement.pix_credits().map(|l| l.amount_centavos).collect();
        assert_eq!(amounts, pix, "{bank}");
        assert!(
            statement
                .lines
                .iter()
                .all(|l| !l.memo.to_lowercase().contains("saldo")),
            "{bank}: balance rows are not transactions"
        );
    }
}

#[test]
fn csv_lines_carry_the_banks_id_or_a_hash_and_debits_are_negative() {
    let nubank = parse(sample!("nubank.csv")).unwrap();
    assert_eq!(
        nubank.lines[0].id,
        LineId::Fitid("65e1f0a2-1111-4000-8000-000000000001".into())
    );
    assert_eq!(nubank.lines[1].amount_centavos, -800);
    let c6 = parse(sample!("c6.csv")).unwrap();
    assert!(matches!(c6.lines[0].id, LineId::Hash(_)));
    assert_eq!(c6.lines[1].amount_centavos, -800);
    let inter = parse(sample!("inter.csv")).unwrap();
    assert_eq!(
        inter.lines[1].memo,
        "Pix enviado - Cp :00000000-Padaria; Doces"
    );
    assert_eq!(inter.lines[0].line, 7);
}

#[test]
fn an_unknown_csv_layout_is_refused_saying_so() {
    let error = parse(sample!("unknown.csv")).unwrap_err();
    assert!(matches!(error, StatementError::UnknownCsvLayout { .. }));
    assert_eq!(
        error.to_string(),
        "Não reconhecemos as colunas deste CSV (“Quando;Quanto;Quem”). Indique quais colunas têm a data, o valor e a descrição."
    );
}

#[test]
fn an_unknown_layout_reads_with_the_columns_the_owner_names() {
    let text = super::decode(sample!("unknown.csv"));
    let columns = super::csv::ColumnMap {
        date: 0,
        amount: super::csv::AmountColumns::Signed(1),
        description: vec![2],
        id: None,
    };
    let statement = super::csv::parse_with(&text, ';', 1, &columns).unwrap();
    assert_eq!(statement.lines[0].amount_centavos, 1250);
    assert_eq!(statement.lines[0].memo, "Fulano");
}

#[test]
fn a_note_row_without_date_or_amount_is_skipped_and_a_dated_row_without_amount_is_refused() {
    let text = "data;lançamento;ag./origem;valor (R$);saldos (R$)\n02/03/2024;PIX TRANSF FULANO02/03;;12,50;\nLançamentos futuros;;;;\n";
    assert_eq!(parse(text.as_bytes()).unwrap().lines.len(), 1);
    let text =
        "data;lançamento;ag./origem;valor (R$);saldos (R$)\n02/03/2024;PIX TRANSF FULANO02/03;;;\n";
    assert_eq!(
        parse(text.as_bytes()).unwrap_err().to_string(),
        "Linha 2: o lançamento não tem valor."
    );
    let text =
        "data;lançamento;ag./origem;valor (R$);saldos (R$)\nontem;PIX TRANSF FULANO;;12,50;\n";
    assert_eq!(
        parse(text.as_bytes()).unwrap_err().to_string(),
        "Linha 2: data “ontem” não é uma data válida."
    );
}

#[test]
fn a_bad_csv_amount_is_refused_naming_its_line() {
    let text =
        "Data,Valor,Identificador,Descrição\n02/03/2024,12.50,a,Pix\n03/03/2024,12;5,b,Pix\n";
    assert_eq!(
        parse(text.as_bytes()).unwrap_err().to_string(),
        "Linha 3: valor “12;5” não é um valor em reais."
    );
}

#[test]
fn empty_and_unrecognisable_files_are_refused() {
    assert_eq!(parse(b"").unwrap_err(), StatementError::Empty);
    assert_eq!(parse(b"  \n ").unwrap_err(), StatementError::Empty);
    assert_eq!(
        parse(b"%PDF-1.4 extrato").unwrap_err(),
        StatementError::UnknownFormat
    );
    assert_eq!(
        parse(b"OFXHEADER:100\nDATA:OFXSGML\n").unwrap_err(),
        StatementError::OfxWithoutBody
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = parse(&bytes);
    }

    #[test]
    fn arbitrary_text_after_an_ofx_or_csv_start_never_panics(
        tail in "[<>/A-Z0-9a-z&;#:\\[\\]\\.,\\-+\"\n ]{0,300}",
        ofx in any::<bool>(),
    ) {
        let head = if ofx {
            "OFXHEADER:100\n\n<OFX><BANKTRANLIST><STMTTRN><TRNAMT>"
        } else {
            "Data,Valor,Identificador,Descrição\n"
        };
        let _ = parse(format!("{head}{tail}").as_bytes());
    }
}

/// One generated transaction: signed centavos, minutes after 2024-01-01 00:00 in Brasília, memo.
fn rendered_ofx(lines: &[(i64, i64, String)], comma: bool, xml: bool) -> String {
    let mut text = if xml {
        String::from(
            "<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"211\"?>\n<OFX><BANKTRANLIST>\n",
        )
    } else {
        String::from("OFXHEADER:100\nDATA:OFXSGML\n\n<OFX>\n<BANKTRANLIST>\n")
    };
    let start = chrono::NaiveDate::from_ymd_opt(2024, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap();
    for (i, (amount, minutes, memo)) in lines.iter().enumerate() {
        let at = start + chrono::Duration::minutes(*minutes);
        let sign = if *amount < 0 { "-" } else { "" };
        let separator = if comma { ',' } else { '.' };
        let reais = amount.abs() / 100;
        let cents = amount.abs() % 100;
        let close = |tag: &str| {
            if xml {
                format!("</{tag}>")
            } else {
                String::new()
            }
        };
        let memo = memo.replace('&', "&amp;").replace('<', "&lt;");
        text.push_str(&format!(
            "<STMTTRN>\n<TRNTYPE>OTHER{}\n<DTPOSTED>{}[-3:BRT]{}\n<TRNAMT>{sign}{reais}{separator}{cents:02}{}\n<FITID>L{i}{}\n<MEMO>{memo}{}\n</STMTTRN>\n",
            close("TRNTYPE"),
            at.format("%Y%m%d%H%M%S"),
            close("DTPOSTED"),
            close("TRNAMT"),
            close("FITID"),
            close("MEMO"),
        ));
    }
    text.push_str("</BANKTRANLIST></OFX>\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_well_formed_ofx_reads_back_every_amount_time_and_memo(
        lines in proptest::collection::vec(
            (-10_000_000i64..10_000_000, 1i64..500_000, "[A-Za-zÀ-ú0-9 &<>;.,/-]{0,40}"),
            1..20,
        ),
        comma in any::<bool>(),
        xml in any::<bool>(),
    ) {
        let statement = parse(rendered_ofx(&lines, comma, xml).as_bytes()).unwrap();
        prop_assert_eq!(statement.lines.len(), lines.len());
        let start = super::brasilia()
            .with_ymd_and_hms(2024, 1, 1, 0, 0, 0)
            .unwrap();
        let timed = statement.lines.iter().filter(|l| l.posted.has_time).count();
        for (i, (read, (amount, minutes, memo))) in statement.lines.iter().zip(&lines).enumerate() {
            prop_assert_eq!(read.amount_centavos, *amount);
            prop_assert_eq!(&read.id, &LineId::Fitid(format!("L{i}")));
            prop_assert_eq!(&read.memo, &super::clean(memo));
            let expected = start + chrono::Duration::minutes(*minutes);
            if read.posted.has_time {
                prop_assert_eq!(read.posted.at, expected);
            } else {
                // Midnight, or every timed line at one time of day (read as padding).
                prop_assert_eq!(read.posted.day_in_brasilia(), expected.date_naive());
                prop_assert!(timed == 0 || expected.time() == chrono::NaiveTime::MIN);
            }
        }
    }

    #[test]
    fn any_well_formed_inter_csv_reads_back_every_amount_and_day(
        lines in proptest::collection::vec((-10_000_000i64..10_000_000, 0i64..3_000), 1..20),
    ) {
        let mut text = String::from("Data Lançamento;Histórico;Descrição;Valor;Saldo\n");
        let start = chrono::NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        for (amount, days) in &lines {
            let day = start + chrono::Duration::days(*days);
            let reais = amount.abs() / 100;
            let grouped = if reais >= 1000 {
                format!("{}.{:03}", reais / 1000, reais % 1000)
            } else {
                reais.to_string()
            };
            let sign = if *amount < 0 { "-" } else { "" };
            text.push_str(&format!(
                "{};Pix recebido;\"Cp :1-Fulano; de Tal\";{sign}{grouped},{:02};0,00\n",
                day.format("%d/%m/%Y"),
                amount.abs() % 100,
            ));
        }
        let statement = parse(text.as_bytes()).unwrap();
        prop_assert_eq!(statement.lines.len(), lines.len());
        for (read, (amount, days)) in statement.lines.iter().zip(&lines) {
            prop_assert_eq!(read.amount_centavos, *amount);
            prop_assert_eq!(read.posted.day_in_brasilia(), start + chrono::Duration::days(*days));
        }
    }
}

/// A CSV of a bank Balcão has no layout for: two lines about the account, then its own header.
const UNKNOWN_BANK: &str = "Banco Exemplo S.A.;Extrato de conta\nAgência 1;Conta 2-3\nQuando;Histórico;Entrada;Saída;Quem\n02/03/2024;PIX RECEBIDO;12,50;;Fulano\n02/03/2024;PIX ENVIADO;;8,00;Padaria\n03/03/2024;Pix recebido;1.030,00;;Beltrana\n";

#[test]
fn an_unknown_csv_is_sampled_split_by_the_separator_that_splits_its_rows_evenly() {
    let sample = super::csv_sample(UNKNOWN_BANK.as_bytes());
    assert_eq!(sample.separator, ';');
    assert_eq!(sample.rows.len(), 6);
    assert_eq!(
        sample.rows[2],
        ["Quando", "Histórico", "Entrada", "Saída", "Quem"]
    );
    let commas = super::csv_sample(b"Data,Valor,Quem\n02/03/2024,12.50,Fulano\n");
    assert_eq!(commas.separator, ',');
    assert_eq!(commas.rows[1], ["02/03/2024", "12.50", "Fulano"]);
}

/// What the owner says [`UNKNOWN_BANK`] holds: three rows before the transactions, the date,
/// money in and out, the history and who.
fn unknown_bank_columns() -> super::CsvMapping {
    use super::csv::{AmountColumns, ColumnMap};
    super::CsvMapping {
        separator: ';',
        header_rows: 3,
        columns: ColumnMap {
            date: 0,
            amount: AmountColumns::Split {
                credit: 2,
                debit: 3,
            },
            description: vec![1, 4],
            id: None,
        },
    }
}

#[test]
fn an_unknown_csv_read_with_the_owners_columns_gives_its_pix_credits_and_debits() {
    let mapping = unknown_bank_columns();
    let statement = super::parse_mapped(UNKNOWN_BANK.as_bytes(), &mapping).expect("reads");
    let credits: Vec<(i64, String)> = statement
        .pix_credits()
        .map(|l| (l.amount_centavos, l.memo.clone()))
        .collect();
    assert_eq!(
        credits,
        [
            (1_250, "PIX RECEBIDO - Fulano".to_owned()),
            (103_000, "Pix recebido - Beltrana".to_owned())
        ]
    );
    assert_eq!(statement.lines.len(), 3, "the debit is read, not a credit");
}

#[test]
fn a_mapping_naming_a_column_the_rows_lack_is_refused_naming_the_line() {
    use super::csv::{AmountColumns, ColumnMap};
    let mapping = super::CsvMapping {
        separator: ';',
        header_rows: 3,
        columns: ColumnMap {
            date: 0,
            amount: AmountColumns::Signed(7),
            description: vec![1],
            id: None,
        },
    };
    let refused = super::parse_mapped(UNKNOWN_BANK.as_bytes(), &mapping).expect_err("refused");
    assert_eq!(
        refused.to_string(),
        "Linha 4: a linha tem 5 colunas, mas a coluna 8 foi indicada para o valor. Confira as colunas escolhidas."
    );
    assert_eq!(refused.line(), Some(4));
    // The header rows left in: "Quando" is no date.
    let mapping = super::CsvMapping {
        header_rows: 0,
        columns: ColumnMap {
            amount: AmountColumns::Signed(2),
            ..mapping.columns
        },
        ..mapping
    };
    assert!(super::parse_mapped(UNKNOWN_BANK.as_bytes(), &mapping).is_err());
}

#[test]
fn a_quote_left_open_is_refused_naming_its_line_and_a_stray_quote_inside_a_value_is_kept() {
    let open = "Data,Valor,Identificador,Descrição\n02/03/2024,12.50,a1,\"Pix recebido - Fulano\n02/03/2024,1.00,a2,Pix recebido\n";
    assert_eq!(
        parse(open.as_bytes()).expect_err("refused"),
        StatementError::UnclosedQuote { line: 2 }
    );
    let stray = "Data,Valor,Identificador,Descrição\n02/03/2024,12.50,a1,Pix recebido - Loja 5\" Norte\n02/03/2024,1.00,a2,\"Pix recebido, \"\"Ana\"\"\"\n";
    let statement = parse(stray.as_bytes()).expect("reads");
    let memos: Vec<&str> = statement.lines.iter().map(|l| l.memo.as_str()).collect();
    assert_eq!(
        memos,
        ["Pix recebido - Loja 5\" Norte", "Pix recebido, \"Ana\""]
    );
}

#[test]
fn a_blank_line_among_the_rows_before_the_transactions_does_not_shift_the_header_rows_skipped() {
    // A spreadsheet's empty row (only separators) and a line of blanks: the sample shows neither,
    // so the owner counts three rows before the transactions.
    let text = UNKNOWN_BANK.replacen('\n', "\n;;;;\n   \n", 1);
    let sample = super::csv_sample(text.as_bytes());
    assert_eq!(sample.rows[3][0], "02/03/2024");
    let mapping = unknown_bank_columns();
    let statement = super::parse_mapped(text.as_bytes(), &mapping).expect("reads");
    assert_eq!(statement.lines.len(), 3);
}
