//! Password hashing: argon2id with OWASP's recommended minimum, m = 19 456 KiB (19 MiB), t = 2
//! iterations, p = 1 lane (OWASP Password Storage Cheat Sheet). The PHC string
//! (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`) carries its parameters, so raising them
//! later only affects new hashes and old ones keep verifying.
//!
//! Hashing is deliberately slow and memory-hungry, so it runs on the blocking pool
//! (`spawn_blocking`), never on the async workers, and at most one hash per CPU runs at a time:
//! fifty simultaneous sign-ups queue for a few hundred milliseconds instead of asking for a
//! gigabyte at once.

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier as _, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::{OnceCell, Semaphore};

use crate::auth::token::random_bytes;

/// Memory cost in KiB (19 MiB).
pub const MEMORY_KIB: u32 = 19_456;
/// Iterations.
pub const ITERATIONS: u32 = 2;
/// Parallel lanes.
pub const LANES: u32 = 1;

fn argon2() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, ITERATIONS, LANES, None)
        .expect("OWASP's parameters are within argon2's limits");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes and verifies passwords off the async workers, a bounded number at a time.
#[derive(Debug)]
pub struct Passwords {
    permits: Arc<Semaphore>,
    dummy: OnceCell<String>,
}

impl Default for Passwords {
    fn default() -> Self {
        Self::new()
    }
}

impl Passwords {
    /// One concurrent hash per available CPU.
    pub fn new() -> Self {
        let cpus = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Passwords {
            permits: Arc::new(Semaphore::new(cpus)),
            dummy: OnceCell::new(),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> anyhow::Result<T> {
        let _permit = self.permits.acquire().await?;
        Ok(tokio::task::spawn_blocking(work).await?)
    }

    /// The PHC string of `password` with a fresh random salt.
    ///
    /// # Errors
    ///
    /// When the blocking task fails (a panic) or argon2 refuses (it does not for these
    /// parameters).
    pub async fn hash(&self, password: String) -> anyhow::Result<String> {
        self.run(move || {
            let salt = SaltString::encode_b64(&random_bytes::<16>())
                .map_err(|e| anyhow::anyhow!("salt: {e}"))?;
            argon2()
                .hash_password(password.as_bytes(), &salt)
                .map(|hash| hash.to_string())
                .map_err(|e| anyhow::anyhow!("argon2: {e}"))
        })
        .await?
    }

    /// Whether `password` matches the PHC string `stored`. A malformed `stored` never matches.
    ///
    /// # Errors
    ///
    /// When the blocking task fails.
    pub async fn verify(&self, password: String, stored: String) -> anyhow::Result<bool> {
        self.run(move || {
            PasswordHash::new(&stored).is_ok_and(|parsed| {
                argon2()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
        })
        .await
    }

    /// Verifies `password` against a hash nobody's password matches, for as long as a real
    /// check takes: sign-in runs it for unknown e-mails so the answer's timing does not tell
    /// whether an account exists. Always `false`.
    ///
    /// # Errors
    ///
    /// When the blocking task fails.
    pub async fn verify_nothing(&self, password: String) -> anyhow::Result<bool> {
        let dummy = self
            .dummy
            .get_or_try_init(|| async {
                let unguessable = base64_of(&random_bytes::<32>());
                self.hash(unguessable).await
            })
            .await?
            .clone();
        self.verify(password, dummy).await?;
        Ok(false)
    }
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_is_argon2id_with_owasp_parameters_and_verifies_only_its_password() {
        let passwords = Passwords::new();
        let hash = passwords.hash("correta 1".to_owned()).await.expect("hash");
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(
            passwords
                .verify("correta 1".to_owned(), hash.clone())
                .await
                .unwrap()
        );
        assert!(
            !passwords
                .verify("errada".to_owned(), hash.clone())
                .await
                .unwrap()
        );
        let again = passwords.hash("correta 1".to_owned()).await.unwrap();
        assert_ne!(hash, again, "a fresh salt every time");
    }

    #[tokio::test]
    async fn a_malformed_stored_hash_never_matches_and_the_dummy_check_is_false() {
        let passwords = Passwords::new();
        assert!(
            !passwords
                .verify("x".to_owned(), "não é hash".to_owned())
                .await
                .unwrap()
        );
        assert!(!passwords.verify_nothing("x".to_owned()).await.unwrap());
    }

    #[tokio::test]
    async fn the_check_for_an_unknown_email_does_the_same_work_as_a_real_one() {
        // Same algorithm and parameters as a stored hash, so the same cost: sign-in's timing
        // cannot tell an unknown e-mail from a wrong password (shown by construction, not timed).
        let passwords = Passwords::new();
        passwords.verify_nothing("x".to_owned()).await.unwrap();
        let dummy = passwords.dummy.get().expect("made on first use");
        let real = passwords.hash("x".to_owned()).await.unwrap();
        let parameters = |hash: &str| hash.rsplitn(3, '$').nth(2).map(str::to_owned);
        assert_eq!(parameters(dummy), parameters(&real));
        assert!(
            dummy.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{dummy}"
        );
    }
}
