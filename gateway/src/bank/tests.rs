use std::sync::Arc;
use std::time::Duration;

use domain::bank::profiles::{BankId, BankUrls, Environment};
use zeroize::Zeroizing;

use super::test_bank::{CLIENT_ID, CLIENT_SECRET, KEY, TestBank};
use super::*;
use crate::clock::Clock;

const RECEIVER: &str = "https://balcao.example/api-pix/webhook/abc";

fn credentials(bank: &TestBank) -> Credentials {
    Credentials {
        client_id: CLIENT_ID.to_owned(),
        client_secret: Zeroizing::new(CLIENT_SECRET.to_owned()),
        certificate: bank.client.clone(),
        extra_value: Some("12345678".to_owned()),
    }
}

fn settings(bank: &TestBank, id: BankId) -> ApiPixSettings {
    let urls = BankUrls::of(id, Environment::Producao).unwrap_or_else(|| {
        BankUrls::custom(
            "https://psp.example/api/v2",
            "https://psp.example/oauth/token",
        )
        .expect("typed URLs")
    });
    let mut settings = ApiPixSettings::new(id, urls, credentials(bank));
    settings.origin = Some(bank.origin.clone());
    settings.extra_root_pem = Some(bank.server_ca_pem.clone());
    settings.timeout = Duration::from_secs(5);
    settings
}

fn client(bank: &TestBank, id: BankId) -> ApiPixClient {
    ApiPixClient::new(settings(bank, id)).expect("client")
}

#[tokio::test]
async fn a_token_is_asked_once_and_reused_until_a_minute_before_it_expires() {
    let bank = TestBank::start().await;
    let clock = Clock::default();
    let mut settings = settings(&bank, BankId::Outro);
    settings.clock = clock.clone();
    let client = ApiPixClient::new(settings).expect("client");

    let first = client.token().await.expect("token");
    let again = client.token().await.expect("token");
    assert_eq!(first, again);
    assert_eq!(bank.state().token_calls.len(), 1);

    // The bank's token lives 3600 s: at 3538 s it is still used, at 3541 s it is renewed.
    clock.advance(chrono::Duration::seconds(3538));
    assert_eq!(client.token().await.expect("token"), first);
    assert_eq!(bank.state().token_calls.len(), 1);
    clock.advance(chrono::Duration::seconds(3));
    let renewed = client.token().await.expect("token");
    assert_ne!(renewed, first);
    assert_eq!(bank.state().token_calls.len(), 2);
}

#[tokio::test]
async fn callers_waiting_for_a_token_share_one_request_to_the_bank() {
    let bank = TestBank::start().await;
    bank.state().delay = Some(Duration::from_millis(200));
    let client = Arc::new(client(&bank, BankId::Outro));

    let waiting: Vec<_> = (0..8)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move { client.token().await })
        })
        .collect();
    let mut tokens = Vec::new();
    for task in waiting {
        tokens.push(task.await.expect("task").expect("token"));
    }

    assert!(tokens.windows(2).all(|pair| pair[0] == pair[1]));
    assert_eq!(bank.state().token_calls.len(), 1);
}

#[tokio::test]
async fn a_webhook_is_registered_read_back_and_removed() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);

    assert_eq!(client.get_webhook(KEY).await, Ok(None));
    client.put_webhook(KEY, RECEIVER).await.expect("registered");
    assert_eq!(client.get_webhook(KEY).await, Ok(Some(RECEIVER.to_owned())));
    assert_eq!(
        bank.state().webhooks.get(KEY).map(String::as_str),
        Some(RECEIVER)
    );
    client.delete_webhook(KEY).await.expect("removed");
    assert_eq!(client.get_webhook(KEY).await, Ok(None));
    // Removing what is not there is already done.
    client.delete_webhook(KEY).await.expect("nothing to remove");

    let state = bank.state();
    let put = state
        .api_calls
        .iter()
        .find(|c| c.method == "PUT")
        .expect("a PUT");
    assert_eq!(put.path, "/api/v2/webhook/loja@example.com");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&put.body).expect("json"),
        serde_json::json!({ "webhookUrl": RECEIVER })
    );
    assert!(state.api_calls.iter().all(|c| c.had_client_certificate));
    assert_eq!(state.token_calls.len(), 1, "one token for all five calls");
}

