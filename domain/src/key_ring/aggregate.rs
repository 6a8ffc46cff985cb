//! The key ring aggregate: `handle` only decides, `apply` only folds.

use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

use super::commands::{ChooseDefaultPixKey, RegisterPixKey, RemovePixKey, RenamePixKey};
use super::events::{DefaultPixKeyChosen, PixKeyRegistered, PixKeyRemoved, PixKeyRenamed};
use crate::subscription::limits::{self, LimitedAction, Usage};

use super::{
    KeyRingCommand, KeyRingError, KeyRingEvent, MAX_ACTIVE_KEYS, STREAM_TYPE, stored_kind_name,
};

/// One key of the ring, as decisions need it: never its value (only its fingerprint).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RingKey {
    /// The key's id.
    pub key_id: String,
    /// Keyed hash of its DICT form.
    pub fingerprint: String,
    /// Whether it was removed.
    pub removed: bool,
}

/// The state an account's key decisions need: every key ever registered, in order (removed ones
/// too, so an id is never reused), and the default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PixKeyRing {
    account_id: Option<String>,
    keys: Vec<RingKey>,
    default_key: Option<String>,
}

impl PixKeyRing {
    /// Every key, in the order registered (removed ones included).
    pub fn keys(&self) -> &[RingKey] {
        &self.keys
    }

    /// The default key's id, while any key is active.
    pub fn default_key(&self) -> Option<&str> {
        self.default_key.as_deref()
    }

    /// How many keys are active: what the plan's limit of keys counts.
    pub fn active_count(&self) -> u32 {
        u32::try_from(self.active().count()).unwrap_or(u32::MAX)
    }

    /// The keys that are not removed, oldest first.
    fn active(&self) -> impl Iterator<Item = &RingKey> {
        self.keys.iter().filter(|key| !key.removed)
    }

    /// The key `key_id` if it exists and is not removed.
    fn usable(&self, key_id: &str) -> Result<&RingKey, KeyRingError> {
        let key = self
            .keys
            .iter()
            .find(|key| key.key_id == key_id)
            .ok_or(KeyRingError::KeyNotFound)?;
        if key.removed {
            return Err(KeyRingError::KeyRemoved);
        }
        Ok(key)
    }

    fn account(&self) -> Result<String, KeyRingError> {
        // A ring exists from its first registration; before it no key can be named.
        self.account_id.clone().ok_or(KeyRingError::KeyNotFound)
    }

    fn decide(&self, command: KeyRingCommand) -> Result<Vec<KeyRingEvent>, KeyRingError> {
        match command {
            KeyRingCommand::RegisterPixKey(register) => self.register(register),
            KeyRingCommand::RenamePixKey(rename) => self.rename(rename),
            KeyRingCommand::ChooseDefaultPixKey(choose) => self.choose_default(choose),
            KeyRingCommand::RemovePixKey(remove) => self.remove(remove),
        }
    }

    fn register(&self, register: RegisterPixKey) -> Result<Vec<KeyRingEvent>, KeyRingError> {
        if self.keys.iter().any(|key| key.key_id == register.key_id) {
            return Err(KeyRingError::KeyIdTaken);
        }
        if self
            .active()
            .any(|key| key.fingerprint == register.fingerprint)
        {
            return Err(KeyRingError::AlreadyRegistered);
        }
        // The plan's limit is checked against the ring's own keys, so two registrations racing
        // for the plan's last key cannot both pass: the second is decided again on the first's
        // event (expected version) and refused.
        let usage = Usage {
            pix_keys: self.active_count(),
            ..Usage::default()
        };
        limits::check(register.plan, LimitedAction::RegisterPixKey, usage)
            .map_err(KeyRingError::PlanLimit)?;
        if self.active().count() >= MAX_ACTIVE_KEYS {
            return Err(KeyRingError::TooManyKeys);
        }
        let becomes_default = register.make_default || self.default_key.is_none();
        let mut events = vec![KeyRingEvent::PixKeyRegistered(PixKeyRegistered {
            account_id: register.account_id.clone(),
            key_id: register.key_id.clone(),
            key_kind: stored_kind_name(register.kind).to_owned(),
            fingerprint: register.fingerprint,
            pix_key: register.pix_key,
            holder_name: register.holder_name,
            label: register.label,
            by: register.by.clone(),
            at: register.at.clone(),
        })];
        if becomes_default {
            events.push(KeyRingEvent::DefaultPixKeyChosen(DefaultPixKeyChosen {
                account_id: register.account_id,
                key_id: register.key_id,
                by: register.by,
                at: register.at,
            }));
        }
        Ok(events)
    }

