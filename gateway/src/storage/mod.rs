//! Object storage for uploaded files (the sign logos), through the `object_store` crate: a
//! local folder by default, any S3-compatible service by configuration.
//!
//! | `BALCAO_STORAGE_URL` | store |
//! |---|---|
//! | `file://.data/objects` (default) | a folder (relative to the working directory, created when missing) |
//! | `file:///var/lib/balcao/objects` | an absolute folder |
//! | `s3://BUCKET` or `s3://BUCKET/PREFIX` | an S3-compatible bucket; credentials and endpoint from the standard variables `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, `AWS_ENDPOINT` (MinIO, R2, …) and `AWS_ALLOW_HTTP=true` for a plain-HTTP endpoint |
//!
//! Every call goes through [`Storage`], which retries with the product's policy
//! ([`retry::RetryPolicy`]: on 5xx, 408 and 429 only, back-off doubling up to 64 s with jitter,
//! within 2 minutes per operation, 10 for uploads; object_store's own retries are off) and maps
//! every failure to one entry of the storage error catalogue, [`StorageError`], with its
//! pt-BR message and HTTP status.

pub mod logos;
pub mod retry;

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::StatusCode;
use futures::TryStreamExt;
use object_store::path::Path;
use object_store::{ObjectStore, PutPayload};

use retry::{Operation, RetryPolicy, Sleeper, TokioSleeper};

/// Default of `BALCAO_STORAGE_URL`: a folder under the service's data directory.
pub const DEFAULT_STORAGE_URL: &str = "file://.data/objects";

/// The storage error catalogue: every way a storage call can fail, each with the one pt-BR
/// message the user sees and the HTTP status the API answers with (code in kebab-case).
///
/// | variant | code | status | when |
/// |---|---|---|---|
/// | [`NotFound`](Self::NotFound) | `storage-object-not-found` | 404 | the object is not there (404 from the service, a missing file) |
/// | [`QuotaExceeded`](Self::QuotaExceeded) | `storage-quota-exceeded` | 507 | the bucket or disk is full (413 from the service, no space left on the device; a 507 is a 5xx and is retried) |
/// | [`Unauthorized`](Self::Unauthorized) | `storage-unauthorized` | 503 | the service refused our credentials (401, 403): a configuration fault, not the user's |
/// | [`RetryLimitExceeded`](Self::RetryLimitExceeded) | `storage-retry-limit-exceeded` | 503 | 5xx, 408 or 429 kept coming until the operation's time ran out |
/// | [`InvalidChecksum`](Self::InvalidChecksum) | `storage-invalid-checksum` | 502 | the bytes read back do not hash to what was stored (or the service said `BadDigest`) |
/// | [`Cancelled`](Self::Cancelled) | `storage-cancelled` | 499→503 | the operation was cancelled before it finished (the task was stopped, the client went away) |
/// | [`AlreadyExists`](Self::AlreadyExists) | `storage-conflict` | 409 | another write got there first (409, 412) |
/// | [`Rejected`](Self::Rejected) | `storage-rejected` | 502 | any other 4xx from the service: the request was wrong, retrying will not help |
/// | [`Unavailable`](Self::Unavailable) | `storage-unavailable` | 503 | the service could not be reached, or failed in a way not listed above |
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// The object is not there.
    #[error("O arquivo não foi encontrado no armazenamento. Envie-o de novo.")]
    NotFound,
    /// No space left.
    #[error(
        "O armazenamento de arquivos está cheio. Tente de novo mais tarde ou fale com o suporte."
    )]
    QuotaExceeded,
    /// Our credentials were refused.
    #[error(
        "O armazenamento de arquivos recusou o acesso do Balcão. Já fomos avisados; tente de novo mais tarde."
    )]
    Unauthorized,
    /// Retried until the operation's time ran out.
    #[error(
        "O armazenamento de arquivos não respondeu depois de várias tentativas. Tente de novo em alguns minutos."
    )]
    RetryLimitExceeded,
    /// The bytes do not match their checksum.
    #[error("O arquivo chegou corrompido (a soma de verificação não confere). Envie-o de novo.")]
    InvalidChecksum,
    /// Cancelled before it finished.
    #[error("O envio foi cancelado antes de terminar. Tente de novo.")]
    Cancelled,
    /// Another write got there first.
    #[error("Outro envio alterou o mesmo arquivo ao mesmo tempo. Tente de novo.")]
    AlreadyExists,
    /// Any other refusal from the service.
    #[error("O armazenamento de arquivos recusou a operação. Tente de novo ou fale com o suporte.")]
    Rejected,
    /// Unreachable, or failed otherwise.
    #[error(
        "O armazenamento de arquivos está indisponível no momento. Tente de novo em alguns minutos."
    )]
    Unavailable,
}

