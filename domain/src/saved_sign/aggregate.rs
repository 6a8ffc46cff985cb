//! The saved-sign aggregate: `handle` only decides, `apply` only folds.

use cqrs_es::Aggregate;
use cqrs_es::event_sink::EventSink;
use serde::{Deserialize, Serialize};

use super::{
    MAX_NAME_CHARS, STREAM_TYPE, SavedSignCommand, SavedSignError, SavedSignEvent, SignChanged,
    SignDeleted, SignSaved, SignSettings,
};
use crate::sign::{MAX_FOOTER_CHARS, MAX_HEADLINE_CHARS};

/// What a decision needs to know of a saved sign.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedSign {
    /// The sign's id, once saved.
    pub sign_id: Option<String>,
    /// Whether it was deleted.
    pub deleted: bool,
    /// Its choices as the last event left them, so a change that changes nothing records nothing.
    pub current: Option<Checked>,
}

/// Choices that passed the checks, in the shape the events carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    /// Trimmed name.
    pub name: String,
    /// Template slug.
    pub template: String,
    /// Paper size slug.
    pub size: String,
    /// Theme slug.
    pub theme: String,
    /// Trimmed headline; blank reads as none.
    pub headline: Option<String>,
    /// Trimmed footer; blank reads as none.
    pub footer: Option<String>,
    /// Whether the logo is drawn.
    pub with_logo: bool,
}

/// Trimmed text, `None` when blank.
fn optional(text: Option<String>) -> Option<String> {
    text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty())
}

/// Checks the free text of `settings` (the slugs were read at the edge).
fn check(settings: SignSettings) -> Result<Checked, SavedSignError> {
    let name = settings.name.trim().to_owned();
    if name.is_empty() {
        return Err(SavedSignError::NameRequired);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(SavedSignError::NameTooLong);
    }
    let headline = optional(settings.headline);
    if headline
        .as_deref()
        .is_some_and(|h| h.chars().count() > MAX_HEADLINE_CHARS)
    {
        return Err(SavedSignError::HeadlineTooLong);
    }
    let footer = optional(settings.footer);
    if footer
        .as_deref()
        .is_some_and(|f| f.chars().count() > MAX_FOOTER_CHARS)
    {
        return Err(SavedSignError::FooterTooLong);
    }
    Ok(Checked {
        name,
        template: settings.template.slug().to_owned(),
        size: settings.size.slug().to_owned(),
        theme: settings.theme.slug().to_owned(),
        headline,
        footer,
        with_logo: settings.with_logo,
    })
}

impl SavedSign {
    fn decide(&self, command: SavedSignCommand) -> Result<Vec<SavedSignEvent>, SavedSignError> {
        match command {
            SavedSignCommand::SaveSign(save) => {
                if self.sign_id.is_some() {
                    return Err(SavedSignError::AlreadySaved);
                }
                let c = check(save.settings)?;
                Ok(vec![SavedSignEvent::SignSaved(SignSaved {
                    sign_id: save.sign_id,
                    owner_id: save.owner_id,
                    created_by: save.created_by,
                    qrcode_id: save.qrcode_id,
                    duplicate_of: save.duplicate_of,
                    name: c.name,
                    template: c.template,
                    size: c.size,
                    theme: c.theme,
                    headline: c.headline,
                    footer: c.footer,
                    with_logo: c.with_logo,
                    saved_at: save.requested_at,
                })])
            }
            SavedSignCommand::ChangeSign(change) => {
                let sign_id = self.live_id()?;
                let c = check(change.settings)?;
                if self.current.as_ref() == Some(&c) {
                    return Ok(Vec::new());
                }
                Ok(vec![SavedSignEvent::SignChanged(SignChanged {
                    sign_id,
                    changed_by: change.changed_by,
                    name: c.name,
                    template: c.template,
                    size: c.size,
                    theme: c.theme,
                    headline: c.headline,
                    footer: c.footer,
                    with_logo: c.with_logo,
                    at: change.requested_at,
                })])
            }
            SavedSignCommand::DeleteSign(delete) => {
                let sign_id = self.live_id()?;
                Ok(vec![SavedSignEvent::SignDeleted(SignDeleted {
                    sign_id,
                    deleted_by: delete.deleted_by,
                    at: delete.requested_at,
                })])
            }
        }
    }

