//! A real SMTP server for tests: [`SmtpSink`] listens on `127.0.0.1:0`, speaks enough SMTP for
//! lettre (greeting, `EHLO`/`HELO`, `MAIL FROM`, `RCPT TO`, `DATA` with dot-unstuffing, `RSET`,
//! `NOOP`, `QUIT`) and keeps every message it receives, decoded: the subject (RFC 2047) and the
//! plain-text and HTML bodies (quoted-printable or base64, as lettre writes them).
//!
//! The gateway sends through its normal SMTP transport (`BALCAO_MAIL_URL=smtp://127.0.0.1:PORT`),
//! so a test sees exactly what a mail server would.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// One message as the sink received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedMail {
    /// The envelope sender (`MAIL FROM`).
    pub from: String,
    /// The envelope recipients (`RCPT TO`).
    pub to: Vec<String>,
    /// The message as sent after `DATA`, dot-unstuffed, CRLF line ends.
    pub raw: String,
    /// The `From:` header, decoded.
    pub from_header: String,
    /// The `Subject:` header, decoded.
    pub subject: String,
    /// The `text/plain` body, decoded.
    pub text: String,
    /// The `text/html` body, decoded, when there is one.
    pub html: Option<String>,
}

impl ReceivedMail {
    /// The first link in the plain-text body whose URL contains `path`.
    pub fn link(&self, path: &str) -> Option<String> {
        first_link(&self.text, path)
    }
}

/// The first `http(s)://…` URL in `text` that contains `path`.
pub fn first_link(text: &str, path: &str) -> Option<String> {
    text.split(|c: char| c.is_whitespace() || c == '<' || c == '>' || c == '"')
        .filter(|word| word.starts_with("http://") || word.starts_with("https://"))
        .find(|url| url.contains(path))
        .map(ToOwned::to_owned)
}

/// The value of query parameter `name` in `url`, percent-decoded.
pub fn query_param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| percent_decode(value))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = text
                .get(i + 1..i + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[derive(Default)]
struct Shared {
    messages: Mutex<Vec<ReceivedMail>>,
    /// How many messages each `wait_for` caller has already taken, per recipient.
    taken: Mutex<std::collections::HashMap<String, usize>>,
    arrived: Notify,
}

/// A running SMTP sink; dropped, it stops listening.
pub struct SmtpSink {
    address: SocketAddr,
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl SmtpSink {
    /// Starts listening on a free local port.
    ///
    /// # Panics
    ///
    /// When no local port can be bound.
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free local port");
        let address = listener.local_addr().expect("bound");
        let shared = Arc::new(Shared::default());
        let accepting = Arc::clone(&shared);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let shared = Arc::clone(&accepting);
                tokio::spawn(async move {
                    let _ = converse(stream, &shared).await;
                });
            }
        });
        SmtpSink {
            address,
            shared,
            task,
        }
    }

    /// `smtp://127.0.0.1:PORT`, for `BALCAO_MAIL_URL`.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.address)
    }

    /// Every message received so far, in order.
    pub fn messages(&self) -> Vec<ReceivedMail> {
        self.shared
            .messages
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Every message received so far for `to`, in order.
    pub fn messages_to(&self, to: &str) -> Vec<ReceivedMail> {
        self.messages()
            .into_iter()
            .filter(|m| m.to.iter().any(|r| r.eq_ignore_ascii_case(to)))
            .collect()
    }

    /// The next message for `to` that no earlier `wait_for(to, …)` returned, waiting up to
    /// `timeout` for it; `None` if none came.
    pub async fn wait_for(&self, to: &str, timeout: Duration) -> Option<ReceivedMail> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.shared.arrived.notified();
            {
                let mut taken = self.shared.taken.lock().unwrap_or_else(|p| p.into_inner());
                let seen = taken.entry(to.to_ascii_lowercase()).or_insert(0);
                if let Some(message) = self.messages_to(to).into_iter().nth(*seen) {
                    *seen += 1;
                    return Some(message);
                }
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return None;
            }
        }
    }
}

