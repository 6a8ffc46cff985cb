//! The transactions screen's totals from `payment_day_totals` (issue 37) answer what the sum of
//! the `payments` rows answers, for every filter the table can serve alone and in pairs, with
//! payments on both sides of a São Paulo midnight; live and after a replay. So do the totals of
//! an amount range read from the columns `payments_account_paid_idx` carries, and the totals and
//! pages of a text found through the trigram index of the joined columns.

use chrono::NaiveDate;
use projections::payments::search::{
    CodeFilter, DaySummary, Search, StatusFilter, page, summary_of_amounts, summary_of_days,
    summary_of_rows,
};
use reqwest::StatusCode;
use serde_json::json;
use sqlx::PgPool;
use tests::TestApp;
use tests::payment_fill::{self, Fill, Filled};
use uuid::Uuid;

use super::support::{PIX_KEY, read_models, register_key};
use crate::workspace::support::{Person, sign_up};

fn day(text: &str) -> NaiveDate {
    text.parse().expect("a day")
}

/// Every search whose totals the table serves: each filter alone, a few pairs, an operator's.
fn searches(codes: &[Uuid], key_id: Uuid, created_by: &str) -> Vec<Search> {
    let all = Search::default();
    let mut searches = vec![
        all.clone(),
        Search {
            from: Some(day("2026-11-10")),
            to: Some(day("2026-11-10")),
            ..all.clone()
        },
        Search {
            from: Some(day("2026-11-11")),
            to: Some(day("2026-11-11")),
            ..all.clone()
        },
        Search {
            to: Some(day("2026-11-10")),
            ..all.clone()
        },
        Search {
            from: Some(day("2026-11-05")),
            ..all.clone()
        },
        Search {
            code: CodeFilter::Without,
            ..all.clone()
        },
        Search {
            code: CodeFilter::Links,
            ..all.clone()
        },
        Search {
            key_id: Some(key_id),
            ..all.clone()
        },
        Search {
            key_id: Some(Uuid::from_u64_pair(1, 2)),
            ..all.clone()
        },
        Search {
            created_by: Some(created_by.to_owned()),
            ..all.clone()
        },
        Search {
            code: CodeFilter::Code(codes[0]),
            status: Some(StatusFilter::Refunded),
            ..all.clone()
        },
        Search {
            key_id: Some(key_id),
            source: Some("manual".to_owned()),
            ..all.clone()
        },
        Search {
            created_by: Some(created_by.to_owned()),
            from: Some(day("2026-11-10")),
            to: Some(day("2026-11-12")),
            ..all.clone()
        },
    ];
    for code in codes {
        searches.push(Search {
            code: CodeFilter::Code(*code),
            ..all.clone()
        });
    }
    for source in ["api-pix", "manual", "sandbox"] {
        searches.push(Search {
            source: Some(source.to_owned()),
            ..all.clone()
        });
    }
    for status in [
        StatusFilter::Received,
        StatusFilter::Voided,
        StatusFilter::Refunded,
    ] {
        searches.push(Search {
            status: Some(status),
            ..all.clone()
        });
    }
    searches
}

/// Each search's totals by day from `payment_day_totals` equal the payments' own.
async fn assert_days_equal_rows(db: &PgPool, account: Uuid, searches: &[Search]) {
    for search in searches {
        assert!(search.summed_by_day(), "{search:?}");
        let rows = summary_of_rows(db, account, search).await.expect("rows");
        let days = summary_of_days(db, account, search).await.expect("days");
        assert_eq!(days, rows, "{search:?}");
    }
}

/// An account with two codes, three payments typed in around a São Paulo midnight (one voided)
/// and the bench's fill of 3,000 payments over 20 days, every event projected.
struct Filled20 {
    app: TestApp,
    db: PgPool,
    account_id: Uuid,
    codes: Vec<Uuid>,
    key_id: Uuid,
    created_by: String,
}

