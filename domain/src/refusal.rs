//! What every aggregate's "no" has in common, so the edges map refusals to HTTP in one place.
//!
//! Each aggregate's error type implements [`Refusal`]: a stable code for programs, a
//! [`RefusalKind`] that decides the status, the pt-BR message its `Display` writes, and, when one
//! field of the request is at fault, that field's name. The gateway turns any
//! `CommandError<E: Refusal>` into its JSON error and its HTML error page with one `From` each;
//! no handler maps refusals by hand.
//!
//! | kind | HTTP status | meaning |
//! |---|---|---|
//! | [`RefusalKind::NotFound`] | 404 | the thing is not there, or the caller may not know it is |
//! | [`RefusalKind::Forbidden`] | 403 | it is there, and this person may not do this to it |
//! | [`RefusalKind::Conflict`] | 409 | it clashes with what exists (a duplicate, a state already reached) |
//! | [`RefusalKind::Gone`] | 410 | it existed and is no longer usable (expired, revoked, archived) |
//! | [`RefusalKind::Invalid`] | 422 | a value the person typed breaks a rule; [`Refusal::field`] names it |
//! | [`RefusalKind::PlanLimit`] | 402 | the account's plan does not allow it; the message names the limit and offers the upgrade |
//!
//! A refusal that found several problems at once (every field of a QR code the Pix rules
//! reject) lists them in [`Refusal::problems`], each a [`FieldProblem`], so a form can show
//! every one under its field in one round trip; the first is the one the message and field name.

/// The kind of a refusal, which alone decides its HTTP status (see the module table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusalKind {
    /// 404: not there, or not the caller's to know about.
    NotFound,
    /// 403: there, but not for this person.
    Forbidden,
    /// 409: clashes with what exists.
    Conflict,
    /// 410: existed, and can no longer be used.
    Gone,
    /// 422: a typed value breaks a rule.
    Invalid,
    /// 402: the plan does not allow it.
    PlanLimit,
}

impl RefusalKind {
    /// The HTTP status of this kind (the module table).
    pub fn http_status(self) -> u16 {
        match self {
            RefusalKind::NotFound => 404,
            RefusalKind::Forbidden => 403,
            RefusalKind::Conflict => 409,
            RefusalKind::Gone => 410,
            RefusalKind::Invalid => 422,
            RefusalKind::PlanLimit => 402,
        }
    }
}

/// A refused command, as every aggregate error reads to the edges. `Display` is the pt-BR message
/// for the person.
pub trait Refusal: std::error::Error {
    /// A stable, kebab-case code for programs (the API's `error.code`).
    fn code(&self) -> &'static str;
    /// What kind of "no" this is; decides the HTTP status.
    fn kind(&self) -> RefusalKind;
    /// The request field at fault, when there is one (the API's `error.field`).
    fn field(&self) -> Option<&'static str> {
        None
    }
    /// Every field problem, when the refusal found several at once (the API's `error.problems`);
    /// empty when [`Refusal::field`] and the message say it all.
    fn problems(&self) -> Vec<FieldProblem> {
        Vec::new()
    }
}

/// One problem with one request field: the API's `error.problems` entries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FieldProblem {
    /// The request field, as the API spells it (`pixKey`, `merchantName`, `amount`…).
    pub field: &'static str,
    /// The line of a batch it is about (1-based), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// pt-BR, for the person.
    pub message: String,
}

impl FieldProblem {
    /// A problem with `field`, on no particular line.
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        FieldProblem {
            field,
            line: None,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_the_status_the_table_documents() {
        let table = [
            (RefusalKind::NotFound, 404),
            (RefusalKind::Forbidden, 403),
            (RefusalKind::Conflict, 409),
            (RefusalKind::Gone, 410),
            (RefusalKind::Invalid, 422),
            (RefusalKind::PlanLimit, 402),
        ];
        for (kind, status) in table {
            assert_eq!(kind.http_status(), status, "{kind:?}");
        }
    }
}
