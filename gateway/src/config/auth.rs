//! Sign-in: the token key, the cookie, the password policy and the rate limits.

use clap::Args;

/// Default of `BALCAO_PASSWORD_MIN_LENGTH`.
pub const DEFAULT_PASSWORD_MIN_LENGTH: usize = 6;
/// Default of `BALCAO_AUTH_PER_MINUTE_PER_ADDRESS`.
pub const DEFAULT_AUTH_PER_MINUTE_PER_ADDRESS: u32 = 20;
/// Default of `BALCAO_AUTH_PER_MINUTE_PER_EMAIL`.
pub const DEFAULT_AUTH_PER_MINUTE_PER_EMAIL: u32 = 5;
/// Default of `BALCAO_SIGN_UP_PER_MINUTE_PER_ADDRESS`.
pub const DEFAULT_SIGN_UP_PER_MINUTE_PER_ADDRESS: u32 = 5;
/// Default of `BALCAO_INVITATIONS_PER_MINUTE_PER_ACCOUNT`.
pub const DEFAULT_INVITATIONS_PER_MINUTE_PER_ACCOUNT: u32 = 10;
/// Default of `BALCAO_REFRESH_REUSE_INTERVAL_SECS`.
pub const DEFAULT_REFRESH_REUSE_INTERVAL_SECS: u64 = 10;

/// Sign-in: token key, cookie, password policy and rate limits.
#[derive(Clone, Args)]
pub struct AuthSettings {
    /// Access-token signing key (at least 32 bytes); unset: generated once into the database.
    #[arg(
        long,
        env = "BALCAO_TOKEN_SECRET",
        hide_env_values = true,
        global = true
    )]
    pub token_secret: Option<String>,
    /// Mark the refresh cookie `Secure`.
    #[arg(
        long,
        env = "BALCAO_COOKIE_SECURE",
        default_value_t = true,
        action = clap::ArgAction::Set,
        global = true
    )]
    pub cookie_secure: bool,
    /// Shortest password, in characters.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_MIN_LENGTH",
        default_value_t = DEFAULT_PASSWORD_MIN_LENGTH,
        global = true
    )]
    pub password_min_length: usize,
    /// Passwords need a lower-case letter.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_REQUIRE_LOWERCASE",
        default_value_t = false,
        global = true
    )]
    pub password_require_lowercase: bool,
    /// Passwords need an upper-case letter.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_REQUIRE_UPPERCASE",
        default_value_t = false,
        global = true
    )]
    pub password_require_uppercase: bool,
    /// Passwords need a number.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_REQUIRE_NUMERIC",
        default_value_t = false,
        global = true
    )]
    pub password_require_numeric: bool,
    /// Passwords need a symbol or a space.
    #[arg(
        long,
        env = "BALCAO_PASSWORD_REQUIRE_NON_ALPHANUMERIC",
        default_value_t = false,
        global = true
    )]
    pub password_require_non_alphanumeric: bool,
    /// Sign-in and recovery attempts per client address per minute.
    #[arg(
        long,
        env = "BALCAO_AUTH_PER_MINUTE_PER_ADDRESS",
        default_value_t = DEFAULT_AUTH_PER_MINUTE_PER_ADDRESS,
        global = true
    )]
    pub auth_per_minute_per_address: u32,
    /// Sign-in and recovery attempts per e-mail address per minute.
    #[arg(
        long,
        env = "BALCAO_AUTH_PER_MINUTE_PER_EMAIL",
        default_value_t = DEFAULT_AUTH_PER_MINUTE_PER_EMAIL,
        global = true
    )]
    pub auth_per_minute_per_email: u32,
    /// Sign-ups per client address per minute.
    #[arg(
        long,
        env = "BALCAO_SIGN_UP_PER_MINUTE_PER_ADDRESS",
        default_value_t = DEFAULT_SIGN_UP_PER_MINUTE_PER_ADDRESS,
        global = true
    )]
    pub sign_up_per_minute_per_address: u32,
    /// Invitations an account may send per minute.
    #[arg(
        long,
        env = "BALCAO_INVITATIONS_PER_MINUTE_PER_ACCOUNT",
        default_value_t = DEFAULT_INVITATIONS_PER_MINUTE_PER_ACCOUNT,
        global = true
    )]
    pub invitations_per_minute_per_account: u32,
    /// Seconds a just-rotated refresh token still answers with the same successor.
    #[arg(
        long,
        env = "BALCAO_REFRESH_REUSE_INTERVAL_SECS",
        default_value_t = DEFAULT_REFRESH_REUSE_INTERVAL_SECS,
        global = true
    )]
    pub refresh_reuse_interval_secs: u64,
}

impl std::fmt::Debug for AuthSettings {
    /// Everything but the secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthSettings")
            .field("token_secret", &self.token_secret.as_ref().map(|_| "***"))
            .field("cookie_secure", &self.cookie_secure)
            .field("password_min_length", &self.password_min_length)
            .field(
                "password_require_lowercase",
                &self.password_require_lowercase,
            )
            .field(
                "password_require_uppercase",
                &self.password_require_uppercase,
            )
            .field("password_require_numeric", &self.password_require_numeric)
            .field(
                "password_require_non_alphanumeric",
                &self.password_require_non_alphanumeric,
            )
            .field(
                "auth_per_minute_per_address",
                &self.auth_per_minute_per_address,
            )
            .field("auth_per_minute_per_email", &self.auth_per_minute_per_email)
            .field(
                "sign_up_per_minute_per_address",
                &self.sign_up_per_minute_per_address,
            )
            .field(
                "invitations_per_minute_per_account",
                &self.invitations_per_minute_per_account,
            )
            .field(
                "refresh_reuse_interval_secs",
                &self.refresh_reuse_interval_secs,
            )
            .finish()
    }
}

impl Default for AuthSettings {
    fn default() -> Self {
        AuthSettings {
            token_secret: None,
            cookie_secure: true,
            password_min_length: DEFAULT_PASSWORD_MIN_LENGTH,
            password_require_lowercase: false,
            password_require_uppercase: false,
            password_require_numeric: false,
            password_require_non_alphanumeric: false,
            auth_per_minute_per_address: DEFAULT_AUTH_PER_MINUTE_PER_ADDRESS,
            auth_per_minute_per_email: DEFAULT_AUTH_PER_MINUTE_PER_EMAIL,
            sign_up_per_minute_per_address: DEFAULT_SIGN_UP_PER_MINUTE_PER_ADDRESS,
            invitations_per_minute_per_account: DEFAULT_INVITATIONS_PER_MINUTE_PER_ACCOUNT,
            refresh_reuse_interval_secs: DEFAULT_REFRESH_REUSE_INTERVAL_SECS,
        }
    }
}

impl AuthSettings {
    /// The password policy these settings describe.
    pub fn password_policy(&self) -> domain::account::password_policy::PasswordPolicy {
        domain::account::password_policy::PasswordPolicy {
            min_length: self.password_min_length,
            require_lowercase: self.password_require_lowercase,
            require_uppercase: self.password_require_uppercase,
            require_numeric: self.password_require_numeric,
            require_non_alphanumeric: self.password_require_non_alphanumeric,
        }
    }
}
