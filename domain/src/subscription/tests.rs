//! Given/when/then tests of the whole lifecycle.

use chrono::{DateTime, Utc};
use cqrs_es::Aggregate;
use cqrs_es::test::TestFramework;

use super::plans::PlanId;
use super::*;

type SubscriptionTest = TestFramework<Subscription>;

const ACCOUNT: &str = "0190f1a2-0000-7000-8000-00000000000a";
const OWNER: &str = "0190f1a2-0000-7000-8000-00000000000b";

fn charge(n: u32, plan: PlanId) -> NewCharge {
    NewCharge {
        charge_id: format!("charge-{n}"),
        provider: "sandbox".to_owned(),
        provider_payment_id: format!("pay_{n}"),
        amount_centavos: plan.plan().price.get(),
        pix_payload: "000201…".to_owned(),
        expires_at: "2026-12-01T23:59:59Z".to_owned(),
        customer: None,
    }
}

fn upgrade(plan: PlanId, at: &str) -> SubscriptionCommand {
    SubscriptionCommand::UpgradePlan(UpgradePlan {
        account_id: ACCOUNT.to_owned(),
        plan,
        charge: charge(1, plan),
        by: OWNER.to_owned(),
        at: at.to_owned(),
    })
}

fn paid(n: u32, at: &str) -> SubscriptionCommand {
    SubscriptionCommand::ConfirmChargePayment(ConfirmChargePayment {
        provider_payment_id: format!("pay_{n}"),
        amount_centavos: 1_990,
        paid_at: at.to_owned(),
    })
}

fn renewal(at: &str) -> SubscriptionCommand {
    SubscriptionCommand::IssueRenewalCharge(IssueRenewalCharge {
        charge: charge(2, PlanId::PremiumMensal),
        at: at.to_owned(),
    })
}

fn cancel(at: &str) -> SubscriptionCommand {
    SubscriptionCommand::CancelSubscription(CancelSubscription {
        by: OWNER.to_owned(),
        at: at.to_owned(),
    })
}

fn expire(at: &str) -> SubscriptionCommand {
    SubscriptionCommand::ExpireSubscription(ExpireSubscription { at: at.to_owned() })
}

fn changed(n: u32, change: ChargeChange, at: &str) -> SubscriptionCommand {
    SubscriptionCommand::RecordChargeChange(RecordChargeChange {
        provider_payment_id: format!("pay_{n}"),
        change,
        at: at.to_owned(),
    })
}

/// Runs commands in order from nothing and returns every event.
fn run(commands: Vec<SubscriptionCommand>) -> Vec<SubscriptionEvent> {
    let mut events: Vec<SubscriptionEvent> = Vec::new();
    for command in commands {
        let new = SubscriptionTest::with(())
            .given(events.clone())
            .when(command)
            .inspect_result()
            .expect("accepted");
        events.extend(new);
    }
    events
}

fn fold(events: &[SubscriptionEvent]) -> Subscription {
    let mut subscription = Subscription::default();
    for event in events {
        subscription.apply(event.clone());
    }
    subscription
}

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .expect("an instant")
        .with_timezone(&Utc)
}

fn period(kind: &str, charge: u32, from: &str, until: &str) -> SubscriptionEvent {
    let period = PremiumPeriod {
        account_id: ACCOUNT.to_owned(),
        plan: PlanId::PremiumMensal,
        charge_id: format!("charge-{charge}"),
        from: from.to_owned(),
        until: until.to_owned(),
    };
    if kind == "activated" {
        SubscriptionEvent::PremiumActivated(period)
    } else {
        SubscriptionEvent::PremiumRenewed(period)
    }
}

fn charge_paid(n: u32, at: &str) -> SubscriptionEvent {
    SubscriptionEvent::ChargePaid(ChargePaid {
        account_id: ACCOUNT.to_owned(),
        charge_id: format!("charge-{n}"),
        amount_centavos: 1_990,
        paid_at: at.to_owned(),
    })
}

