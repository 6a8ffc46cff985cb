//! What the workspace tests share: people who sign up through the API, a whole team built
//! through invitation e-mails, and small request helpers.
//!
//! Used by the workspace tests and the authorisation matrix.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tests::TestApp;
use tests::browser::{Answer, Browser};
use tests::smtp_sink::{ReceivedMail, query_param};

/// The password every test person uses (it satisfies the default policy).
pub const PASSWORD: &str = "senha-boa-1";

/// How long a test waits for an e-mail.
pub const MAIL_WAIT: Duration = Duration::from_secs(10);

/// A person with an account, signed in on their own browser.
pub struct Person {
    /// Their browser (it holds the access token and the refresh cookie).
    pub browser: Browser,
    /// Their sign-in address.
    pub email: String,
    /// Their account id.
    pub account_id: String,
}

impl Person {
    /// `GET path` as this person.
    pub async fn get(&mut self, path: &str) -> Answer {
        self.browser.get(path).await
    }

    /// `POST path` with a JSON body as this person.
    pub async fn post(&mut self, path: &str, body: &Value) -> Answer {
        self.browser.post_json(path, body).await
    }

    /// `PATCH path` with a JSON body as this person.
    pub async fn patch(&mut self, path: &str, body: &Value) -> Answer {
        self.browser
            .request(
                Method::PATCH,
                path,
                Some("application/json"),
                Some(body.to_string().into_bytes()),
            )
            .await
    }

    /// `PUT path` with a JSON body as this person.
    pub async fn put(&mut self, path: &str, body: &Value) -> Answer {
        self.browser
            .request(
                Method::PUT,
                path,
                Some("application/json"),
                Some(body.to_string().into_bytes()),
            )
            .await
    }

    /// `DELETE path` as this person.
    pub async fn delete(&mut self, path: &str) -> Answer {
        self.browser.delete(path).await
    }

    /// `PUT /api/account/photo` with `bytes` typed `content_type`.
    pub async fn put_photo(&mut self, content_type: &str, bytes: Vec<u8>) -> Answer {
        self.browser
            .request(
                Method::PUT,
                "/api/account/photo",
                Some(content_type),
                Some(bytes),
            )
            .await
    }

    /// `/api/accounts/{account}{rest}`.
    pub fn in_account(account_id: &str, rest: &str) -> String {
        format!("/api/accounts/{account_id}{rest}")
    }
}

/// `person` registers `key` with `holder` in their own account through the API, as the keys
/// screen does; answers the key's id.
///
/// # Panics
///
/// When the registration is refused.
pub async fn register_key_as(person: &mut Person, key: &str, holder: &str) -> String {
    let path = Person::in_account(&person.account_id, "/keys");
    let made = person
        .post(&path, &json!({"pixKey": key, "holderName": holder}))
        .await;
    assert_eq!(made.status, StatusCode::CREATED, "{}", made.text);
    made.json["id"].as_str().expect("the key's id").to_owned()
}

/// Signs `email` up through the API, as `display_name`.
///
/// # Panics
///
/// When the sign-up is refused.
pub async fn sign_up(app: &TestApp, email: &str, display_name: &str) -> Person {
    let mut browser = Browser::new(app);
    let answer = browser.sign_up(email, PASSWORD, display_name).await;
    assert_eq!(answer.status, StatusCode::OK, "sign-up: {}", answer.text);
    let account_id = answer.json["user"]["uid"]
        .as_str()
        .expect("the new account's id")
        .to_owned();
    Person {
        browser,
        email: email.to_owned(),
        account_id,
    }
}

/// The next e-mail to `to` that carries a link containing `path` (other messages, such as the
/// sign-up verification, are skipped).
///
/// # Panics
///
/// When none arrives within [`MAIL_WAIT`].
pub async fn mail_with_link(app: &TestApp, to: &str, path: &str) -> (ReceivedMail, String) {
    loop {
        let mail = app
            .mail
            .wait_for(to, MAIL_WAIT)
            .await
            .unwrap_or_else(|| panic!("no e-mail with {path} reached {to}"));
        if let Some(link) = mail.link(path) {
            return (mail, link);
        }
    }
}

/// `owner` invites `email` as `role`.
pub async fn invite(owner: &mut Person, email: &str, role: &str) -> Answer {
    let path = Person::in_account(&owner.account_id, "/members");
    owner
        .post(&path, &json!({"email": email, "role": role}))
        .await
}

