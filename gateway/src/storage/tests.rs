//! The storage policy against a fault-injecting store: an in-memory `ObjectStore` wrapped so
//! each call first takes the next scripted fault (an HTTP status, a missing object, a full
//! disk, refused credentials, a cancelled task), and a clock that records every wait instead
//! of sleeping.

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use axum::body::Bytes;
use futures::stream::BoxStream;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{
    GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult,
};

use super::retry::{Operation, RetryPolicy, Sleeper, is_retryable};
use super::{HttpStatus, Storage, StorageError};

/// A fault the wrapper raises instead of calling the inner store.
#[derive(Debug, Clone, Copy)]
enum Fault {
    Status(u16),
    NotFound,
    DiskFull,
    Unauthenticated,
    Cancelled,
}

impl Fault {
    fn error(self, path: &Path) -> object_store::Error {
        match self {
            Fault::Status(status) => object_store::Error::Generic {
                store: "faulty",
                source: Box::new(HttpStatus(status)),
            },
            Fault::NotFound => object_store::Error::NotFound {
                path: path.to_string(),
                source: "scripted".into(),
            },
            Fault::DiskFull => object_store::Error::Generic {
                store: "faulty",
                source: Box::new(std::io::Error::from(std::io::ErrorKind::StorageFull)),
            },
            Fault::Unauthenticated => object_store::Error::Unauthenticated {
                path: path.to_string(),
                source: "scripted".into(),
            },
            Fault::Cancelled => {
                // A task's JoinError can only be had from a runtime: a throwaway one, on a
                // thread of its own (the test's runtime may not block).
                let source = std::thread::spawn(|| {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .build()
                        .expect("runtime");
                    let handle = runtime.spawn(std::future::pending::<()>());
                    handle.abort();
                    runtime.block_on(handle).expect_err("aborted")
                })
                .join()
                .expect("thread");
                object_store::Error::JoinError { source }
            }
        }
    }
}

/// An `ObjectStore` that fails as scripted, then behaves like the in-memory store.
#[derive(Debug, Default)]
struct FaultyStore {
    inner: InMemory,
    faults: Mutex<VecDeque<Fault>>,
    calls: Mutex<u32>,
}

impl FaultyStore {
    fn failing(faults: impl IntoIterator<Item = Fault>) -> Arc<Self> {
        Arc::new(Self {
            faults: Mutex::new(faults.into_iter().collect()),
            ..Self::default()
        })
    }

    fn calls(&self) -> u32 {
        *self.calls.lock().expect("lock")
    }

    fn next_fault(&self, path: &Path) -> object_store::Result<()> {
        *self.calls.lock().expect("lock") += 1;
        match self.faults.lock().expect("lock").pop_front() {
            Some(fault) => Err(fault.error(path)),
            None => Ok(()),
        }
    }
}

impl fmt::Display for FaultyStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FaultyStore")
    }
}

#[async_trait]
impl ObjectStore for FaultyStore {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        self.next_fault(location)?;
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.next_fault(location)?;
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        self.next_fault(location)?;
        self.inner.get_opts(location, options).await
    }

    async fn delete(&self, location: &Path) -> object_store::Result<()> {
        self.next_fault(location)?;
        self.inner.delete(location).await
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy(&self, from: &Path, to: &Path) -> object_store::Result<()> {
        self.inner.copy(from, to).await
    }

    async fn copy_if_not_exists(&self, from: &Path, to: &Path) -> object_store::Result<()> {
        self.inner.copy_if_not_exists(from, to).await
    }
}

/// A clock that never sleeps: each wait moves it forward and is recorded; jitter is fixed.
#[derive(Debug, Default)]
struct FakeClock {
    now: Mutex<Duration>,
    waits: Mutex<Vec<Duration>>,
    jitter: Duration,
}

impl FakeClock {
    fn with_jitter(jitter: Duration) -> Arc<Self> {
        Arc::new(Self {
            jitter,
            ..Self::default()
        })
    }

