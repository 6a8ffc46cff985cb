//! Structured logs with tracing: human-readable lines by default, one JSON object per line when
//! `BALCAO_LOG_FORMAT=json`.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Whether log lines carry colour: only on a terminal, and never with `NO_COLOR` set to anything
/// (<https://no-color.org>). A log written to a file or a pipe (`make run | tee`, a service
/// manager's journal) must be plain text, not escape codes.
fn colour(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(std::ffi::OsStr::is_empty)
}

/// Installs the global subscriber; the filter comes from `RUST_LOG` (default `info`).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour(
            std::io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR").as_deref(),
        ))
        .with_target(true);
    let result = match format {
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .try_init(),
        LogFormat::Pretty => builder.try_init(),
    };
    // A second init (tests, embedded use) keeps the first subscriber; that is fine.
    drop(result);
}

/// Why a request failed, carried from an error's `into_response` to [`log_failures`] in the
/// response's extensions: the error knows the cause, the middleware knows the request, and the
/// failure is logged once with both (axum's error-handling pattern). Nothing of it reaches the
/// client.
#[derive(Debug, Clone)]
pub struct FailureCause(pub std::sync::Arc<str>);

impl FailureCause {
    /// The cause of `error`, with its chain (`{:#}`).
    pub fn of(error: &anyhow::Error) -> Self {
        FailureCause(format!("{error:#}").into())
    }
}

/// Middleware for the whole router: one line per failed request, with the method, the matched
/// route (not the raw path, which may carry ids and tokens), the status and the cause when the
/// error left one. A 5xx is an `error`; a 4xx that carries a cause a `warn`; other 4xx are the
/// client's business and are not logged.
pub async fn log_failures(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or_else(|| "(no route)".to_owned(), |path| path.as_str().to_owned());
    let response = next.run(request).await;
    let status = response.status();
    let cause = response
        .extensions()
        .get::<FailureCause>()
        .map(|cause| cause.0.clone());
    match (status.is_server_error(), cause) {
        (true, Some(cause)) => tracing::error!(
            method = %method, route, status = status.as_u16(), error = &*cause, "request failed"
        ),
        (true, None) => tracing::error!(
            method = %method, route, status = status.as_u16(), "request failed"
        ),
        (false, Some(cause)) => tracing::warn!(
            method = %method, route, status = status.as_u16(), error = &*cause, "request refused"
        ),
        (false, None) => {}
    }
    response
}

#[cfg(test)]
mod tests {
    #[test]
    fn logs_are_coloured_only_on_a_terminal_and_never_with_no_color() {
        use std::ffi::OsStr;
        assert!(super::colour(true, None));
        assert!(super::colour(true, Some(OsStr::new(""))));
        assert!(!super::colour(true, Some(OsStr::new("1"))));
        assert!(
            !super::colour(false, None),
            "a file or a pipe gets plain text"
        );
    }
}
