//! The checkout's live status (`/pagar_asaas` over server-sent events, `gateway::live`): the
//! charge as it stands on connect, the payment announced the moment it is recorded, heartbeats,
//! resuming with `Last-Event-ID`, and only the owner of the charge's account listening.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use tests::TestApp;

use super::support::{subscription, upgrade};
use crate::payments::live::Stream;
use crate::workspace::support::{Person, sign_up};

fn token(person: &Person) -> String {
    person.browser.access_token.clone().expect("signed in")
}

fn events(owner: &Person, charge: &str) -> String {
    subscription(owner, &format!("/charges/{charge}/events"))
}

#[tokio::test]
async fn the_checkout_stream_announces_the_payment_the_moment_it_is_recorded_with_heartbeats_between()
 {
    let app = TestApp::spawn_with(|s| {
        s.payments.sandbox_payments = true;
        s.server.live_heartbeat_ms = 300;
    })
    .await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let charge = upgrade(&mut owner, "premium-mensal").await;
    let path = events(&owner, &charge);
    let mut stream = Stream::open(&app, &path, Some(&token(&owner)), None).await;

    let first = stream
        .next_event("cobranca")
        .await
        .expect("the charge as it stands");
    assert_eq!(first.json(), json!({"status": "open"}));
    let opened = first.id.clone().expect("an id to resume from");
    // Silence is filled with heartbeats (comments), which keep proxies from closing the stream.
    let heartbeat = stream
        .next_block(Duration::from_secs(3))
        .await
        .expect("a heartbeat");
    assert!(
        heartbeat.event.is_none() && heartbeat.comment.is_some(),
        "{heartbeat:?}"
    );

    let paid = owner
        .post(
            &subscription(&owner, &format!("/charges/{charge}/simulate")),
            &json!({}),
        )
        .await;
    assert_eq!(paid.status, StatusCode::OK, "{}", paid.text);
    let announced = stream
        .next_event("cobranca")
        .await
        .expect("the payment announced");
    assert_eq!(announced.json(), json!({"status": "paid"}));
    let paid_id = announced.id.clone().expect("id");
    assert_ne!(paid_id, opened);
    // The stream tells the status and nothing else: no Pix code, no payer.
    assert!(!stream.raw.contains("000201"), "{}", stream.raw);
    assert!(!stream.raw.contains("Dona da Padaria"), "{}", stream.raw);

    // A checkout that dropped before the payment resumes with its last id and hears of it…
    let mut resumed = Stream::open(&app, &path, Some(&token(&owner)), Some(&opened)).await;
    let missed = resumed
        .next_event("cobranca")
        .await
        .expect("what it missed");
    assert_eq!(missed.json(), json!({"status": "paid"}));
    assert_eq!(missed.id.as_deref(), Some(paid_id.as_str()));
    // …and one that already heard it gets nothing again (comments only: the opening and
    // heartbeats) for a good while.
    let mut caught_up = Stream::open(&app, &path, Some(&token(&owner)), Some(&paid_id)).await;
    let quiet_until = tokio::time::Instant::now() + Duration::from_millis(1_500);
    loop {
        let left = quiet_until.saturating_duration_since(tokio::time::Instant::now());
        if left.is_zero() {
            break;
        }
        if let Some(block) = caught_up.next_block(left).await {
            assert!(block.event.is_none(), "nothing new to tell: {block:?}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn only_the_owner_of_the_charges_account_follows_its_checkout() {
    let app = TestApp::spawn_with(|s| s.payments.sandbox_payments = true).await;
    let mut owner = sign_up(&app, "dona@padaria.test", "Dona").await;
    let charge = upgrade(&mut owner, "premium-mensal").await;
    let stranger = sign_up(&app, "outra@loja.test", "Outra").await;

    let without_token = Stream::request(&app, &events(&owner, &charge), None, None).await;
    assert_eq!(without_token.status(), StatusCode::UNAUTHORIZED);
    // Another account's owner, asking in her own account or in this one: not found.
    let elsewhere = Stream::request(
        &app,
        &events(&stranger, &charge),
        Some(&token(&stranger)),
        None,
    )
    .await;
    assert_eq!(elsewhere.status(), StatusCode::NOT_FOUND);
    let inside = Stream::request(
        &app,
        &events(&owner, &charge),
        Some(&token(&stranger)),
        None,
    )
    .await;
    assert_eq!(inside.status(), StatusCode::NOT_FOUND);
    let made_up = Stream::request(
        &app,
        &events(&owner, "0190f1a2-0000-7000-8000-00000000000a"),
        Some(&token(&owner)),
        None,
    )
    .await;
    assert_eq!(made_up.status(), StatusCode::NOT_FOUND);
    app.stop().await;
}