    fn waits(&self) -> Vec<Duration> {
        self.waits.lock().expect("lock").clone()
    }
}

impl Sleeper for FakeClock {
    fn elapsed(&self) -> Duration {
        *self.now.lock().expect("lock")
    }

    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        *self.now.lock().expect("lock") += duration;
        self.waits.lock().expect("lock").push(duration);
        Box::pin(std::future::ready(()))
    }

    fn jitter(&self, max: Duration) -> Duration {
        self.jitter.min(max)
    }
}

fn storage(store: &Arc<FaultyStore>, clock: &Arc<FakeClock>) -> Storage {
    Storage::with(store.clone(), RetryPolicy::default(), clock.clone())
}

fn secs(values: &[u64]) -> Vec<Duration> {
    values.iter().map(|s| Duration::from_secs(*s)).collect()
}

#[tokio::test]
async fn a_server_error_then_success_is_retried_after_one_second() {
    let store = FaultyStore::failing([Fault::Status(503)]);
    let clock = FakeClock::with_jitter(Duration::ZERO);
    let storage = storage(&store, &clock);
    storage
        .put("logos/a/1.png", Bytes::from_static(b"png"))
        .await
        .expect("stored on the second try");
    assert_eq!(store.calls(), 2);
    assert_eq!(clock.waits(), secs(&[1]));
    let read = storage.get("logos/a/1.png").await.expect("read");
    assert_eq!(&read.bytes[..], b"png");
}

#[tokio::test]
async fn timeouts_and_throttling_are_retried_like_server_errors() {
    for status in [408, 429, 500, 502, 504] {
        let store = FaultyStore::failing([Fault::Status(status), Fault::Status(status)]);
        let clock = FakeClock::with_jitter(Duration::ZERO);
        storage(&store, &clock)
            .put("x", Bytes::from_static(b"1"))
            .await
            .unwrap_or_else(|e| panic!("{status}: {e}"));
        assert_eq!(store.calls(), 3, "{status}");
        assert_eq!(clock.waits(), secs(&[1, 2]), "{status}");
    }
}

#[tokio::test]
async fn client_errors_are_not_retried_and_each_maps_to_its_catalogue_entry() {
    for (status, expected) in [
        (400, StorageError::Rejected),
        (401, StorageError::Unauthorized),
        (403, StorageError::Unauthorized),
        (404, StorageError::NotFound),
        (409, StorageError::AlreadyExists),
        (412, StorageError::AlreadyExists),
        (413, StorageError::QuotaExceeded),
        (499, StorageError::Cancelled),
        (507, StorageError::RetryLimitExceeded),
    ] {
        let faults = std::iter::repeat_n(Fault::Status(status), 50);
        let store = FaultyStore::failing(faults);
        let clock = FakeClock::with_jitter(Duration::ZERO);
        let error = storage(&store, &clock).get("x").await.expect_err("refused");
        assert_eq!(error, expected, "{status}");
        if is_retryable(status) {
            assert!(store.calls() > 1, "{status} is retried");
        } else {
            assert_eq!(store.calls(), 1, "{status} is tried once");
            assert!(clock.waits().is_empty(), "{status}: no wait");
        }
    }
}

#[tokio::test]
async fn the_back_off_doubles_up_to_64_seconds_with_jitter_within_two_minutes() {
    let store = FaultyStore::failing(std::iter::repeat_n(Fault::Status(503), 100));
    let clock = FakeClock::with_jitter(Duration::from_millis(250));
    let error = storage(&store, &clock)
        .get("logos/a/1.png")
        .await
        .expect_err("gives up");
    assert_eq!(error, StorageError::RetryLimitExceeded);
    let jitter = Duration::from_millis(250);
    // 1.25 + 2.25 + 4.25 + 8.25 + 16.25 + 32.25 = 64.5 s; the next 64.25 s would pass 120 s.
    let expected: Vec<Duration> = secs(&[1, 2, 4, 8, 16, 32])
        .into_iter()
        .map(|wait| wait + jitter)
        .collect();
    assert_eq!(clock.waits(), expected);
    assert_eq!(store.calls(), 7);
    let total: Duration = clock.waits().iter().sum();
    assert!(total <= Duration::from_secs(120));
}