impl StorageError {
    /// The stable code the API answers with.
    pub fn code(self) -> &'static str {
        match self {
            StorageError::NotFound => "storage-object-not-found",
            StorageError::QuotaExceeded => "storage-quota-exceeded",
            StorageError::Unauthorized => "storage-unauthorized",
            StorageError::RetryLimitExceeded => "storage-retry-limit-exceeded",
            StorageError::InvalidChecksum => "storage-invalid-checksum",
            StorageError::Cancelled => "storage-cancelled",
            StorageError::AlreadyExists => "storage-conflict",
            StorageError::Rejected => "storage-rejected",
            StorageError::Unavailable => "storage-unavailable",
        }
    }

    /// The HTTP status the API answers with.
    pub fn status(self) -> StatusCode {
        match self {
            StorageError::NotFound => StatusCode::NOT_FOUND,
            StorageError::QuotaExceeded => StatusCode::INSUFFICIENT_STORAGE,
            StorageError::AlreadyExists => StatusCode::CONFLICT,
            StorageError::InvalidChecksum | StorageError::Rejected => StatusCode::BAD_GATEWAY,
            StorageError::Unauthorized
            | StorageError::RetryLimitExceeded
            | StorageError::Cancelled
            | StorageError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The catalogue entry of a final HTTP status from the service (retryable ones, see
    /// [`retry::is_retryable`], end as [`StorageError::RetryLimitExceeded`]).
    pub fn from_status(status: u16) -> StorageError {
        match status {
            404 | 410 => StorageError::NotFound,
            401 | 403 => StorageError::Unauthorized,
            409 | 412 => StorageError::AlreadyExists,
            413 => StorageError::QuotaExceeded,
            499 => StorageError::Cancelled,
            400..=499 => StorageError::Rejected,
            _ => StorageError::Unavailable,
        }
    }
}

/// An HTTP status carried by an error, for [`classify`]: the fault-injecting store of the
/// tests raises it, and any adapter that knows the status can too.
#[derive(Debug, thiserror::Error)]
#[error("the storage service answered HTTP {0}")]
pub struct HttpStatus(pub u16);

/// What a failed call was: a status to retry on, or a final catalogue entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The service answered this HTTP status (retried when 5xx, 408 or 429).
    Status(u16),
    /// Final.
    Final(StorageError),
}

/// Sorts an `object_store` error into a [`Failure`].
///
/// object_store keeps its HTTP error type private, so the status of a failed S3 call is read
/// from an [`HttpStatus`] in the error's chain, or else from the text object_store writes for
/// it ("status code: 503"); a missing local file, a full disk and a stopped task are read from
/// their own kinds.
pub fn classify(error: &object_store::Error) -> Failure {
    use object_store::Error as E;
    match error {
        E::NotFound { .. } => return Failure::Final(StorageError::NotFound),
        E::AlreadyExists { .. } | E::Precondition { .. } => {
            return Failure::Final(StorageError::AlreadyExists);
        }
        E::PermissionDenied { .. } | E::Unauthenticated { .. } => {
            return Failure::Final(StorageError::Unauthorized);
        }
        E::JoinError { source } if source.is_cancelled() => {
            return Failure::Final(StorageError::Cancelled);
        }
        _ => {}
    }
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = cause {
        if let Some(HttpStatus(status)) = current.downcast_ref::<HttpStatus>() {
            return Failure::Status(*status);
        }
        if let Some(io) = current.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                    return Failure::Final(StorageError::QuotaExceeded);
                }
                std::io::ErrorKind::NotFound => return Failure::Final(StorageError::NotFound),
                std::io::ErrorKind::PermissionDenied => {
                    return Failure::Final(StorageError::Unauthorized);
                }
                _ => {}
            }
        }
        let text = current.to_string();
        if text.contains("BadDigest") || text.contains("InvalidDigest") {
            return Failure::Final(StorageError::InvalidChecksum);
        }
        if let Some(status) = status_in_text(&text) {
            return Failure::Status(status);
        }
        cause = current.source();
    }
    Failure::Final(StorageError::Unavailable)
}

/// The three digits after "status code: " in object_store's message for a refused request.
fn status_in_text(text: &str) -> Option<u16> {
    let at = text.find("status code: ")? + "status code: ".len();
    text.get(at..at + 3)?.parse().ok()
}

/// An object as read back.
#[derive(Debug, Clone)]
pub struct Object {
    /// Its path in the store.
    pub path: String,
    /// Its bytes.
    pub bytes: Bytes,
}