/// The code of the next invitation e-mail to `email`.
pub async fn invitation_code(app: &TestApp, email: &str) -> String {
    let (_, link) = mail_with_link(app, email, "/painel/convite").await;
    query_param(&link, "codigo").expect("the link carries ?codigo=")
}

/// `person` accepts the invitation whose `code` they received.
pub async fn accept(person: &mut Person, code: &str) -> Answer {
    person
        .post("/api/invitations/accept", &json!({ "code": code }))
        .await
}

/// `owner` invites a new person as `role`, who signs up and accepts through the e-mailed
/// link; answers the member and their invitation id.
///
/// # Panics
///
/// When any step is refused.
pub async fn join(
    app: &TestApp,
    owner: &mut Person,
    email: &str,
    name: &str,
    role: &str,
) -> (Person, String) {
    let mut member = sign_up(app, email, name).await;
    let invitation_id = rejoin(app, owner, &mut member, role).await;
    (member, invitation_id)
}

/// `owner` invites `member` (who has an account) as `role`, and `member` accepts through the
/// e-mailed link; answers the invitation id.
///
/// # Panics
///
/// When any step is refused.
pub async fn rejoin(app: &TestApp, owner: &mut Person, member: &mut Person, role: &str) -> String {
    let email = member.email.clone();
    let invited = invite(owner, &email, role).await;
    assert_eq!(
        invited.status,
        StatusCode::CREATED,
        "invite: {}",
        invited.text
    );
    let invitation_id = invited.json["invitationId"]
        .as_str()
        .expect("an invitation id")
        .to_owned();
    let code = invitation_code(app, &email).await;
    let accepted = accept(member, &code).await;
    assert_eq!(accepted.status, StatusCode::OK, "accept: {}", accepted.text);
    assert_eq!(accepted.json["accountId"], owner.account_id.as_str());
    assert_eq!(accepted.json["role"], role);
    invitation_id
}

/// Everyone the authorisation tests need: an owner with a manager, an operator and a removed
/// member in their team, and a stranger with an account of their own.
pub struct Team {
    /// The account's owner.
    pub owner: Person,
    /// An active manager.
    pub manager: Person,
    /// An active operator.
    pub operator: Person,
    /// Someone who was an operator and was removed.
    pub removed: Person,
    /// Someone with no role in the owner's account.
    pub stranger: Person,
}

/// Builds a [`Team`] through the API and the e-mailed links.
///
/// # Panics
///
/// When any step is refused.
pub async fn team(app: &TestApp) -> Team {
    let mut owner = sign_up(app, "dona@padaria.test", "Dona da Padaria").await;
    let (manager, _) = join(
        app,
        &mut owner,
        "gerente@padaria.test",
        "Gerente",
        "manager",
    )
    .await;
    let (operator, _) = join(app, &mut owner, "caixa@padaria.test", "Caixa", "operator").await;
    let (removed, invitation) =
        join(app, &mut owner, "antigo@padaria.test", "Antigo", "operator").await;
    let path = Person::in_account(&owner.account_id, &format!("/members/{invitation}"));
    let gone = owner.delete(&path).await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT, "remove: {}", gone.text);
    let stranger = sign_up(app, "vizinho@outra.test", "Vizinho").await;
    Team {
        owner,
        manager,
        operator,
        removed,
        stranger,
    }
}

/// A QR code's JSON body for the account's form.
pub fn qrcode_body(name: &str) -> Value {
    json!({
        "pixKey": "loja@padaria.test",
        "merchantName": name,
        "merchantCity": "São Paulo",
        "amount": "12,50",
        "description": "Pão de queijo"
    })
}

/// A tiny real PNG (1×1, transparent).
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];

/// The start of a JPEG (JFIF) file: enough for the magic-byte check.
pub const JPEG: &[u8] = &[
    0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, b'J', b'F', b'I', b'F', 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9,
];

/// The start of a WebP file: enough for the magic-byte check.
pub const WEBP: &[u8] =
    b"RIFF\x1a\0\0\0WEBPVP8L\x0d\0\0\0\x2f\0\0\0\x10\x07\x10\x11\x11\x88\x88\xfe\x07\0";