/// An account that upgraded on 1 December and paid at once: Premium until 1 January.
fn active() -> Vec<SubscriptionEvent> {
    run(vec![
        upgrade(PlanId::PremiumMensal, "2026-12-01T10:00:00Z"),
        paid(1, "2026-12-01T10:01:00Z"),
    ])
}

#[test]
fn upgrading_records_the_checkout_and_its_charge() {
    SubscriptionTest::with(())
        .given_no_previous_events()
        .when(upgrade(PlanId::PremiumAnual, "2026-12-01T10:00:00Z"))
        .then_expect_events(vec![SubscriptionEvent::CheckoutStarted(CheckoutStarted {
            account_id: ACCOUNT.to_owned(),
            plan: PlanId::PremiumAnual,
            charge: charge(1, PlanId::PremiumAnual),
            by: OWNER.to_owned(),
            at: "2026-12-01T10:00:00Z".to_owned(),
        })]);
}

#[test]
fn gratis_is_not_bought_and_a_charge_must_cost_the_plans_price() {
    SubscriptionTest::with(())
        .given_no_previous_events()
        .when(upgrade(PlanId::Gratis, "2026-12-01T10:00:00Z"))
        .then_expect_error(SubscriptionError::NotAPaidPlan);
    let mut cheap = charge(1, PlanId::PremiumAnual);
    cheap.amount_centavos = 1;
    SubscriptionTest::with(())
        .given_no_previous_events()
        .when(SubscriptionCommand::UpgradePlan(UpgradePlan {
            account_id: ACCOUNT.to_owned(),
            plan: PlanId::PremiumAnual,
            charge: cheap,
            by: OWNER.to_owned(),
            at: "2026-12-01T10:00:00Z".to_owned(),
        }))
        .then_expect_error(SubscriptionError::WrongAmount);
}

#[test]
fn the_payment_activates_premium_for_one_calendar_month_from_the_payment() {
    SubscriptionTest::with(())
        .given(run(vec![upgrade(
            PlanId::PremiumMensal,
            "2026-12-01T10:00:00Z",
        )]))
        .when(paid(1, "2026-12-01T10:01:00Z"))
        .then_expect_events(vec![
            charge_paid(1, "2026-12-01T10:01:00Z"),
            period(
                "activated",
                1,
                "2026-12-01T10:01:00Z",
                "2027-01-01T10:01:00Z",
            ),
        ]);
    let subscription = fold(&active());
    assert_eq!(
        subscription.plan_at(at("2026-12-31T23:00:00Z")),
        PlanId::PremiumMensal
    );
    assert_eq!(
        subscription.plan_at(at("2027-01-01T10:01:00Z")),
        PlanId::Gratis
    );
}

#[test]
fn the_schedule_kept_of_a_subscription_answers_its_plan_at_every_instant() {
    let premium = fold(&active()).schedule();
    assert_eq!(
        premium.plan_at(at("2026-12-31T23:00:00Z")),
        PlanId::PremiumMensal
    );
    assert_eq!(premium.plan_at(at("2027-01-01T10:01:00Z")), PlanId::Gratis);
    let never = Subscription::default().schedule();
    assert_eq!(never.plan_at(at("2026-12-31T23:00:00Z")), PlanId::Gratis);
}

#[test]
fn a_payment_confirmed_twice_records_nothing_the_second_time() {
    SubscriptionTest::with(())
        .given(active())
        .when(paid(1, "2026-12-01T10:05:00Z"))
        .then_expect_events(vec![]);
}

#[test]
fn a_payment_for_a_charge_this_subscription_never_made_is_refused_as_not_found() {
    SubscriptionTest::with(())
        .given(active())
        .when(paid(99, "2026-12-01T10:05:00Z"))
        .then_expect_error(SubscriptionError::UnknownCharge);
}

#[test]
fn an_account_already_premium_cannot_start_another_checkout() {
    SubscriptionTest::with(())
        .given(active())
        .when(upgrade(PlanId::PremiumAnual, "2026-12-10T10:00:00Z"))
        .then_expect_error(SubscriptionError::AlreadyPremium {
            until: "2027-01-01T10:01:00Z".to_owned(),
        });
}

