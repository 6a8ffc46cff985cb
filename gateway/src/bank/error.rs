//! What went wrong talking to a bank, in words the owner can act on.

/// A failed call to the bank's API Pix. `Display` is pt-BR, for the connect screen; [`code`]
/// is stable, for programs and tests.
///
/// [`code`]: BankError::code
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BankError {
    /// The token endpoint refused the client id or secret (`invalid_client`, 401).
    #[error(
        "O banco recusou o client id ou o client secret. Copie os dois de novo do portal do banco, sem espaços, e confira se são do ambiente escolhido."
    )]
    InvalidClient,
    /// The bank ended the TLS handshake over our client certificate (unknown issuer, expired,
    /// not the one registered, or none at all).
    #[error(
        "O banco não aceitou o certificado. Confira se é o certificado cadastrado na sua aplicação do banco, para este ambiente, e se ainda está na validade."
    )]
    CertificateRefused,
    /// The bank's own certificate is not one we trust.
    #[error(
        "O certificado do servidor do banco ({host}) não é confiável, então não enviamos nada. Confira o endereço do banco."
    )]
    ServerUntrusted {
        /// The host we refused.
        host: String,
    },
    /// The Pix key is not one of this account's at this bank.
    #[error(
        "A chave Pix não está cadastrada nesta conta do banco. Confira a chave, ou conecte o banco onde ela está registrada."
    )]
    KeyNotRegistered,
    /// The app's token lacks a scope the operation needs.
    #[error(
        "A sua aplicação no banco não tem a permissão {scope}. Ative essa permissão (escopo) no portal do banco ou peça ao gerente, e teste de novo."
    )]
    ScopeMissing {
        /// The scope(s), space-separated, as the API Pix names them.
        scope: String,
    },
    /// The bank answered 5xx.
    #[error("O banco está fora do ar agora (erro {status}). Tente de novo em alguns minutos.")]
    Unavailable {
        /// The HTTP status.
        status: u16,
    },
    /// No answer within the client's timeout.
    #[error("O banco não respondeu a tempo. Tente de novo em alguns minutos.")]
    Timeout,
    /// No connection: DNS, refused, reset before an answer.
    #[error("Não foi possível conectar ao banco em {host}. Confira o endereço e tente de novo.")]
    Unreachable {
        /// The host we tried.
        host: String,
    },
    /// The bank knows no such path: a wrong base URL, usually.
    #[error(
        "O banco não reconheceu o endereço da API Pix. Confira o endereço da API (o de produção e o de homologação são diferentes)."
    )]
    NotFound,
    /// Any other refusal; the message is the bank's RFC 7807 `title` and `detail`.
    #[error("O banco recusou o pedido: {message}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The bank's words (title, then detail), trimmed to one line.
        message: String,
    },
    /// An answer we cannot read (not JSON where JSON was due, no `access_token`…).
    #[error(
        "O banco respondeu algo que não entendemos (HTTP {status}). Tente de novo; se continuar, fale com o suporte do banco."
    )]
    Unexpected {
        /// The HTTP status.
        status: u16,
    },
    /// The client could not be built from the stored certificate (never expected: the
    /// certificate was checked when uploaded).
    #[error(
        "Não foi possível preparar a conexão com este certificado. Envie o certificado de novo."
    )]
    Setup,
}

impl BankError {
    /// A stable, kebab-case code (`bank-invalid-client`, `bank-timeout`…).
    pub fn code(&self) -> &'static str {
        match self {
            BankError::InvalidClient => "bank-invalid-client",
            BankError::CertificateRefused => "bank-certificate-refused",
            BankError::ServerUntrusted { .. } => "bank-server-untrusted",
            BankError::KeyNotRegistered => "bank-key-not-registered",
            BankError::ScopeMissing { .. } => "bank-scope-missing",
            BankError::Unavailable { .. } => "bank-unavailable",
            BankError::Timeout => "bank-timeout",
            BankError::Unreachable { .. } => "bank-unreachable",
            BankError::NotFound => "bank-not-found",
            BankError::Refused { .. } => "bank-refused",
            BankError::Unexpected { .. } => "bank-unexpected-answer",
            BankError::Setup => "bank-client-setup",
        }
    }

    /// Whether trying again later may work without the owner changing anything (5xx, timeout,
    /// no connection): what a worker retries with back-off.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            BankError::Unavailable { .. } | BankError::Timeout | BankError::Unreachable { .. }
        )
    }
}