    fn rename(&self, rename: RenamePixKey) -> Result<Vec<KeyRingEvent>, KeyRingError> {
        let account_id = self.account()?;
        self.usable(&rename.key_id)?;
        Ok(vec![KeyRingEvent::PixKeyRenamed(PixKeyRenamed {
            account_id,
            key_id: rename.key_id,
            holder_name: rename.holder_name,
            label: rename.label,
            by: rename.by,
            at: rename.at,
        })])
    }

    fn choose_default(
        &self,
        choose: ChooseDefaultPixKey,
    ) -> Result<Vec<KeyRingEvent>, KeyRingError> {
        let account_id = self.account()?;
        self.usable(&choose.key_id)?;
        if self.default_key.as_deref() == Some(choose.key_id.as_str()) {
            return Ok(vec![]);
        }
        Ok(vec![KeyRingEvent::DefaultPixKeyChosen(
            DefaultPixKeyChosen {
                account_id,
                key_id: choose.key_id,
                by: choose.by,
                at: choose.at,
            },
        )])
    }

    fn remove(&self, remove: RemovePixKey) -> Result<Vec<KeyRingEvent>, KeyRingError> {
        let account_id = self.account()?;
        match self.usable(&remove.key_id) {
            Ok(_) => {}
            // Removing twice (a double click, a retried request) changes nothing.
            Err(KeyRingError::KeyRemoved) => return Ok(vec![]),
            Err(other) => return Err(other),
        }
        let mut events = vec![KeyRingEvent::PixKeyRemoved(PixKeyRemoved {
            account_id: account_id.clone(),
            key_id: remove.key_id.clone(),
            by: remove.by.clone(),
            at: remove.at.clone(),
        })];
        if self.default_key.as_deref() == Some(remove.key_id.as_str())
            && let Some(next) = self.active().find(|key| key.key_id != remove.key_id)
        {
            events.push(KeyRingEvent::DefaultPixKeyChosen(DefaultPixKeyChosen {
                account_id,
                key_id: next.key_id.clone(),
                by: remove.by,
                at: remove.at,
            }));
        }
        Ok(events)
    }
}