async fn filled_account() -> Filled20 {
    let app = TestApp::spawn().await;
    let db = app.db().await;
    let mut owner = sign_up(&app, "dona@mercado.test", "Dona do Mercado").await;
    let account = owner.account_id.clone();
    let key_id = register_key(&mut owner).await;
    let mut codes = Vec::new();
    for name in ["Caixa 1", "Caixa 2"] {
        let made = owner
            .post(
                &Person::in_account(&account, "/qrcodes"),
                &json!({"keyId": key_id, "merchantCity": "São Paulo", "description": name}),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        codes.push(Uuid::parse_str(made.json["id"].as_str().expect("id")).expect("a uuid"));
    }
    // Typed in at 23:30 and 00:30 on São Paulo's clock (02:30 and 03:30 UTC of the 11th): two
    // days apart there, one day in UTC. One of them is voided.
    let mut typed = Vec::new();
    for (paid_at, amount) in [
        ("2026-11-10T23:30:00-03:00", "12,30"),
        ("2026-11-11T00:30:00-03:00", "45,60"),
        ("2026-11-10T23:45:00-03:00", "7,00"),
    ] {
        let made = owner
            .post(
                &Person::in_account(&account, "/payments"),
                &json!({"amount": amount, "paidAt": paid_at, "qrcodeId": codes[1]}),
            )
            .await;
        assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
        typed.push(
            made.json["reference"]
                .as_str()
                .expect("reference")
                .to_owned(),
        );
    }
    let voided = owner
        .post(
            &Person::in_account(&account, &format!("/payments/{}/void", typed[2])),
            &json!({"reason": "lançado duas vezes"}),
        )
        .await;
    assert_eq!(voided.status, StatusCode::OK, "{}", voided.text);
    // The bench's fill over the same weeks: refunds, voids, confirmations, codes and keys.
    let account_id = Uuid::parse_str(&account).expect("a uuid");
    let key = commands::vault::load_key(&db, &account)
        .await
        .expect("the vault answers")
        .expect("the account has a key");
    let filled = payment_fill::fill(
        &db,
        &Fill {
            account_id,
            key,
            codes: codes.clone(),
            pix_keys: vec![PIX_KEY.to_owned(), "+5511987654321".to_owned()],
            payments: 3_000,
            days: 20,
            last_day: day("2026-11-20"),
            seed: 27,
        },
    )
    .await
    .expect("the fill writes");
    // The fill's, and the three typed in (four events with the void).
    let filled = Filled {
        payments: filled.payments + 3,
        events: filled.events + 4,
    };
    super::replay::wait_for_every_event(&db, filled).await;
    let created_by: String = sqlx::query_scalar("select created_by from qrcodes limit 1")
        .fetch_one(&db)
        .await
        .expect("a code's maker");
    Filled20 {
        app,
        db,
        account_id,
        codes,
        key_id,
        created_by,
    }
}

#[tokio::test]
async fn the_totals_by_day_and_filter_answer_what_the_payments_rows_add_up_to_live_and_after_a_replay()
 {
    let Filled20 {
        app,
        db,
        account_id,
        codes,
        key_id,
        created_by,
    } = filled_account().await;
    let searches = searches(&codes, key_id, &created_by);

    // The midnight: 12,30 on the 10th, 45,60 on the 11th, the voided 7,00 on the 10th.
    let manual_on = |from: &str| Search {
        source: Some("manual".to_owned()),
        code: CodeFilter::Code(codes[1]),
        from: Some(day(from)),
        to: Some(day(from)),
        ..Search::default()
    };
    let tenth = summary_of_days(&db, account_id, &manual_on("2026-11-10"))
        .await
        .expect("days");
    assert!(
        tenth
            .iter()
            .any(|d| d.received_centavos >= 1230 && d.voided >= 1),
        "{tenth:?}"
    );
    assert_days_equal_rows(&db, account_id, &searches).await;

    let live = read_models(&db).await;
    gateway::roles::replay(&app.settings, &["payments".to_owned()], false)
        .await
        .expect("the replay runs");
    assert!(
        read_models(&db).await == live,
        "the replay differs from live"
    );
    assert_days_equal_rows(&db, account_id, &searches).await;
    app.stop().await;
}

/// Searches with an amount range and at most a period and a status: bounds on the typed-in
/// payments' own amounts (12,30, 45,60 and the voided 7,00) and on the fill's.
fn amount_searches() -> Vec<Search> {
    let all = Search::default();
    let mut searches = Vec::new();
    for (min, max) in [
        (Some(1230), None),
        (None, Some(1230)),
        (Some(1230), Some(1230)),
        (Some(700), Some(4560)),
        (Some(4561), None),
        (None, Some(699)),
        (Some(25_000), None),
        (Some(10_000), Some(10_100)),
        (Some(30_200), None),
    ] {
        let ranged = Search {
            min_centavos: min,
            max_centavos: max,
            ..all.clone()
        };
        searches.push(ranged.clone());
        for (from, to) in [
            (Some("2026-11-10"), Some("2026-11-10")),
            (Some("2026-11-11"), Some("2026-11-11")),
            (None, Some("2026-11-10")),
            (Some("2026-11-05"), None),
        ] {
            searches.push(Search {
                from: from.map(day),
                to: to.map(day),
                ..ranged.clone()
            });
        }
        for status in [
            StatusFilter::Received,
            StatusFilter::Voided,
            StatusFilter::Refunded,
        ] {
            searches.push(Search {
                status: Some(status),
                from: Some(day("2026-11-10")),
                ..ranged.clone()
            });
        }
    }
    searches
}

/// Each search's totals from the index's columns equal the payments' own, and the searches
/// find something.
async fn assert_amounts_equal_rows(db: &PgPool, account: Uuid, searches: &[Search]) {
    let mut found = 0;
    for search in searches {
        assert!(search.summed_by_amount(), "{search:?}");
        let rows = summary_of_rows(db, account, search).await.expect("rows");
        let amounts = summary_of_amounts(db, account, search)
            .await
            .expect("amounts");
        assert_eq!(amounts, rows, "{search:?}");
        found += usize::from(!rows.is_empty());
    }
    assert!(found * 2 > searches.len(), "most searches find payments");
}

#[tokio::test]
async fn the_totals_of_an_amount_range_read_from_the_index_answer_what_the_payments_rows_add_up_to_live_and_after_a_replay()
 {
    let Filled20 {
        app,
        db,
        account_id,
        codes,
        ..
    } = filled_account().await;
    let searches = amount_searches();
    // The midnight: 12,30 typed in at 23:30 of the 10th counts on the 10th, not the 11th.
    let typed = Search {
        min_centavos: Some(1230),
        max_centavos: Some(1230),
        from: Some(day("2026-11-10")),
        to: Some(day("2026-11-10")),
        ..Search::default()
    };
    let tenth = summary_of_amounts(&db, account_id, &typed)
        .await
        .expect("amounts");
    assert!(
        tenth.iter().any(|d| d.received_centavos >= 1230),
        "{tenth:?}"
    );
    // Beside a filter the index does not carry, the rows are summed as before.
    assert!(
        !Search {
            code: CodeFilter::Code(codes[0]),
            ..typed.clone()
        }
        .summed_by_amount()
    );
    assert_amounts_equal_rows(&db, account_id, &searches).await;

    gateway::roles::replay(&app.settings, &["payments".to_owned()], false)
        .await
        .expect("the replay runs");
    assert_amounts_equal_rows(&db, account_id, &searches).await;
    app.stop().await;
}

/// Searches with a text: the fill's payer names and documents in any case, a note and a void
/// reason typed in, a code's description, texts that span two columns (across a space or the
/// unit separator the index joins them with) and so match nothing; each alone, over a period
/// ending at a São Paulo midnight, and as a role that does not see payers.
fn text_searches() -> Vec<Search> {
    let all = Search::default();
    let mut searches = Vec::new();
    for text in [
        "Raimundo",
        "silva",
        "SOUZA",
        "nonato souza",
        "123",
        "obrigado",
        "balcão",
        "duas vezes",
        "Caixa 2",
        "Souza 1",
        "Souza\u{1f}",
        "Souza\u{1f}0",
        "ninguém",
    ] {
        let texted = Search {
            text: Some(text.to_owned()),
            text_in_payer: true,
            ..all.clone()
        };
        searches.push(texted.clone());
        searches.push(Search {
            from: Some(day("2026-11-05")),
            to: Some(day("2026-11-10")),
            ..texted.clone()
        });
        searches.push(Search {
            text_in_payer: false,
            ..texted.clone()
        });
    }
    searches
}

/// What a search with a text sums to when each column's own `ilike` decides, as the screen
/// defines it (no joined string, no trigram index): the reference the fast path must equal.
async fn text_reference(db: &PgPool, account: Uuid, search: &Search) -> Vec<DaySummary> {
    let text = search.text.as_deref().expect("a text");
    let escaped = text
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    sqlx::query_as(
        "select p.paid_on as day,
                count(*) filter (where p.status = 'received') as payments,
                coalesce(sum(p.amount_centavos) filter (where p.status = 'received'), 0)::bigint
                    as received_centavos,
                coalesce(sum(p.refunded_centavos) filter (where p.status = 'received'), 0)::bigint
                    as refunded_centavos,
                count(*) filter (where p.status = 'voided') as voided
           from payments p
          where p.account_id = $1
            and ($2::date is null or p.paid_on >= $2)
            and ($3::date is null or p.paid_on <= $3)
            and (p.note ilike $4 or p.void_reason ilike $4
                 or ($5 and (p.payer_name ilike $4 or p.payer_document ilike $4
                             or p.payer_info ilike $4))
                 or p.reference = any($6) or p.end_to_end_id = any($6)
                 or p.txid = any($6)
                 or p.qrcode_id in (select qrcode_id from qrcodes
                                     where owner_id = $1 and description ilike $4)
                 or p.payment_link_id in (select link_id from payment_links
                                           where owner_id = $1 and description ilike $4))
          group by p.paid_on
          order by p.paid_on",
    )
    .bind(account)
    .bind(search.from)
    .bind(search.to)
    .bind(format!("%{escaped}%"))
    .bind(search.text_in_payer)
    // An identifier is matched whole, as typed, in upper case or in lower case.
    .bind(vec![
        text.to_owned(),
        text.to_uppercase(),
        text.to_lowercase(),
    ])
    .fetch_all(db)
    .await
    .expect("the reference sums")
}

/// Each text search's totals equal the reference's, its pages hold as many payments as the
/// totals count, and the names and documents are found.
async fn assert_texts_equal_reference(db: &PgPool, account: Uuid, searches: &[Search]) {
    let mut found = 0;
    for search in searches {
        let reference = text_reference(db, account, search).await;
        let summed = summary_of_rows(db, account, search).await.expect("rows");
        assert_eq!(summed, reference, "{search:?}");
        let counted: i64 = reference.iter().map(|d| d.payments + d.voided).sum();
        let listed = page(db, account, search, None, 100_000)
            .await
            .expect("a page");
        assert_eq!(
            i64::try_from(listed.len()).expect("a count"),
            counted,
            "{search:?}"
        );
        found += usize::from(!reference.is_empty());
    }
    assert!(found * 2 > searches.len(), "most searches find payments");
}

#[tokio::test]
async fn the_totals_and_pages_of_a_text_found_through_the_joined_columns_answer_what_each_column_finds_live_and_after_a_replay()
 {
    let Filled20 {
        app,
        db,
        account_id,
        ..
    } = filled_account().await;
    let searches = text_searches();
    // A payer's name is found only by a role that sees payers.
    let raimundo = |in_payer| Search {
        text: Some("raimundo".to_owned()),
        text_in_payer: in_payer,
        ..Search::default()
    };
    let seen = summary_of_rows(&db, account_id, &raimundo(true))
        .await
        .expect("rows");
    assert!(!seen.is_empty());
    let unseen = summary_of_rows(&db, account_id, &raimundo(false))
        .await
        .expect("rows");
    assert!(unseen.is_empty(), "{unseen:?}");
    assert_texts_equal_reference(&db, account_id, &searches).await;

    gateway::roles::replay(&app.settings, &["payments".to_owned()], false)
        .await
        .expect("the replay runs");
    assert_texts_equal_reference(&db, account_id, &searches).await;
    app.stop().await;
}