#[tokio::test]
async fn ensuring_a_webhook_writes_only_when_the_bank_has_another_one() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);

    assert_eq!(
        client.ensure_webhook(KEY, RECEIVER).await,
        Ok(WebhookOutcome::Registered { replaced: None })
    );
    assert_eq!(
        client.ensure_webhook(KEY, RECEIVER).await,
        Ok(WebhookOutcome::AlreadyRegistered)
    );
    let newer = "https://balcao.example/api-pix/webhook/def";
    assert_eq!(
        client.ensure_webhook(KEY, newer).await,
        Ok(WebhookOutcome::Registered {
            replaced: Some(RECEIVER.to_owned())
        })
    );
    let puts = bank
        .state()
        .api_calls
        .iter()
        .filter(|c| c.method == "PUT")
        .count();
    assert_eq!(puts, 2, "the second call only read");
}

#[tokio::test]
async fn each_profile_asks_for_its_token_the_way_its_bank_documents() {
    let bank = TestBank::start().await;

    // Efí: Basic auth, JSON body, no scope, certificate on the token call.
    client(&bank, BankId::Efi).token().await.expect("Efí token");
    // Banco do Brasil: Basic auth, form with the scopes, no certificate on the token call.
    client(&bank, BankId::BancoDoBrasil)
        .token()
        .await
        .expect("BB token");
    // Inter: id and secret in the form, with the scopes.
    client(&bank, BankId::Inter)
        .token()
        .await
        .expect("Inter token");
    // Sicoob: the id alone in the form; the certificate says who the client is.
    let mut sicoob = settings(&bank, BankId::Sicoob);
    sicoob.credentials.client_secret = Zeroizing::new(String::new());
    ApiPixClient::new(sicoob)
        .expect("client")
        .token()
        .await
        .expect("Sicoob token");

    let calls = bank.state().token_calls.clone();
    let [efi, bb, inter, sicoob] = calls.as_slice() else {
        panic!("four token calls: {calls:?}");
    };
    assert_eq!(efi.path, "/oauth/token");
    assert!(
        efi.authorization
            .as_deref()
            .is_some_and(|a| a.starts_with("Basic "))
    );
    assert!(efi.content_type.starts_with("application/json"), "{efi:?}");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&efi.body).expect("json"),
        serde_json::json!({ "grant_type": "client_credentials" })
    );
    assert!(efi.had_client_certificate);

    assert!(
        bb.authorization
            .as_deref()
            .is_some_and(|a| a.starts_with("Basic "))
    );
    assert!(
        bb.content_type
            .starts_with("application/x-www-form-urlencoded")
    );
    assert!(bb.body.contains("scope=cob.read+cob.write"), "{}", bb.body);
    assert!(!bb.had_client_certificate, "BB's token call is not mTLS");

    assert_eq!(inter.path, "/oauth/v2/token");
    assert_eq!(inter.authorization, None);
    assert!(inter.body.contains("client_id=balcao-id"), "{}", inter.body);
    assert!(
        inter.body.contains("client_secret=s3gr3do%2B%2F%3D"),
        "{}",
        inter.body
    );
    assert!(inter.body.contains("webhook.write"), "{}", inter.body);

    assert_eq!(
        sicoob.path,
        "/auth/realms/cooperado/protocol/openid-connect/token"
    );
    assert!(sicoob.body.contains("client_id=balcao-id"));
    assert!(!sicoob.body.contains("client_secret"), "{}", sicoob.body);
    assert!(sicoob.had_client_certificate);
}

