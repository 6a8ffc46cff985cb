//! Issue 31, item 2, for the HTML forms (the routes outside `/api` that read a form body: the
//! visitor's sign form and its "send me the link" form): U+0000, which PostgreSQL `text` and
//! `jsonb` cannot hold, in any field of either is a clear pt-BR refusal — the form again naming
//! the field, or the 400 page for a hidden field — never a 500, never a stored NUL, never a
//! projector that parks.

use reqwest::StatusCode;
use tests::TestApp;

/// A sign form every value of which is valid, field by field, with each field's label.
const SIGN: [(&str, &str, &str); 11] = [
    ("tipo", "email", "Tipo de chave"),
    ("chave", "loja@example.com", "Chave Pix"),
    ("nome", "Padaria São João", "Nome de quem recebe"),
    ("cidade", "São Paulo", "Cidade"),
    ("valor", "12,50", "Valor"),
    ("descricao", "Pão de queijo", "Descrição"),
    ("modelo", "faixa", "Modelo"),
    ("tamanho", "a5", "Tamanho do papel"),
    ("tema", "azul", "Cores"),
    ("titulo", "Pague aqui com Pix", "Título"),
    ("rodape", "Aberto das 7h às 19h", "Rodapé"),
];

/// The review's request id (any uuid v4 the page minted).
const ORDER: &str = "3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";

/// What the sign form answers for U+0000 in a field it shows, and in a hidden one.
fn nul_in_field(label: &str) -> String {
    format!(
        "O campo {label} tinha um caractere nulo (U+0000), que não pode ser usado. Nós o apagamos: confira o texto e envie de novo."
    )
}
const NUL_IN_FORM: &str = "O formulário chegou com um caractere nulo (U+0000), que não pode ser usado. Confira os dados e envie de novo.";

/// The sign form's fields for `step` (`review`, or `confirm` with the request id), `field` holding
/// a U+0000 when given.
fn sign_form(step: &str, field: Option<&str>) -> Vec<(String, String)> {
    let mut form: Vec<(String, String)> = SIGN
        .iter()
        .map(|(name, value, _)| ((*name).to_owned(), (*value).to_owned()))
        .collect();
    if step == "confirm" {
        form.push(("confirmar".to_owned(), "1".to_owned()));
        form.push(("pedido".to_owned(), ORDER.to_owned()));
    }
    for (name, value) in &mut form {
        if Some(name.as_str()) == field {
            // In the middle of the text, where a copy and paste would leave it.
            let at = value.len() / 2;
            let at = (0..=at)
                .rev()
                .find(|i| value.is_char_boundary(*i))
                .unwrap_or(0);
            value.insert(at, '\0');
        }
    }
    form
}

async fn post_form(app: &TestApp, path: &str, form: &[(String, String)]) -> (StatusCode, String) {
    let response = app
        .client()
        .post(app.url(path))
        .form(form)
        .send()
        .await
        .expect("answered");
    let status = response.status();
    (status, response.text().await.expect("body"))
}

async fn count(db: &sqlx::PgPool, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(db)
        .await
        .expect("a count")
}

#[tokio::test]
async fn a_nul_in_any_field_of_the_sign_form_shows_the_form_again_naming_it_and_makes_nothing() {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut cases: Vec<(&str, &str, String, bool)> = Vec::new();
    for step in ["review", "confirm"] {
        for (field, _, label) in SIGN {
            cases.push((step, field, nul_in_field(label), true));
        }
    }
    cases.push(("confirm", "confirmar", NUL_IN_FORM.to_owned(), false));
    cases.push(("confirm", "pedido", NUL_IN_FORM.to_owned(), false));
    for (step, field, message, shown) in cases {
        let (status, html) =
            post_form(&app, "/criar-placa-pix", &sign_form(step, Some(field))).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{step} {field}: {html}"
        );
        assert!(html.contains(&message), "{step} {field}: {html}");
        if shown {
            // The message stands beside the field, and the summary links to it.
            assert!(
                html.contains(&format!("id=\"{field}-erro\"")),
                "{step} {field}: {html}"
            );
            assert!(
                html.contains(&format!("href=\"#{field}\"")),
                "{step} {field}: {html}"
            );
        }
        assert!(
            !html.contains('\0'),
            "{step} {field}: the NUL is taken out of the page"
        );
        assert!(
            !html.contains("%00"),
            "{step} {field}: nor put in the preview's address"
        );
    }
    assert_eq!(
        count(
            &db,
            "select count(*) from events where stream_type = 'qrcode'"
        )
        .await,
        0,
        "no code was made"
    );

    // The same values without the NUL make the sign (the refusals were the NUL's alone).
    let (status, html) = post_form(&app, "/criar-placa-pix", &sign_form("confirm", None)).await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{html}");
    assert_eq!(
        count(
            &db,
            "select count(distinct stream_id) from events where stream_type = 'qrcode'"
        )
        .await,
        1
    );
    tests::eventually("the sign projected", async || {
        (count(&db, "select count(*) from qrcodes").await == 1).then_some(())
    })
    .await;
    assert_eq!(count(&db, "select count(*) from parked_events").await, 0);
    app.stop().await;
}

#[tokio::test]
async fn a_nul_in_the_send_link_form_is_refused_in_pt_br_and_sends_nothing() {
    let app = TestApp::spawn().await;
    let response = app
        .client()
        .post(app.url("/criar-placa-pix"))
        .form(&sign_form("confirm", None))
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()["location"]
        .to_str()
        .expect("ASCII")
        .to_owned();
    let id = location
        .trim_start_matches("/placa-pix-criada/")
        .split('?')
        .next()
        .expect("an id")
        .to_owned();
    let cookie = response.headers()["set-cookie"].to_str().expect("ASCII");
    let token = cookie
        .split(';')
        .next()
        .and_then(|pair| pair.split_once('='))
        .map(|(_, token)| token.to_owned())
        .expect("the management token");
    let path = format!("/placa-pix-criada/{id}/enviar-link");
    let form = |chave: &str, email: &str| {
        vec![
            ("chave".to_owned(), chave.to_owned()),
            ("email".to_owned(), email.to_owned()),
        ]
    };

    // The hidden token: no token holds a NUL, so the form was not the page's.
    let (status, html) =
        post_form(&app, &path, &form(&format!("{token}\0"), "eu@example.com")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{html}");
    assert!(html.contains(NUL_IN_FORM), "{html}");
    // The address: the form again with the field's message.
    let (status, html) = post_form(&app, &path, &form(&token, "eu\0@example.com")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{html}");
    assert!(html.contains("Digite um e-mail válido"), "{html}");
    assert!(!html.contains('\0'), "{html}");
    assert!(
        app.mail
            .wait_for("eu@example.com", std::time::Duration::from_millis(300))
            .await
            .is_none(),
        "nothing was sent"
    );

    // Without the NUL the link is sent.
    let (status, html) = post_form(&app, &path, &form(&token, "eu@example.com")).await;
    assert_eq!(status, StatusCode::OK, "{html}");
    app.stop().await;
}