    /// The id of a sign that was saved and not deleted.
    fn live_id(&self) -> Result<String, SavedSignError> {
        match &self.sign_id {
            Some(id) if !self.deleted => Ok(id.clone()),
            // A deleted sign is gone for its owner as much as one never saved.
            _ => Err(SavedSignError::NotFound),
        }
    }
}

impl Aggregate for SavedSign {
    const TYPE: &'static str = STREAM_TYPE;
    type Command = SavedSignCommand;
    type Event = SavedSignEvent;
    type Error = SavedSignError;
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
            SavedSignEvent::SignSaved(saved) => {
                self.sign_id = Some(saved.sign_id);
                self.current = Some(Checked {
                    name: saved.name,
                    template: saved.template,
                    size: saved.size,
                    theme: saved.theme,
                    headline: saved.headline,
                    footer: saved.footer,
                    with_logo: saved.with_logo,
                });
            }
            SavedSignEvent::SignChanged(changed) => {
                self.current = Some(Checked {
                    name: changed.name,
                    template: changed.template,
                    size: changed.size,
                    theme: changed.theme,
                    headline: changed.headline,
                    footer: changed.footer,
                    with_logo: changed.with_logo,
                });
            }
            SavedSignEvent::SignDeleted(_) => self.deleted = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;
    use crate::refusal::{Refusal, RefusalKind};
    use crate::saved_sign::{ChangeSign, DeleteSign, SaveSign};
    use crate::sign::{PaperSize, Template, Theme};

    type SignTest = TestFramework<SavedSign>;

    const SIGN: &str = "0190f1a2-0000-7000-8000-0000000000c1";
    const OWNER: &str = "0190f1a2-0000-7000-8000-00000000000a";
    const PERSON: &str = "0190f1a2-0000-7000-8000-00000000000b";
    const CODE: &str = "0190f1a2-0000-7000-8000-0000000000d1";

    fn settings() -> SignSettings {
        SignSettings {
            name: "  Balcão da frente ".to_owned(),
            template: Template::Band,
            size: PaperSize::A5,
            theme: Theme::Blue,
            headline: Some("Pague aqui com Pix".to_owned()),
            footer: Some("   ".to_owned()),
            with_logo: true,
        }
    }

    fn save(settings: SignSettings) -> SavedSignCommand {
        SavedSignCommand::SaveSign(SaveSign {
            sign_id: SIGN.to_owned(),
            owner_id: OWNER.to_owned(),
            created_by: PERSON.to_owned(),
            qrcode_id: CODE.to_owned(),
            duplicate_of: None,
            settings,
            requested_at: "2026-11-26T10:00:00Z".to_owned(),
        })
    }

    fn change(settings: SignSettings) -> SavedSignCommand {
        SavedSignCommand::ChangeSign(ChangeSign {
            changed_by: PERSON.to_owned(),
            settings,
            requested_at: "2026-11-26T11:00:00Z".to_owned(),
        })
    }

    fn delete() -> SavedSignCommand {
        SavedSignCommand::DeleteSign(DeleteSign {
            deleted_by: PERSON.to_owned(),
            requested_at: "2026-11-26T12:00:00Z".to_owned(),
        })
    }

    fn saved() -> Vec<SavedSignEvent> {
        SignTest::with(())
            .given_no_previous_events()
            .when(save(settings()))
            .inspect_result()
            .expect("the sign is saved")
    }

    fn deleted() -> SavedSignEvent {
        SavedSignEvent::SignDeleted(SignDeleted {
            sign_id: SIGN.to_owned(),
            deleted_by: PERSON.to_owned(),
            at: "2026-11-26T12:00:00Z".to_owned(),
        })
    }

    #[test]
    fn a_saved_sign_records_its_code_and_choices_as_slugs_with_text_trimmed() {
        SignTest::with(())
            .given_no_previous_events()
            .when(save(settings()))
            .then_expect_events(vec![SavedSignEvent::SignSaved(SignSaved {
                sign_id: SIGN.to_owned(),
                owner_id: OWNER.to_owned(),
                created_by: PERSON.to_owned(),
                qrcode_id: CODE.to_owned(),
                duplicate_of: None,
                name: "Balcão da frente".to_owned(),
                template: "faixa".to_owned(),
                size: "a5".to_owned(),
                theme: "azul".to_owned(),
                headline: Some("Pague aqui com Pix".to_owned()),
                footer: None,
                with_logo: true,
                saved_at: "2026-11-26T10:00:00Z".to_owned(),
            })]);
        let json = serde_json::to_value(&saved()[0]).expect("serialisable");
        assert_eq!(json["type"], "SignSaved");
    }