#[test]
fn a_second_checkout_of_a_plan_is_refused_naming_the_one_still_payable() {
    // charge(1) stays payable until 2026-12-01T23:59:59Z.
    SubscriptionTest::with(())
        .given(run(vec![upgrade(
            PlanId::PremiumMensal,
            "2026-12-01T10:00:00Z",
        )]))
        .when(upgrade(PlanId::PremiumMensal, "2026-12-01T10:00:05Z"))
        .then_expect_error(SubscriptionError::CheckoutAlreadyOpen {
            charge_id: "charge-1".to_owned(),
        });
}

#[test]
fn a_checkout_of_another_plan_or_after_the_open_one_lapsed_starts_a_new_charge() {
    let monthly = run(vec![upgrade(PlanId::PremiumMensal, "2026-12-01T10:00:00Z")]);
    let yearly = SubscriptionTest::with(())
        .given(monthly.clone())
        .when(upgrade(PlanId::PremiumAnual, "2026-12-01T10:00:05Z"))
        .inspect_result()
        .expect("another plan is another purchase");
    assert_eq!(yearly.len(), 1);
    // Two minutes before its Pix expires, nobody could finish paying it.
    let late = SubscriptionTest::with(())
        .given(monthly.clone())
        .when(upgrade(PlanId::PremiumMensal, "2026-12-01T23:58:00Z"))
        .inspect_result()
        .expect("an expiring checkout is not handed out again");
    assert_eq!(late.len(), 1);
    let mut gone = monthly.clone();
    gone.extend(run_after(
        &monthly,
        changed(1, ChargeChange::Deleted, "2026-12-01T10:30:00Z"),
    ));
    let deleted = SubscriptionTest::with(())
        .given(gone)
        .when(upgrade(PlanId::PremiumMensal, "2026-12-01T10:31:00Z"))
        .inspect_result()
        .expect("a deleted charge cannot be paid");
    assert_eq!(deleted.len(), 1);
}

#[test]
fn the_renewal_charge_is_made_only_in_the_last_week_and_only_once() {
    SubscriptionTest::with(())
        .given(active())
        .when(renewal("2026-12-20T10:00:00Z"))
        .then_expect_error(SubscriptionError::TooEarlyToRenew);
    let events = SubscriptionTest::with(())
        .given(active())
        .when(renewal("2026-12-26T10:00:00Z"))
        .inspect_result()
        .expect("issued");
    assert!(matches!(
        events.as_slice(),
        [SubscriptionEvent::RenewalChargeIssued(issued)] if issued.plan == PlanId::PremiumMensal
    ));
    let mut history = active();
    history.extend(events);
    SubscriptionTest::with(())
        .given(history)
        .when(renewal("2026-12-27T10:00:00Z"))
        .then_expect_error(SubscriptionError::RenewalAlreadyIssued);
}

#[test]
fn a_renewal_paid_before_the_end_extends_the_period_from_its_end() {
    let history = {
        let mut h = active();
        h.extend(run_after(&h, renewal("2026-12-26T10:00:00Z")));
        h
    };
    SubscriptionTest::with(())
        .given(history)
        .when(paid(2, "2026-12-28T09:00:00Z"))
        .then_expect_events(vec![
            charge_paid(2, "2026-12-28T09:00:00Z"),
            period("renewed", 2, "2027-01-01T10:01:00Z", "2027-02-01T10:01:00Z"),
        ]);
}

#[test]
fn a_renewal_paid_late_starts_a_new_period_from_the_payment_after_the_account_went_back_to_gratis()
{
    let mut history = active();
    history.extend(run_after(&history, renewal("2026-12-26T10:00:00Z")));
    history.extend(run_after(&history, expire("2027-01-01T10:01:00Z")));
    assert!(matches!(
        history.last(),
        Some(SubscriptionEvent::SubscriptionExpired(e)) if e.reason == ExpiryReason::NotRenewed
    ));
    assert_eq!(
        fold(&history).plan_at(at("2027-01-02T00:00:00Z")),
        PlanId::Gratis
    );
    SubscriptionTest::with(())
        .given(history.clone())
        .when(paid(2, "2027-01-03T15:00:00Z"))
        .then_expect_events(vec![
            charge_paid(2, "2027-01-03T15:00:00Z"),
            period(
                "activated",
                2,
                "2027-01-03T15:00:00Z",
                "2027-02-03T15:00:00Z",
            ),
        ]);
}

