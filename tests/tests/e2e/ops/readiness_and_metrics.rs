//! Operations: readiness says what each role needs (a NATS outage does not pull the gateway),
//! metrics live on the operations listener only, and the lag and parked-event gauges say what
//! the log holds.

use std::time::Duration;

use reqwest::StatusCode;
use tests::{TestApp, dead_nats_url, eventually_within, metric_value};

/// Every projection the app runs.
const PROJECTIONS: [&str; 3] = ["qrcodes", "event_counts", "accounts"];

/// Appends `count` events straight into the log, recorded an hour ago, in one transaction.
async fn append_old_events(app: &TestApp, count: i64) {
    sqlx::query(
        "insert into events
             (event_id, stream_type, stream_id, stream_version, event_type, schema_version,
              payload, recorded_at)
         select gen_random_uuid(), 'teste', 'lag', n, 'Ping', 1, '{}'::jsonb,
                now() - interval '1 hour'
           from generate_series(1, $1) as n",
    )
    .bind(count)
    .execute(&app.db().await)
    .await
    .expect("events appended");
}

/// `/metrics` once `done` holds for it (within 20 seconds: a gauge moves at the next scrape after
/// the relay or a projector did its work).
async fn metrics_until(app: &TestApp, done: impl Fn(&str) -> bool) -> String {
    eventually_within(
        Duration::from_secs(20),
        "the metrics the test waits for",
        async || {
            let metrics = app.metrics().await;
            done(&metrics).then_some(metrics)
        },
    )
    .await
}

#[tokio::test]
async fn the_gateway_stays_ready_while_nats_is_unreachable_and_says_so() {
    let app = TestApp::spawn_with(|settings| settings.nats_url = dead_nats_url()).await;

    let public = app.get("/readyz").await;
    assert_eq!(
        public.status(),
        StatusCode::OK,
        "PostgreSQL is all serve needs"
    );
    let body = public.text().await.expect("body");
    assert!(body.contains("postgresql: ok"), "{body}");
    assert!(body.contains("nats: indisponível"), "{body}");
    assert_eq!(app.get("/").await.status(), StatusCode::OK);

    // The process also runs the relay and the projectors, which do need NATS.
    let roles = app.ops_get("/readyz").await;
    assert_eq!(roles.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body = roles.text().await.expect("body");
    assert!(body.contains("serve: pronto"), "{body}");
    assert!(
        body.contains("relay: ") && body.contains("sem NATS"),
        "{body}"
    );
    for projection in PROJECTIONS {
        assert!(body.contains(&format!("projeção {projection}: ")), "{body}");
    }
    assert_eq!(app.ops_get("/healthz").await.status(), StatusCode::OK);

    let metrics = app.metrics().await;
    assert_eq!(metric_value(&metrics, "balcao_nats_up", ""), Some(0.0));
    assert_eq!(metric_value(&metrics, "balcao_relay_active", ""), Some(0.0));
    app.stop().await;
}

#[tokio::test]
async fn lag_and_parked_gauges_count_what_the_log_holds_that_nobody_has_carried_yet() {
    // NATS unreachable: nothing is published or projected, so every event stays behind.
    let app = TestApp::spawn_with(|settings| settings.nats_url = dead_nats_url()).await;
    append_old_events(&app, 3).await;
    sqlx::query(
        "insert into parked_events
             (projection, event_id, tx_id, global_position, stream_type, stream_id, event_type, error)
         select 'qrcodes', event_id, tx_id, global_position, stream_type, stream_id, event_type,
                'teste: evento inaplicável'
           from events order by global_position limit 1",
    )
    .execute(&app.db().await)
    .await
    .expect("a parked event");

    let metrics = app.metrics().await;
    assert_eq!(
        metric_value(&metrics, "balcao_relay_lag_events", ""),
        Some(3.0)
    );
    let relay_seconds = metric_value(&metrics, "balcao_relay_lag_seconds", "").expect("relay age");
    assert!(relay_seconds >= 3600.0, "{relay_seconds}");
    for projection in PROJECTIONS {
        let label = format!("projection=\"{projection}\"");
        assert_eq!(
            metric_value(&metrics, "balcao_projection_lag_events", &label),
            Some(3.0),
            "{projection}"
        );
        let seconds = metric_value(&metrics, "balcao_projection_lag_seconds", &label)
            .expect("projection age");
        assert!(seconds >= 3600.0, "{projection}: {seconds}");
        let parked = if projection == "qrcodes" { 1.0 } else { 0.0 };
        assert_eq!(
            metric_value(&metrics, "balcao_parked_events", &label),
            Some(parked),
            "{projection}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn metrics_are_served_on_the_operations_listener_and_not_on_the_public_one() {
    let app = TestApp::spawn().await;
    assert_eq!(app.get("/metrics").await.status(), StatusCode::NOT_FOUND);

    let response = app.ops_get("/metrics").await;
    assert_eq!(response.status(), StatusCode::OK);
    let metrics = response.text().await.expect("body");
    for name in [
        "balcao_nats_up",
        "balcao_relay_active",
        "balcao_relay_lag_events",
        "balcao_relay_lag_seconds",
        "balcao_projection_lag_events",
        "balcao_projection_lag_seconds",
        "balcao_projector_active",
        "balcao_parked_events",
        "balcao_oldest_transaction_age_seconds",
        "balcao_http_open_connections",
    ] {
        assert!(metrics.contains(name), "{name} in /metrics:\n{metrics}");
    }
    app.stop().await;
}

#[tokio::test]
async fn once_everything_is_carried_the_lag_is_zero_and_each_role_says_it_leads() {
    let app = TestApp::spawn().await;
    append_old_events(&app, 5).await;

    let caught_up = |metrics: &str| {
        metric_value(metrics, "balcao_relay_lag_events", "") == Some(0.0)
            && metric_value(metrics, "balcao_relay_active", "") == Some(1.0)
            && PROJECTIONS.iter().all(|projection| {
                let label = format!("projection=\"{projection}\"");
                metric_value(metrics, "balcao_projection_lag_events", &label) == Some(0.0)
                    && metric_value(metrics, "balcao_projector_active", &label) == Some(1.0)
            })
    };
    let metrics = metrics_until(&app, caught_up).await;
    assert!(caught_up(&metrics), "{metrics}");
    assert_eq!(metric_value(&metrics, "balcao_nats_up", ""), Some(1.0));
    assert_eq!(
        metric_value(&metrics, "balcao_relay_lag_seconds", ""),
        Some(0.0)
    );
    for projection in PROJECTIONS {
        let label = format!("projection=\"{projection}\"");
        assert_eq!(
            metric_value(&metrics, "balcao_projection_lag_seconds", &label),
            Some(0.0)
        );
    }

    let roles = app.ops_get("/readyz").await;
    assert_eq!(roles.status(), StatusCode::OK);
    let body = roles.text().await.expect("body");
    assert!(body.contains("relay: ativo"), "{body}");
    assert!(body.contains("projeção qrcodes: ativo"), "{body}");
    app.stop().await;
}