async fn reply(stream: &mut (impl AsyncWriteExt + Unpin), line: &str) -> std::io::Result<()> {
    stream.write_all(line.as_bytes()).await?;
    stream.write_all(b"\r\n").await?;
    stream.flush().await
}

/// One SMTP conversation.
async fn converse(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    reply(&mut write, "220 balcao-sink ESMTP pronto").await?;
    let mut from = String::new();
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let command = line.trim_end_matches(['\r', '\n']);
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" => {
                reply(&mut write, "250-balcao-sink").await?;
                reply(&mut write, "250-8BITMIME").await?;
                reply(&mut write, "250-SMTPUTF8").await?;
                reply(&mut write, "250 PIPELINING").await?;
            }
            "HELO" => reply(&mut write, "250 balcao-sink").await?,
            "MAIL" => {
                from = angle_address(command);
                to.clear();
                reply(&mut write, "250 OK").await?;
            }
            "RCPT" => {
                to.push(angle_address(command));
                reply(&mut write, "250 OK").await?;
            }
            "DATA" => {
                reply(&mut write, "354 Termine com <CRLF>.<CRLF>").await?;
                let mut raw = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line).await? == 0 {
                        return Ok(());
                    }
                    let content = line.trim_end_matches(['\r', '\n']);
                    if content == "." {
                        break;
                    }
                    // Dot-unstuffing (RFC 5321 §4.5.2).
                    let content = content.strip_prefix('.').unwrap_or(content);
                    raw.push_str(content);
                    raw.push_str("\r\n");
                }
                let message = decode(std::mem::take(&mut from), std::mem::take(&mut to), raw);
                shared
                    .messages
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(message);
                shared.arrived.notify_waiters();
                reply(&mut write, "250 OK: recebida").await?;
            }
            "RSET" => {
                from.clear();
                to.clear();
                reply(&mut write, "250 OK").await?;
            }
            "NOOP" => reply(&mut write, "250 OK").await?,
            "QUIT" => {
                reply(&mut write, "221 até logo").await?;
                return Ok(());
            }
            _ => reply(&mut write, "502 comando não implementado").await?,
        }
    }
}

/// The address between `<` and `>` in `MAIL FROM:<a@b> SIZE=…`.
fn angle_address(command: &str) -> String {
    command
        .split_once('<')
        .and_then(|(_, rest)| rest.split_once('>'))
        .map(|(address, _)| address.to_owned())
        .unwrap_or_default()
}

