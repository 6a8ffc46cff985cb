//! Payments: the API Pix receiver, the sandbox's "Simular pagamento", and the payments API.
//!
//! | route | who | what |
//! |---|---|---|
//! | `POST /webhooks/api-pix/{token}/pix` (and `/webhooks/api-pix/{token}`) | the account's bank (PSP) | an API Pix delivery `{"pix":[…]}` ([`webhook`]) |
//! | `POST /pagamento/{id}/simular-pagamento` | anyone, only with `BALCAO_SANDBOX_PAYMENTS` on | a synthetic delivery through the same receiver ([`sandbox`]) |
//! | `/api/accounts/{accountId}/api-pix-receivers/{keyId}` … | owner, manager ([`Right::ManageKeys`](domain::team::Right)) | turn the receiver of a key on, rotate its URL, turn it off ([`receivers`]) |
//! | `/api/accounts/{accountId}/payments` … | every role (operators: their own codes' payments) | read, record by hand, void ([`records`]) |
//! | `GET /api/accounts/{accountId}/payments?…` and `…/payments/summary?…` | every role (operators: their own codes' payments) | the transactions screen: a keyset page of the filtered payments; their totals and São Paulo days ([`search`], filters in [`filters`]) |
//! | `GET /api/accounts/{accountId}/payments/csv?…` | as the list | the filtered payments as a streamed CSV in pt-BR formats ([`export`]) |
//! | `POST /api/accounts/{accountId}/payments/{reference}/refunds` | owner, manager | pay (part of) a Pix back through the bank that holds its key ([`refunds`]) |
//! | `GET /api/accounts/{accountId}/payments/{reference}/history` | as reading the payment | its events from the log: what, when, source, by whom, correlation and causation ([`history`]) |
//! | `POST /api/accounts/{accountId}/extratos/previa`, `POST …/extratos`, `DELETE …/extratos/{importId}` | owner, manager | a bank statement's preview, its import, undoing an import ([`statements`]); a big import runs in the background, its progress at `GET …/extratos/{importId}/andamento` ([`statement_runs`]) |
//! | `GET /api/accounts/{accountId}/daily-totals` | every role (operators: their own codes) | totals per São Paulo day ([`records`]) |
//! | `GET /api/accounts/{accountId}/summary` | every role (operators: their own codes) | the dashboard home's figures ([`summary`]) |
//!
//! The receiver's pipeline ([`receiver::receive`]) is the same for the bank and the sandbox: it
//! hands the body to the intake workflow (`commands::payments::intake`): the whole body is
//! validated against the spec (`domain::payment::api_pix`) and bounded in entries, every `chave`
//! must be the receiver's key, payer data is sealed with the account's key, and every entry is
//! matched to the account's code by the code's txid claim and appended, in one transaction.

pub mod export;
pub mod filters;
pub mod history;
pub mod receiver;
pub mod receivers;
pub mod records;
pub mod refunds;
pub mod sandbox;
pub mod search;
pub mod statement_runs;
pub mod statements;
pub mod summary;
pub mod webhook;