/// The store with the product's retry policy and error catalogue.
#[derive(Clone)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    policy: RetryPolicy,
    sleeper: Arc<dyn Sleeper>,
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage")
            .field("store", &self.store.to_string())
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl Storage {
    /// `store` with the product's policy, sleeping for real.
    pub fn new(store: Arc<dyn ObjectStore>) -> Self {
        Self::with(
            store,
            RetryPolicy::default(),
            Arc::new(TokioSleeper::default()),
        )
    }

    /// `store` with a policy and a sleeper of the caller's (tests inject a clock that only
    /// records the waits).
    pub fn with(
        store: Arc<dyn ObjectStore>,
        policy: RetryPolicy,
        sleeper: Arc<dyn Sleeper>,
    ) -> Self {
        Self {
            store,
            policy,
            sleeper,
        }
    }

    /// The store `url` names (see the module table).
    ///
    /// # Errors
    ///
    /// An unknown scheme, or an S3 configuration object_store refuses.
    pub fn from_url(url: &str) -> anyhow::Result<Self> {
        let store: Arc<dyn ObjectStore> = if let Some(folder) = url.strip_prefix("file://") {
            std::fs::create_dir_all(folder)
                .map_err(|e| anyhow::anyhow!("cannot create the storage folder {folder}: {e}"))?;
            Arc::new(object_store::local::LocalFileSystem::new_with_prefix(
                folder,
            )?)
        } else if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            let s3 = object_store::aws::AmazonS3Builder::from_env()
                .with_bucket_name(bucket)
                .with_retry(object_store::RetryConfig {
                    max_retries: 0,
                    ..object_store::RetryConfig::default()
                })
                .build()?;
            if prefix.trim_matches('/').is_empty() {
                Arc::new(s3)
            } else {
                Arc::new(object_store::prefix::PrefixStore::new(
                    s3,
                    prefix.trim_matches('/'),
                ))
            }
        } else {
            anyhow::bail!("BALCAO_STORAGE_URL must start with file:// or s3://, not {url}");
        };
        Ok(Self::new(store))
    }

    /// Stores `bytes` at `path` (an upload: 10 minutes of retries).
    ///
    /// # Errors
    ///
    /// The catalogue entry.
    pub async fn put(&self, path: &str, bytes: Bytes) -> Result<(), StorageError> {
        let location = Path::from(path);
        self.run(Operation::Upload, || {
            let payload = PutPayload::from_bytes(bytes.clone());
            let location = location.clone();
            async move { self.store.put(&location, payload).await.map(|_| ()) }
        })
        .await
    }

    /// Reads the object at `path`.
    ///
    /// # Errors
    ///
    /// The catalogue entry ([`StorageError::NotFound`] when it is not there).
    pub async fn get(&self, path: &str) -> Result<Object, StorageError> {
        let location = Path::from(path);
        let bytes = self
            .run(Operation::Other, || {
                let location = location.clone();
                async move { self.store.get(&location).await?.bytes().await }
            })
            .await?;
        Ok(Object {
            path: path.to_owned(),
            bytes,
        })
    }

    /// The paths under `prefix`, newest first.
    ///
    /// # Errors
    ///
    /// The catalogue entry.
    pub async fn list(&self, prefix: &str) -> Result<Vec<String>, StorageError> {
        let location = Path::from(prefix);
        let mut found = self
            .run(Operation::Other, || {
                let location = location.clone();
                async move {
                    self.store
                        .list(Some(&location))
                        .try_collect::<Vec<_>>()
                        .await
                }
            })
            .await?;
        found.sort_by_key(|meta| std::cmp::Reverse(meta.last_modified));
        Ok(found
            .into_iter()
            .map(|meta| meta.location.to_string())
            .collect())
    }

    /// Deletes the object at `path` (a missing one is not an error).
    ///
    /// # Errors
    ///
    /// The catalogue entry.
    pub async fn delete(&self, path: &str) -> Result<(), StorageError> {
        let location = Path::from(path);
        match self
            .run(Operation::Other, || {
                let location = location.clone();
                async move { self.store.delete(&location).await }
            })
            .await
        {
            Ok(()) | Err(StorageError::NotFound) => Ok(()),
            Err(error) => Err(error),
        }
    }

    async fn run<T, F, Fut>(&self, operation: Operation, attempt: F) -> Result<T, StorageError>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = object_store::Result<T>>,
    {
        retry::run(&self.policy, self.sleeper.as_ref(), operation, attempt).await
    }
}

/// How long a whole operation may take with its retries.
pub fn budget(policy: &RetryPolicy, operation: Operation) -> Duration {
    match operation {
        Operation::Upload => policy.upload_budget,
        Operation::Other => policy.budget,
    }
}

#[cfg(test)]
mod tests;
