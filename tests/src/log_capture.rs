//! Every log line the app writes, captured per test thread: what the "no secret in any log line"
//! test reads. One process-wide subscriber, installed before the first [`crate::TestApp`] starts
//! (so no call site of the app is ever judged uninteresting before it exists), enabled only on a
//! thread that asked to capture: everywhere else every log call is a thread-local lookup.
//!
//! A `#[tokio::test]` runs on one thread (the current-thread runtime), the app it starts too, so
//! the lines of "its" app are the lines written on its thread.

use std::cell::RefCell;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use tracing_subscriber::Layer;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

thread_local! {
    /// Where this thread's log lines go while a test captures them.
    static CAPTURE: RefCell<Option<Arc<Mutex<Vec<u8>>>>> = const { RefCell::new(None) };
}

/// Writes a log line into the capture of the thread that logs it.
struct ThreadCapture;

impl Write for ThreadCapture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURE.with(|capture| {
            if let Some(buffer) = capture.borrow().as_ref() {
                buffer
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .extend_from_slice(bytes);
            }
        });
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Installs the capturing subscriber once per process (a no-op when another global subscriber
/// came first: then nothing is captured, and [`LogCapture::text`] says so by being empty).
pub fn install() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // Dynamic: a plain `filter_fn` would cache a call site's first answer (no capture on
        // the thread that reached it first) for every thread.
        let capturing = tracing_subscriber::filter::dynamic_filter_fn(|_, _| {
            CAPTURE.with(|capture| capture.borrow().is_some())
        });
        let layer = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(|| ThreadCapture)
            .with_filter(capturing);
        let _ = tracing_subscriber::registry().with(layer).try_init();
    });
}

/// The lines captured on one thread since [`LogCapture::start`].
pub struct LogCapture(Arc<Mutex<Vec<u8>>>);

impl LogCapture {
    /// Captures every line, at every level, written on this thread from now on.
    pub fn start() -> LogCapture {
        install();
        let buffer = Arc::new(Mutex::new(Vec::new()));
        CAPTURE.with(|capture| *capture.borrow_mut() = Some(buffer.clone()));
        LogCapture(buffer)
    }

    /// What was captured so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(
            &self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
        .into_owned()
    }
}

impl Drop for LogCapture {
    fn drop(&mut self) {
        CAPTURE.with(|capture| *capture.borrow_mut() = None);
    }
}
