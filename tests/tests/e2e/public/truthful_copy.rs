//! Issue 32, item 5: the public site says only what is true today. Every page of the sitemap and
//! the dashboard's FAQ (`/api/faq`) are read as text, sentence by sentence: none may say that
//! something which exists is still being built or comes "when it is ready", and every "ainda não"
//! must be one of the true uses listed here, each with its reason.

use tests::TestApp;

/// Phrases that promise the future about something that exists (CSV export, the logo on signs,
/// the payment history, the dashboard, automatic confirmation), or deny what exists (API keys,
/// issue 36): never on a public page.
const STALE: [&str; 9] = [
    "em construção",
    "quando ficar pronto",
    "quando ficar pronta",
    "quando ficarem prontos",
    "assim que ficarem prontos",
    "está sendo construído",
    "não enxerga pagamentos",
    "não tem chaves de api",
    "autenticação por chave de api",
];

/// The true uses of "ainda não": a part of the sentence, and why it is true.
const TRUE_AINDA_NAO: [(&str, &str); 13] = [
    (
        "se você ainda não tem um qr code",
        "addresses a reader without a code",
    ),
    (
        "se você ainda não sabe como montar",
        "addresses a reader who has not made a sign",
    ),
    (
        "se ainda não tem o código",
        "addresses a reader without a code",
    ),
    (
        "agendamento que ainda não foi feito",
        "a scheduled Pix is not a payment yet",
    ),
    (
        "agendamento que ainda não aconteceu",
        "a scheduled Pix is not a payment yet",
    ),
    (
        "não prometemos o que ainda não existe",
        "a principle, not a claim about a feature",
    ),
    (
        "se ainda não tem uma placa",
        "addresses a visitor without a sign",
    ),
    (
        "ainda não tem conta",
        "addresses a visitor without an account",
    ),
    ("o pagamento ainda não foi confirmado", "a payment's state"),
    ("ainda não foi pago", "a payment's state on the payer page"),
    ("ainda não recebeu pagamentos", "an empty list"),
    (
        "ainda não é venda paga",
        "a sale is paid when the money shows in the bank",
    ),
    (
        "ainda não está disponível",
        "a server without the dashboard built",
    ),
];

/// The text of `html` (tags dropped, the common entities read), in lower case.
fn visible_text(html: &str) -> String {
    let body = html.split_once("<body").map_or(html, |(_, body)| body);
    let mut text = String::with_capacity(body.len());
    let mut in_tag = false;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&nbsp;", " ")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The sentences of `text` that promise what exists, or say "ainda não" in a way not listed.
fn untrue_sentences(text: &str) -> Vec<String> {
    text.split_inclusive(['.', '!', '?', ':', ';'])
        .map(str::trim)
        .filter(|sentence| {
            STALE.iter().any(|stale| sentence.contains(stale))
                || (sentence.contains("ainda não")
                    && !TRUE_AINDA_NAO
                        .iter()
                        .any(|(allowed, _)| sentence.contains(allowed)))
        })
        .map(str::to_owned)
        .collect()
}

/// The paths in the sitemap's `<loc>` entries.
fn sitemap_paths(sitemap: &str) -> Vec<String> {
    sitemap
        .split("<loc>")
        .skip(1)
        .filter_map(|rest| rest.split_once("</loc>"))
        .filter_map(|(url, _)| url.split_once("://").map(|(_, rest)| rest))
        .map(|host_and_path| {
            host_and_path
                .find('/')
                .map_or("/".to_owned(), |at| host_and_path[at..].to_owned())
        })
        .collect()
}

#[test]
fn the_checker_catches_a_stale_promise_and_lets_a_true_ainda_nao_pass() {
    let text = visible_text(
        "<body><p>O logotipo entra quando ficarem prontos.</p><p>Ainda não recebeu pagamentos.</p>\
         <p>O painel ainda não mostra o histórico.</p></body>",
    );
    assert_eq!(
        untrue_sentences(&text),
        vec![
            "o logotipo entra quando ficarem prontos.",
            "o painel ainda não mostra o histórico."
        ]
    );
}

#[tokio::test]
async fn no_public_page_nor_the_dashboards_faq_promises_what_already_exists() {
    let app = TestApp::spawn().await;
    let paths = sitemap_paths(&app.get_text("/sitemap.xml").await);
    assert!(paths.len() > 30, "the sitemap lists the site: {paths:?}");
    let mut found = Vec::new();
    for path in paths.iter().map(String::as_str).chain(["/painel/duvidas"]) {
        let html = app.get_text(path).await;
        for sentence in untrue_sentences(&visible_text(&html)) {
            found.push(format!("{path}: {sentence}"));
        }
    }
    let faq: serde_json::Value = app
        .get("/api/faq")
        .await
        .json()
        .await
        .expect("the FAQ as JSON");
    let faq_html = format!(
        "<body>{}</body>",
        faq["bodyHtml"].as_str().unwrap_or_default()
    );
    for sentence in untrue_sentences(&visible_text(&faq_html)) {
        found.push(format!("/api/faq: {sentence}"));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    app.stop().await;
}
