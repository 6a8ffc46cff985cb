//! The dashboard's QR codes (`/api/accounts/{accountId}/qrcodes…`): make one from a registered
//! or a typed key with a txid unique in the account, make a batch in one command, duplicate,
//! archive and bring back, list with search, filters and pages. The dashboard screens are
//! `/painel/criar-qrcode` and `/painel/qrcodes`. The routes are listed in [`crate::router`].
//!
//! | route | handler | who | answer |
//! |---|---|---|---|
//! | `GET …/qrcodes?busca=&chave=&arquivados=sim\|nao\|todos&lote=&depois=&limite=` | [`manage::list`] | owner, manager: every code; operator: their own | 200 `{qrcodes, next}` newest first, [`manage::PAGE`] a page (keyset: `next` is the `depois` of the next page) |
//! | `POST …/qrcodes` | [`create::create`] | every role | 201 the code; 422 `invalid-argument` (`field` = the first problem, `problems` = all); 409 `txid-taken` |
//! | `POST …/qrcodes/conferir` | [`create::check`] | every role | 200 `{merchantName, merchantCity, pixKey, changes, problems}` (makes nothing) |
//! | `POST …/qrcodes/lote` | [`create::batch`] | every role | 201 `{batchId, qrcodes}` (with an `Idempotency-Key` sent again: the first batch, `Idempotent-Replayed: true`); 422 with every line's problems and nothing made; 409 `idempotency-key-reused` for the key with other lines |
//! | `GET …/qrcodes/{id}` | [`manage::show`] | owner, manager; operator: own code (another member's → 403) | 200 the code; another account's or none → 404 |
//! | `POST …/qrcodes/{id}/arquivar` | [`manage::archive`] | as `GET …/{id}` | 200 the code; 409 `qrcode-already-archived` |
//! | `POST …/qrcodes/{id}/desarquivar` | [`manage::unarchive`] | as `GET …/{id}` | 200 the code; 409 `qrcode-not-archived` |
//! | `POST …/qrcodes/{id}/duplicar` | [`create::duplicate`] | as `GET …/{id}` | 201 the new code (same values, new txid) |
//! | `POST …/qrcodes/cobrancas` | [`charge::create`] | every role | 201 the dynamic code of a charge the key's connected bank made (`cob`), with `chargeExpiresAt`; 409 `bank-not-connected`; see [`charge`] |
//!
//! A creation's body ([`json::CodeBody`]): `keyId` (a registered key of the account) or `pixKey`
//! (+ optional `keyKind`); `merchantName` (blank: the registered key's holder name),
//! `merchantCity`, optional `amount` (pt-BR) and `description`; optional `txid` (blank: Balcão
//! generates 16 characters); optional `singleUse` (a code for one sale: it needs an `amount`, 422
//! on `amount` otherwise, and its payer page says "Este QR code já foi pago" to everyone once a
//! payment of it arrives; a code's JSON shows `singleUse` and `paidAt`, the time of its earliest
//! payment that stands, `null` for reusable codes). A batch's body has the same key and receiver, an optional default
//! `amount`, `singleUse` for every line (each then needs an amount), and `prefix` + `count` or `lines` (`label` or `label;price` per line), at most
//! [`domain::qrcode::batch::MAX_BATCH`].
//!
//! Txids are unique in the account, compared in upper case: each creation claims its txid
//! (`commands::claims::txid_scope`) in the command's transaction, so of simultaneous creations
//! with one typed txid exactly one succeeds and the others get 409 `txid-taken`. A batch claims
//! all its txids and appends all its codes in one transaction (`CommandService::create_streams`).
//!
//! Codes this module adds to the API's table:
//!
//! | code | status | when |
//! |---|---|---|
//! | `txid-taken` | 409 | the account already has a code with this txid |
//! | `qrcode-already-archived` | 409 | archiving an archived code |
//! | `qrcode-not-archived` | 409 | bringing back a code that is not archived |

pub mod charge;
pub mod create;
pub mod due_date;
pub mod input;
pub mod json;
pub mod manage;