/// Headers (unfolded, names lower-cased) and the body of one MIME entity.
fn split_entity(raw: &str) -> (Vec<(String, String)>, &str) {
    let (head, body) = raw
        .split_once("\r\n\r\n")
        .or_else(|| raw.split_once("\n\n"))
        .unwrap_or((raw, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = headers.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    (headers, body)
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// A parameter of a structured header (`boundary="x"` in `Content-Type`).
fn parameter(value: &str, name: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|part| {
        let (key, value) = part.trim().split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case(name)
            .then(|| value.trim().trim_matches('"').to_owned())
    })
}

fn decode(from: String, to: Vec<String>, raw: String) -> ReceivedMail {
    let (headers, _) = split_entity(&raw);
    let subject = decode_words(header(&headers, "subject").unwrap_or_default());
    let from_header = decode_words(header(&headers, "from").unwrap_or_default());
    let mut text = String::new();
    let mut html = None;
    collect_bodies(&raw, &mut text, &mut html);
    ReceivedMail {
        from,
        to,
        raw,
        from_header,
        subject,
        text,
        html,
    }
}

/// Walks the MIME tree, keeping the first `text/plain` and `text/html` bodies.
fn collect_bodies(entity: &str, text: &mut String, html: &mut Option<String>) {
    let (headers, body) = split_entity(entity);
    let content_type = header(&headers, "content-type").unwrap_or("text/plain");
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if essence.starts_with("multipart/") {
        let Some(boundary) = parameter(content_type, "boundary") else {
            return;
        };
        let delimiter = format!("--{boundary}");
        for part in body.split(&delimiter).skip(1) {
            if part.starts_with("--") {
                break;
            }
            let part = part.trim_start_matches(['\r', '\n']);
            collect_bodies(part, text, html);
        }
        return;
    }
    let encoding = header(&headers, "content-transfer-encoding")
        .unwrap_or("7bit")
        .to_ascii_lowercase();
    let decoded = match encoding.as_str() {
        "base64" => {
            let compact: String = body.chars().filter(|c| !c.is_whitespace()).collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(compact)
                .unwrap_or_default();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        "quoted-printable" => quoted_printable(body),
        _ => body.to_owned(),
    };
    let decoded = decoded.replace("\r\n", "\n");
    if essence == "text/plain" && text.is_empty() {
        *text = decoded;
    } else if essence == "text/html" && html.is_none() {
        *html = Some(decoded);
    }
}

/// Decodes a quoted-printable body (RFC 2045 §6.7): `=XX` bytes and `=` soft line breaks.
pub fn quoted_printable(body: &str) -> String {
    let mut out = Vec::with_capacity(body.len());
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' {
            if bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n') {
                i += 3;
                continue;
            }
            if bytes.get(i + 1) == Some(&b'\n') {
                i += 2;
                continue;
            }
            if let Some(byte) = body
                .get(i + 1..i + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Decodes RFC 2047 encoded words (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`) in a header value;
/// whitespace between adjacent encoded words is dropped, as the RFC says.
pub fn decode_words(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    let mut previous_was_word = false;
    while let Some(start) = rest.find("=?") {
        let before = &rest[..start];
        let after = &rest[start + 2..];
        let parsed = (|| {
            let (_charset, after) = after.split_once('?')?;
            let (encoding, after) = after.split_once('?')?;
            let (text, after) = after.split_once("?=")?;
            let bytes = match encoding.to_ascii_lowercase().as_str() {
                "b" => base64::engine::general_purpose::STANDARD
                    .decode(text)
                    .ok()?,
                "q" => quoted_printable(&text.replace('_', " ")).into_bytes(),
                _ => return None,
            };
            Some((String::from_utf8_lossy(&bytes).into_owned(), after))
        })();
        match parsed {
            Some((word, after)) => {
                if !(previous_was_word && before.trim().is_empty()) {
                    out.push_str(before);
                }
                out.push_str(&word);
                rest = after;
                previous_was_word = true;
            }
            None => {
                out.push_str(&rest[..start + 2]);
                rest = &rest[start + 2..];
                previous_was_word = false;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_words_and_quoted_printable_decode_to_portuguese() {
        assert_eq!(
            decode_words("=?utf-8?b?Q29uZmlybWUgc2V1IGUtbWFpbCBubyBCYWxjw6Nv?="),
            "Confirme seu e-mail no Balcão"
        );
        assert_eq!(
            decode_words("=?utf-8?q?Balc=C3=A3o?= <nao-responda@balcao.app>"),
            "Balcão <nao-responda@balcao.app>"
        );
        assert_eq!(
            quoted_printable("Ol=C3=A1, mun=\r\ndo =3D 1"),
            "Olá, mundo = 1"
        );
    }

    #[test]
    fn links_and_their_parameters_are_found() {
        let text = "Abra:\n\nhttp://x.test/verificar-email?oobCode=a%2Bb_c\n\nEquipe";
        let link = first_link(text, "/verificar-email").expect("a link");
        assert_eq!(link, "http://x.test/verificar-email?oobCode=a%2Bb_c");
        assert_eq!(query_param(&link, "oobCode").as_deref(), Some("a+b_c"));
        assert_eq!(first_link(text, "/redefinir-senha"), None);
    }
}