#[tokio::test]
async fn an_upload_keeps_retrying_for_ten_minutes_at_64_seconds_a_wait() {
    let store = FaultyStore::failing(std::iter::repeat_n(Fault::Status(500), 100));
    let clock = FakeClock::with_jitter(Duration::ZERO);
    let error = storage(&store, &clock)
        .put("logos/a/1.png", Bytes::from_static(b"png"))
        .await
        .expect_err("gives up");
    assert_eq!(error, StorageError::RetryLimitExceeded);
    // 1+2+4+8+16+32 = 63 s, then 64 s waits while they fit in 600 s: 8 more (575 s).
    let mut expected = secs(&[1, 2, 4, 8, 16, 32]);
    expected.extend(std::iter::repeat_n(Duration::from_secs(64), 8));
    assert_eq!(clock.waits(), expected);
    let total: Duration = clock.waits().iter().sum();
    assert!(total <= Duration::from_secs(600));
    assert_eq!(
        super::budget(&RetryPolicy::default(), Operation::Upload),
        Duration::from_secs(600)
    );
}

#[tokio::test]
async fn local_failures_map_to_their_catalogue_entries_without_retrying() {
    for (fault, expected) in [
        (Fault::NotFound, StorageError::NotFound),
        (Fault::DiskFull, StorageError::QuotaExceeded),
        (Fault::Unauthenticated, StorageError::Unauthorized),
        (Fault::Cancelled, StorageError::Cancelled),
    ] {
        let store = FaultyStore::failing([fault]);
        let clock = FakeClock::with_jitter(Duration::ZERO);
        let error = storage(&store, &clock)
            .put("x", Bytes::from_static(b"1"))
            .await
            .expect_err("refused");
        assert_eq!(error, expected, "{fault:?}");
        assert_eq!(store.calls(), 1, "{fault:?}");
    }
}

#[test]
fn every_catalogue_entry_has_a_portuguese_message_a_code_and_a_status() {
    use axum::http::StatusCode;
    for (error, status, words) in [
        (
            StorageError::NotFound,
            StatusCode::NOT_FOUND,
            "não foi encontrado",
        ),
        (
            StorageError::QuotaExceeded,
            StatusCode::INSUFFICIENT_STORAGE,
            "está cheio",
        ),
        (
            StorageError::Unauthorized,
            StatusCode::SERVICE_UNAVAILABLE,
            "recusou o acesso",
        ),
        (
            StorageError::RetryLimitExceeded,
            StatusCode::SERVICE_UNAVAILABLE,
            "várias tentativas",
        ),
        (
            StorageError::InvalidChecksum,
            StatusCode::BAD_GATEWAY,
            "soma de verificação",
        ),
        (
            StorageError::Cancelled,
            StatusCode::SERVICE_UNAVAILABLE,
            "cancelado",
        ),
        (
            StorageError::AlreadyExists,
            StatusCode::CONFLICT,
            "ao mesmo tempo",
        ),
        (
            StorageError::Rejected,
            StatusCode::BAD_GATEWAY,
            "recusou a operação",
        ),
        (
            StorageError::Unavailable,
            StatusCode::SERVICE_UNAVAILABLE,
            "indisponível",
        ),
    ] {
        assert_eq!(error.status(), status, "{error:?}");
        assert!(error.to_string().contains(words), "{error:?}: {error}");
        assert!(error.code().starts_with("storage-"), "{error:?}");
    }
}

#[test]
fn the_status_of_an_s3_refusal_is_read_from_object_stores_message() {
    assert_eq!(
        super::status_in_text(
            "Error performing PUT http://minio/x in 3ms - Server returned non-2xx status code: 503 Service Unavailable: "
        ),
        Some(503)
    );
    assert_eq!(super::status_in_text("connection refused"), None);
}