#[test]
fn a_period_cannot_be_expired_before_its_end() {
    SubscriptionTest::with(())
        .given(active())
        .when(expire("2026-12-31T10:00:00Z"))
        .then_expect_error(SubscriptionError::NotYetEnded);
    SubscriptionTest::with(())
        .given_no_previous_events()
        .when(expire("2026-12-31T10:00:00Z"))
        .then_expect_error(SubscriptionError::NotPremium);
}

#[test]
fn cancelling_keeps_premium_to_the_end_of_the_period_and_charges_no_renewal() {
    let mut history = active();
    history.extend(run_after(&history, cancel("2026-12-05T10:00:00Z")));
    assert!(matches!(
        history.last(),
        Some(SubscriptionEvent::CancellationScheduled(c)) if c.ends_at == "2027-01-01T10:01:00Z"
    ));
    let subscription = fold(&history);
    assert_eq!(
        subscription.plan_at(at("2026-12-31T10:00:00Z")),
        PlanId::PremiumMensal
    );
    SubscriptionTest::with(())
        .given(history.clone())
        .when(renewal("2026-12-26T10:00:00Z"))
        .then_expect_error(SubscriptionError::AlreadyCancelled);
    SubscriptionTest::with(())
        .given(history.clone())
        .when(cancel("2026-12-06T10:00:00Z"))
        .then_expect_error(SubscriptionError::AlreadyCancelled);
    let ended = run_after(&history, expire("2027-01-01T10:01:00Z"));
    assert!(matches!(
        ended.as_slice(),
        [SubscriptionEvent::SubscriptionExpired(e)] if e.reason == ExpiryReason::Cancelled
    ));
}

#[test]
fn a_cancellation_during_a_pending_renewal_calls_the_renewal_charge_off() {
    let mut history = active();
    history.extend(run_after(&history, renewal("2026-12-26T10:00:00Z")));
    SubscriptionTest::with(())
        .given(history.clone())
        .when(cancel("2026-12-27T10:00:00Z"))
        .then_expect_events(vec![
            SubscriptionEvent::CancellationScheduled(CancellationScheduled {
                account_id: ACCOUNT.to_owned(),
                by: OWNER.to_owned(),
                at: "2026-12-27T10:00:00Z".to_owned(),
                ends_at: "2027-01-01T10:01:00Z".to_owned(),
            }),
            SubscriptionEvent::ChargeCancelled(ChargeCancelled {
                account_id: ACCOUNT.to_owned(),
                charge_id: "charge-2".to_owned(),
                at: "2026-12-27T10:00:00Z".to_owned(),
            }),
        ]);
    // The payer had the QR code open and paid anyway: the money is honoured with the period
    // it paid for, and the cancellation still ends Premium at that period's end.
    history.extend(run_after(&history, cancel("2026-12-27T10:00:00Z")));
    history.extend(run_after(&history, paid(2, "2026-12-28T10:00:00Z")));
    let subscription = fold(&history);
    assert_eq!(
        subscription.active_until.as_deref(),
        Some("2027-02-01T10:01:00Z")
    );
    assert!(subscription.cancelled);
}