#[tokio::test]
async fn the_extra_value_travels_as_its_bank_asks() {
    let bank = TestBank::start().await;

    client(&bank, BankId::BancoDoBrasil)
        .put_webhook(KEY, RECEIVER)
        .await
        .expect("BB");
    client(&bank, BankId::Inter)
        .put_webhook(KEY, RECEIVER)
        .await
        .expect("Inter");

    let state = bank.state();
    let [bb, inter] = state.api_calls.as_slice() else {
        panic!("two API calls: {:?}", state.api_calls);
    };
    assert_eq!(bb.path, "/pix/v2/webhook/loja@example.com");
    assert_eq!(bb.query.as_deref(), Some("gw-dev-app-key=12345678"));
    assert!(bb.headers.get("x-conta-corrente").is_none());
    assert_eq!(inter.path, "/pix/v2/webhook/loja@example.com");
    assert_eq!(inter.query, None);
    assert_eq!(
        inter
            .headers
            .get("x-conta-corrente")
            .and_then(|v| v.to_str().ok()),
        Some("12345678")
    );
}

#[tokio::test]
async fn a_wrong_client_secret_reads_as_such() {
    let bank = TestBank::start().await;
    let mut settings = settings(&bank, BankId::Outro);
    settings.credentials.client_secret = Zeroizing::new("errado".to_owned());
    let client = ApiPixClient::new(settings).expect("client");

    let error = client.put_webhook(KEY, RECEIVER).await.unwrap_err();
    assert_eq!(error, BankError::InvalidClient);
    assert!(error.to_string().contains("client secret"), "{error}");
    assert!(
        bank.state().api_calls.is_empty(),
        "nothing is sent without a token"
    );
}

#[tokio::test]
async fn a_certificate_the_bank_does_not_know_is_refused_at_the_handshake() {
    let bank = TestBank::start().await;
    let mut settings = settings(&bank, BankId::Outro);
    settings.credentials.certificate = bank.foreign_client.clone();
    let client = ApiPixClient::new(settings).expect("client");

    let error = client.token().await.unwrap_err();
    assert_eq!(error, BankError::CertificateRefused, "{error}");
    assert!(bank.state().token_calls.is_empty());
}

#[tokio::test]
async fn a_bank_whose_certificate_we_do_not_trust_gets_nothing() {
    let bank = TestBank::start().await;
    let mut settings = settings(&bank, BankId::Outro);
    settings.extra_root_pem = None;
    let client = ApiPixClient::new(settings).expect("client");

    let error = client.token().await.unwrap_err();
    assert_eq!(
        error,
        BankError::ServerUntrusted {
            host: "127.0.0.1".to_owned()
        }
    );
    assert!(bank.state().token_calls.is_empty());
}

#[tokio::test]
async fn a_key_the_account_does_not_hold_is_told_apart() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);

    let error = client
        .put_webhook("outra@example.com", RECEIVER)
        .await
        .unwrap_err();
    assert_eq!(error, BankError::KeyNotRegistered);
    assert_eq!(error.code(), "bank-key-not-registered");
}

#[tokio::test]
async fn a_missing_scope_is_named_whether_the_token_call_or_the_api_refuses_it() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);

    bank.state()
        .token_answers
        .push_back((400, r#"{"error":"invalid_scope"}"#.to_owned()));
    let error = client.token().await.unwrap_err();
    assert!(
        matches!(&error, BankError::ScopeMissing { scope } if scope.contains("webhook.write")),
        "{error:?}"
    );

    bank.state().api_answers.push_back((
        403,
        r#"{"type":"https://pix.bcb.gov.br/api/v2/error/AcessoNegado","title":"Acesso Negado","status":403,"detail":"O token não tem o escopo webhook.write."}"#.to_owned(),
    ));
    let error = client.put_webhook(KEY, RECEIVER).await.unwrap_err();
    assert_eq!(
        error,
        BankError::ScopeMissing {
            scope: "webhook.write".to_owned()
        }
    );
    assert!(error.to_string().contains("webhook.write"), "{error}");
}

#[tokio::test]
async fn a_bank_that_is_down_says_so_and_may_be_retried() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);
    bank.state().api_answers.push_back((
        503,
        r#"{"type":"https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel","title":"Serviço Indisponível","status":503}"#.to_owned(),
    ));

    let error = client.get_webhook(KEY).await.unwrap_err();
    assert_eq!(error, BankError::Unavailable { status: 503 });
    assert!(error.is_transient());
    assert!(!BankError::InvalidClient.is_transient());
}