impl Aggregate for PixKeyRing {
    const TYPE: &'static str = STREAM_TYPE;
    type Command = KeyRingCommand;
    type Event = KeyRingEvent;
    type Error = KeyRingError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        for event in self.decide(command)? {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            KeyRingEvent::PixKeyRegistered(registered) => {
                self.account_id = Some(registered.account_id);
                self.keys.push(RingKey {
                    key_id: registered.key_id,
                    fingerprint: registered.fingerprint,
                    removed: false,
                });
            }
            KeyRingEvent::PixKeyRenamed(_) => {}
            KeyRingEvent::DefaultPixKeyChosen(chosen) => self.default_key = Some(chosen.key_id),
            KeyRingEvent::PixKeyRemoved(removed) => {
                if let Some(key) = self.keys.iter_mut().find(|k| k.key_id == removed.key_id) {
                    key.removed = true;
                }
                if self.default_key.as_deref() == Some(removed.key_id.as_str()) {
                    self.default_key = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::DomainEvent;
    use cqrs_es::test::TestFramework;

    use super::*;
    use crate::pix_key::PixKeyKind;
    use crate::sealed::Sealed;
    use crate::subscription::limits::{Limit, PlanLimitReached};
    use crate::subscription::plans::PlanId;

    type RingTest = TestFramework<PixKeyRing>;

    const ACCOUNT: &str = "0196a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b";
    const OWNER: &str = ACCOUNT;
    const MANAGER: &str = "0196a1b2-0000-7000-8000-00000000000b";
    const AT: &str = "2026-11-25T12:00:00Z";

    fn register(key_id: &str, fingerprint: &str, make_default: bool) -> KeyRingCommand {
        KeyRingCommand::RegisterPixKey(RegisterPixKey {
            account_id: ACCOUNT.to_owned(),
            key_id: key_id.to_owned(),
            kind: PixKeyKind::Email,
            fingerprint: fingerprint.to_owned(),
            pix_key: Sealed::from_text(format!("v1.key-{key_id}")),
            holder_name: Sealed::from_text("v1.holder"),
            label: Some(Sealed::from_text("v1.label")),
            make_default,
            plan: PlanId::PremiumMensal,
            by: OWNER.to_owned(),
            at: AT.to_owned(),
        })
    }

    fn registered(key_id: &str, fingerprint: &str) -> KeyRingEvent {
        KeyRingEvent::PixKeyRegistered(PixKeyRegistered {
            account_id: ACCOUNT.to_owned(),
            key_id: key_id.to_owned(),
            key_kind: "email".to_owned(),
            fingerprint: fingerprint.to_owned(),
            pix_key: Sealed::from_text(format!("v1.key-{key_id}")),
            holder_name: Sealed::from_text("v1.holder"),
            label: Some(Sealed::from_text("v1.label")),
            by: OWNER.to_owned(),
            at: AT.to_owned(),
        })
    }

    fn chosen(key_id: &str, by: &str) -> KeyRingEvent {
        KeyRingEvent::DefaultPixKeyChosen(DefaultPixKeyChosen {
            account_id: ACCOUNT.to_owned(),
            key_id: key_id.to_owned(),
            by: by.to_owned(),
            at: AT.to_owned(),
        })
    }

    fn removed(key_id: &str, by: &str) -> KeyRingEvent {
        KeyRingEvent::PixKeyRemoved(PixKeyRemoved {
            account_id: ACCOUNT.to_owned(),
            key_id: key_id.to_owned(),
            by: by.to_owned(),
            at: AT.to_owned(),
        })
    }

    fn remove(key_id: &str, by: &str) -> KeyRingCommand {
        KeyRingCommand::RemovePixKey(RemovePixKey {
            key_id: key_id.to_owned(),
            by: by.to_owned(),
            at: AT.to_owned(),
        })
    }

    fn choose(key_id: &str) -> KeyRingCommand {
        KeyRingCommand::ChooseDefaultPixKey(ChooseDefaultPixKey {
            key_id: key_id.to_owned(),
            by: MANAGER.to_owned(),
            at: AT.to_owned(),
        })
    }

    /// Two keys, the first the default.
    fn two_keys() -> Vec<KeyRingEvent> {
        vec![
            registered("k1", "f1"),
            chosen("k1", OWNER),
            registered("k2", "f2"),
        ]
    }

    #[test]
    fn the_first_key_registered_becomes_the_default() {
        RingTest::with(())
            .given_no_previous_events()
            .when(register("k1", "f1", false))
            .then_expect_events(vec![registered("k1", "f1"), chosen("k1", OWNER)]);
    }

    #[test]
    fn a_second_key_is_registered_without_taking_the_default() {
        RingTest::with(())
            .given(vec![registered("k1", "f1"), chosen("k1", OWNER)])
            .when(register("k2", "f2", false))
            .then_expect_events(vec![registered("k2", "f2")]);
    }

    #[test]
    fn a_key_registered_as_default_takes_the_default_from_the_previous_one() {
        RingTest::with(())
            .given(vec![registered("k1", "f1"), chosen("k1", OWNER)])
            .when(register("k2", "f2", true))
            .then_expect_events(vec![registered("k2", "f2"), chosen("k2", OWNER)]);
    }

    #[test]
    fn the_same_key_twice_in_one_account_is_refused() {
        RingTest::with(())
            .given(two_keys())
            .when(register("k3", "f2", false))
            .then_expect_error(KeyRingError::AlreadyRegistered);
    }

    #[test]
    fn a_removed_key_can_be_registered_again_under_a_new_id() {
        let mut given = two_keys();
        given.push(removed("k2", OWNER));
        RingTest::with(())
            .given(given)
            .when(register("k3", "f2", false))
            .then_expect_events(vec![registered("k3", "f2")]);
    }

    #[test]
    fn a_key_id_is_never_reused_even_after_its_key_was_removed() {
        let mut given = two_keys();
        given.push(removed("k2", OWNER));
        RingTest::with(())
            .given(given)
            .when(register("k2", "f9", false))
            .then_expect_error(KeyRingError::KeyIdTaken);
    }

    #[test]
    fn on_gratis_the_eleventh_key_is_refused_by_the_plan_and_a_removed_key_frees_a_place() {
        let mut given = vec![chosen("k0", OWNER)];
        for n in 0..10 {
            given.insert(n, registered(&format!("k{n}"), &format!("f{n}")));
        }
        let on_gratis = |command: KeyRingCommand| match command {
            KeyRingCommand::RegisterPixKey(register) => {
                KeyRingCommand::RegisterPixKey(RegisterPixKey {
                    plan: PlanId::Gratis,
                    ..register
                })
            }
            other => other,
        };
        RingTest::with(())
            .given(given.clone())
            .when(on_gratis(register("k99", "f99", false)))
            .then_expect_error(KeyRingError::PlanLimit(PlanLimitReached {
                plan: PlanId::Gratis,
                limit: Limit::PixKeys,
                allowed: 10,
                premium_allows: 50,
            }));
        // Premium allows it; on Grátis a removal makes room.
        RingTest::with(())
            .given(given.clone())
            .when(register("k99", "f99", false))
            .then_expect_events(vec![registered("k99", "f99")]);
        given.push(removed("k3", OWNER));
        RingTest::with(())
            .given(given)
            .when(on_gratis(register("k99", "f99", false)))
            .then_expect_events(vec![registered("k99", "f99")]);
    }

    #[test]
    fn premium_registers_up_to_fifty_active_keys_as_the_home_page_promises() {
        let mut given = vec![chosen("k0", OWNER)];
        for n in 0..49 {
            given.insert(n, registered(&format!("k{n}"), &format!("f{n}")));
        }
        // The fiftieth (the ring stopped at twenty before, under Premium's promise of 50).
        RingTest::with(())
            .given(given.clone())
            .when(register("k49", "f49", false))
            .then_expect_events(vec![registered("k49", "f49")]);
        given.insert(49, registered("k49", "f49"));
        RingTest::with(())
            .given(given.clone())
            .when(register("k99", "f99", false))
            .then_expect_error(KeyRingError::PlanLimit(PlanLimitReached {
                plan: PlanId::PremiumMensal,
                limit: Limit::PixKeys,
                allowed: 50,
                premium_allows: 50,
            }));
        given.push(removed("k3", OWNER));
        RingTest::with(())
            .given(given)
            .when(register("k99", "f99", false))
            .then_expect_events(vec![registered("k99", "f99")]);
    }

    #[test]
    fn choosing_another_default_moves_it() {
        RingTest::with(())
            .given(two_keys())
            .when(choose("k2"))
            .then_expect_events(vec![chosen("k2", MANAGER)]);
    }

    #[test]
    fn choosing_the_default_again_changes_nothing() {
        RingTest::with(())
            .given(two_keys())
            .when(choose("k1"))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_removed_key_cannot_become_the_default() {
        let mut given = two_keys();
        given.push(removed("k2", OWNER));
        RingTest::with(())
            .given(given)
            .when(choose("k2"))
            .then_expect_error(KeyRingError::KeyRemoved);
    }

    #[test]
    fn removing_the_default_moves_the_default_to_the_oldest_remaining_key() {
        let mut given = two_keys();
        given.push(registered("k3", "f3"));
        RingTest::with(())
            .given(given)
            .when(remove("k1", MANAGER))
            .then_expect_events(vec![removed("k1", MANAGER), chosen("k2", MANAGER)]);
    }

    #[test]
    fn removing_the_last_key_leaves_no_default() {
        RingTest::with(())
            .given(vec![registered("k1", "f1"), chosen("k1", OWNER)])
            .when(remove("k1", OWNER))
            .then_expect_events(vec![removed("k1", OWNER)]);
    }

    #[test]
    fn removing_a_key_that_is_not_the_default_leaves_the_default_alone() {
        RingTest::with(())
            .given(two_keys())
            .when(remove("k2", OWNER))
            .then_expect_events(vec![removed("k2", OWNER)]);
    }

    #[test]
    fn removing_a_key_keeps_its_history_in_the_ring() {
        let mut ring = PixKeyRing::default();
        let mut given = two_keys();
        given.push(removed("k1", OWNER));
        given.push(chosen("k2", OWNER));
        for event in given {
            ring.apply(event);
        }
        assert_eq!(ring.keys().len(), 2, "a removed key keeps its place");
        assert!(ring.keys()[0].removed);
        assert_eq!(ring.keys()[0].fingerprint, "f1");
        assert_eq!(ring.default_key(), Some("k2"));
    }

    #[test]
    fn removing_a_removed_key_again_changes_nothing() {
        let mut given = two_keys();
        given.push(removed("k2", OWNER));
        RingTest::with(())
            .given(given)
            .when(remove("k2", OWNER))
            .then_expect_events(vec![]);
    }

    #[test]
    fn renaming_a_key_records_its_new_label_and_holder_name() {
        let rename = KeyRingCommand::RenamePixKey(RenamePixKey {
            key_id: "k2".to_owned(),
            holder_name: Sealed::from_text("v1.new-holder"),
            label: None,
            by: MANAGER.to_owned(),
            at: AT.to_owned(),
        });
        RingTest::with(())
            .given(two_keys())
            .when(rename)
            .then_expect_events(vec![KeyRingEvent::PixKeyRenamed(PixKeyRenamed {
                account_id: ACCOUNT.to_owned(),
                key_id: "k2".to_owned(),
                holder_name: Sealed::from_text("v1.new-holder"),
                label: None,
                by: MANAGER.to_owned(),
                at: AT.to_owned(),
            })]);
    }

    #[test]
    fn renaming_a_key_that_is_not_in_the_ring_is_refused() {
        let rename = |key_id: &str| {
            KeyRingCommand::RenamePixKey(RenamePixKey {
                key_id: key_id.to_owned(),
                holder_name: Sealed::from_text("v1.x"),
                label: None,
                by: OWNER.to_owned(),
                at: AT.to_owned(),
            })
        };
        RingTest::with(())
            .given_no_previous_events()
            .when(rename("k1"))
            .then_expect_error(KeyRingError::KeyNotFound);
        RingTest::with(())
            .given(two_keys())
            .when(rename("k9"))
            .then_expect_error(KeyRingError::KeyNotFound);
        let mut given = two_keys();
        given.push(removed("k2", OWNER));
        RingTest::with(())
            .given(given)
            .when(rename("k2"))
            .then_expect_error(KeyRingError::KeyRemoved);
    }

    #[test]
    fn the_stored_form_carries_only_sealed_personal_values_at_the_top_level() {
        let event = registered("k1", "f1");
        let json = serde_json::to_value(&event).expect("serialisable");
        assert_eq!(json["type"], "PixKeyRegistered");
        assert_eq!(json["key_kind"], "email");
        assert_eq!(json["pix_key"], "v1.key-k1");
        assert_eq!(json["holder_name"], "v1.holder");
        assert_eq!(event.event_version(), "1");
        let back: KeyRingEvent = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, event);
    }

    #[test]
    fn every_plans_number_of_keys_fits_under_the_rings_own_cap() {
        for plan in crate::subscription::plans::PLANS {
            let allowed = usize::try_from(plan.limits.pix_keys).expect("small");
            assert!(
                allowed <= MAX_ACTIVE_KEYS,
                "{} promises {allowed} keys; the ring stops at {MAX_ACTIVE_KEYS}",
                plan.name
            );
        }
    }
}