#[test]
fn a_renewal_charge_called_off_by_a_cancellation_is_recorded_deleted_once_the_provider_deleted_it()
{
    let mut history = active();
    history.extend(run_after(&history, renewal("2026-12-26T10:00:00Z")));
    history.extend(run_after(&history, cancel("2026-12-27T10:00:00Z")));
    SubscriptionTest::with(())
        .given(history.clone())
        .when(changed(2, ChargeChange::Deleted, "2026-12-27T10:00:05Z"))
        .then_expect_events(vec![SubscriptionEvent::ChargeChanged(ChargeChanged {
            account_id: ACCOUNT.to_owned(),
            charge_id: "charge-2".to_owned(),
            change: ChargeChange::Deleted,
            at: "2026-12-27T10:00:05Z".to_owned(),
        })]);
    history.extend(run_after(
        &history,
        changed(2, ChargeChange::Deleted, "2026-12-27T10:00:05Z"),
    ));
    // Deleted twice (the sweep's retry after a lost answer, Asaas's PAYMENT_DELETED): nothing new.
    SubscriptionTest::with(())
        .given(history.clone())
        .when(changed(2, ChargeChange::Deleted, "2026-12-27T10:10:00Z"))
        .then_expect_events(vec![]);
    let subscription = fold(&history);
    assert!(subscription.cancelled);
    assert_eq!(
        subscription.active_until.as_deref(),
        Some("2027-01-01T10:01:00Z")
    );
}

#[test]
fn overdue_and_deleted_reports_move_an_open_charge_and_are_ignored_once_it_is_paid() {
    let opened = run(vec![upgrade(PlanId::PremiumMensal, "2026-12-01T10:00:00Z")]);
    let overdue = run_after(
        &opened,
        changed(1, ChargeChange::Overdue, "2026-12-02T03:00:00Z"),
    );
    assert_eq!(overdue.len(), 1);
    // Out of order: the overdue report arrives after the payment.
    SubscriptionTest::with(())
        .given(active())
        .when(changed(1, ChargeChange::Overdue, "2026-12-02T03:00:00Z"))
        .then_expect_events(vec![]);
    SubscriptionTest::with(())
        .given(active())
        .when(changed(1, ChargeChange::Deleted, "2026-12-02T03:00:00Z"))
        .then_expect_events(vec![]);
}

#[test]
fn a_refund_of_the_payment_for_this_period_ends_premium_at_once() {
    SubscriptionTest::with(())
        .given(active())
        .when(changed(1, ChargeChange::Refunded, "2026-12-03T10:00:00Z"))
        .then_expect_events(vec![
            SubscriptionEvent::ChargeChanged(ChargeChanged {
                account_id: ACCOUNT.to_owned(),
                charge_id: "charge-1".to_owned(),
                change: ChargeChange::Refunded,
                at: "2026-12-03T10:00:00Z".to_owned(),
            }),
            SubscriptionEvent::SubscriptionExpired(SubscriptionExpired {
                account_id: ACCOUNT.to_owned(),
                plan: PlanId::PremiumMensal,
                reason: ExpiryReason::Refunded,
                at: "2026-12-03T10:00:00Z".to_owned(),
            }),
        ]);
}

#[test]
fn a_payment_reported_after_its_refund_activates_nothing() {
    let opened = run(vec![upgrade(PlanId::PremiumMensal, "2026-12-01T10:00:00Z")]);
    let mut history = opened.clone();
    history.extend(run_after(
        &opened,
        changed(1, ChargeChange::Refunded, "2026-12-03T10:00:00Z"),
    ));
    SubscriptionTest::with(())
        .given(history)
        .when(paid(1, "2026-12-01T10:01:00Z"))
        .then_expect_events(vec![]);
}

#[test]
fn every_event_is_versioned_and_named_in_the_past_tense() {
    use cqrs_es::DomainEvent;
    let mut history = active();
    history.extend(run_after(&history, renewal("2026-12-26T10:00:00Z")));
    history.extend(run_after(&history, cancel("2026-12-27T10:00:00Z")));
    for event in &history {
        assert_eq!(event.event_version(), "1");
        let name = event.event_type();
        assert!(
            name.ends_with("ed") || name.ends_with("Paid") || name.ends_with("Issued"),
            "{name}"
        );
        let json = serde_json::to_value(event).expect("serialisable");
        assert_eq!(json["type"], name);
    }
}

fn run_after(
    history: &[SubscriptionEvent],
    command: SubscriptionCommand,
) -> Vec<SubscriptionEvent> {
    SubscriptionTest::with(())
        .given(history.to_vec())
        .when(command)
        .inspect_result()
        .expect("accepted")
}