#[tokio::test]
async fn a_bank_that_does_not_answer_in_time_times_out() {
    let bank = TestBank::start().await;
    bank.state().delay = Some(Duration::from_secs(3));
    let mut settings = settings(&bank, BankId::Outro);
    settings.timeout = Duration::from_millis(300);
    let client = ApiPixClient::new(settings).expect("client");

    let error = client.token().await.unwrap_err();
    assert_eq!(error, BankError::Timeout);
    assert!(error.is_transient());
}

#[tokio::test]
async fn a_bank_nobody_listens_for_is_unreachable() {
    let bank = TestBank::start().await;
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("address").port();
    drop(closed);
    let mut settings = settings(&bank, BankId::Outro);
    settings.origin = Some(url::Url::parse(&format!("https://127.0.0.1:{port}")).expect("url"));
    let client = ApiPixClient::new(settings).expect("client");

    let error = client.token().await.unwrap_err();
    assert_eq!(
        error,
        BankError::Unreachable {
            host: "127.0.0.1".to_owned()
        }
    );
}

#[tokio::test]
async fn any_other_refusal_shows_the_banks_own_title_and_detail() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);
    bank.state().api_answers.push_back((
        400,
        r#"{"type":"https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida","title":"Webhook inválido.","status":400,"detail":"A URL do webhook precisa usar https.\u0000"}"#.to_owned(),
    ));

    let error = client.put_webhook(KEY, RECEIVER).await.unwrap_err();
    assert_eq!(
        error,
        BankError::Refused {
            status: 400,
            message: "Webhook inválido.: A URL do webhook precisa usar https. ".to_owned()
        }
    );
    assert!(
        error
            .to_string()
            .starts_with("O banco recusou o pedido: Webhook inválido.")
    );
}

#[tokio::test]
async fn a_path_the_bank_does_not_serve_reads_as_a_wrong_address() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);
    bank.state()
        .api_answers
        .push_back((404, "<html>Not Found</html>".to_owned()));

    assert_eq!(client.get_webhook(KEY).await, Err(BankError::NotFound));
}

#[tokio::test]
async fn a_token_the_bank_revoked_early_is_replaced_once() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);
    client.token().await.expect("token");
    bank.state().tokens.clear();

    client
        .put_webhook(KEY, RECEIVER)
        .await
        .expect("registered with a new token");
    assert_eq!(bank.state().token_calls.len(), 2);
}

#[tokio::test]
async fn no_secret_shows_in_debug_output() {
    let bank = TestBank::start().await;
    let client = client(&bank, BankId::Outro);
    let token = client.token().await.expect("token");
    let credentials = credentials(&bank);

    let printed = format!("{credentials:?} {client:?} {token:?}");
    assert!(!printed.contains(CLIENT_SECRET), "{printed}");
    assert!(!printed.contains(token.secret()), "{printed}");
    assert!(!printed.contains("PRIVATE KEY"), "{printed}");
}

#[test]
fn every_error_has_a_stable_code_and_a_pt_br_sentence() {
    let errors = [
        BankError::InvalidClient,
        BankError::CertificateRefused,
        BankError::ServerUntrusted {
            host: "h".to_owned(),
        },
        BankError::KeyNotRegistered,
        BankError::ScopeMissing {
            scope: "webhook.write".to_owned(),
        },
        BankError::Unavailable { status: 502 },
        BankError::Timeout,
        BankError::Unreachable {
            host: "h".to_owned(),
        },
        BankError::NotFound,
        BankError::Refused {
            status: 400,
            message: "m".to_owned(),
        },
        BankError::Unexpected { status: 200 },
        BankError::Setup,
    ];
    let mut codes: Vec<&str> = errors.iter().map(BankError::code).collect();
    for (error, code) in errors.iter().zip(&codes) {
        assert!(code.starts_with("bank-"), "{code}");
        assert!(
            error.to_string().starts_with(|c: char| c.is_uppercase()),
            "{error}"
        );
    }
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), errors.len(), "codes are unique");
}