    #[test]
    fn a_sign_is_saved_once() {
        SignTest::with(())
            .given(saved())
            .when(save(settings()))
            .then_expect_error(SavedSignError::AlreadySaved);
    }

    #[test]
    fn a_blank_or_long_name_is_refused_under_the_name_field() {
        let mut blank = settings();
        blank.name = "   ".to_owned();
        SignTest::with(())
            .given_no_previous_events()
            .when(save(blank))
            .then_expect_error(SavedSignError::NameRequired);
        let mut long = settings();
        long.name = "x".repeat(MAX_NAME_CHARS + 1);
        SignTest::with(())
            .given_no_previous_events()
            .when(save(long))
            .then_expect_error(SavedSignError::NameTooLong);
        assert_eq!(SavedSignError::NameRequired.field(), Some("name"));
        assert_eq!(SavedSignError::NameTooLong.kind(), RefusalKind::Invalid);
    }

    #[test]
    fn a_headline_or_footer_longer_than_the_sign_allows_is_refused_in_portuguese() {
        let mut headline = settings();
        headline.headline = Some("é".repeat(MAX_HEADLINE_CHARS + 1));
        SignTest::with(())
            .given_no_previous_events()
            .when(save(headline))
            .then_expect_error(SavedSignError::HeadlineTooLong);
        let mut footer = settings();
        footer.footer = Some("ç".repeat(MAX_FOOTER_CHARS + 1));
        SignTest::with(())
            .given(saved())
            .when(change(footer))
            .then_expect_error(SavedSignError::FooterTooLong);
        assert_eq!(
            SavedSignError::FooterTooLong.to_string(),
            "O rodapé pode ter até 80 caracteres."
        );
        // Exactly at the limit is fine, counted in characters, not bytes.
        let mut full = settings();
        full.headline = Some("é".repeat(MAX_HEADLINE_CHARS));
        SignTest::with(())
            .given_no_previous_events()
            .when(save(full))
            .inspect_result()
            .expect("40 characters fit");
    }

    #[test]
    fn changing_a_sign_records_every_choice_as_it_now_is() {
        let mut other = settings();
        other.template = Template::Minimal;
        other.size = PaperSize::TableTent;
        other.theme = Theme::Wine;
        other.headline = None;
        other.footer = Some("Aberto das 8h às 18h".to_owned());
        other.with_logo = false;
        SignTest::with(())
            .given(saved())
            .when(change(other))
            .then_expect_events(vec![SavedSignEvent::SignChanged(SignChanged {
                sign_id: SIGN.to_owned(),
                changed_by: PERSON.to_owned(),
                name: "Balcão da frente".to_owned(),
                template: "minimalista".to_owned(),
                size: "display-de-mesa".to_owned(),
                theme: "vinho".to_owned(),
                headline: None,
                footer: Some("Aberto das 8h às 18h".to_owned()),
                with_logo: false,
                at: "2026-11-26T11:00:00Z".to_owned(),
            })]);
    }

    #[test]
    fn a_change_that_changes_nothing_records_nothing() {
        SignTest::with(())
            .given(saved())
            .when(change(settings()))
            .then_expect_events(vec![]);
    }

    #[test]
    fn deleting_a_sign_records_who_and_when_and_a_deleted_sign_is_not_found_after() {
        SignTest::with(())
            .given(saved())
            .when(delete())
            .then_expect_events(vec![deleted()]);
        let mut history = saved();
        history.push(deleted());
        SignTest::with(())
            .given(history.clone())
            .when(delete())
            .then_expect_error(SavedSignError::NotFound);
        SignTest::with(())
            .given(history)
            .when(change(settings()))
            .then_expect_error(SavedSignError::NotFound);
    }

    #[test]
    fn a_sign_never_saved_cannot_be_changed_or_deleted() {
        SignTest::with(())
            .given_no_previous_events()
            .when(delete())
            .then_expect_error(SavedSignError::NotFound);
        SignTest::with(())
            .given_no_previous_events()
            .when(change(settings()))
            .then_expect_error(SavedSignError::NotFound);
        assert_eq!(SavedSignError::NotFound.kind(), RefusalKind::NotFound);
    }
}
