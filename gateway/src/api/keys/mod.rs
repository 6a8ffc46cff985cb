//! An account's Pix keys: `/api/accounts/{accountId}/keys` (issue 10).
//!
//! The handlers only extract, authorise ([`Workspace`](crate::api::access::Workspace)),
//! parse the typed values into domain values ([`domain::key_ring::KeyInput`]), call the
//! workflow ([`commands::pix_keys::PixKeys`]: seal, fingerprint, run the key ring) and answer from
//! the `pix_keys` read model once it has caught up (from the command's own values when it is
//! late). A key id that is not a key of the account in the path, another account's key
//! included, answers 404.
//!
//! | route | handler | who | answer |
//! |---|---|---|---|
//! | `GET /api/accounts/{accountId}/keys` | [`handlers::list`] | owner, manager, operator (to make codes) | 200 `{keys: [...]}`: the active keys, the default first |
//! | `POST /api/accounts/{accountId}/keys` | [`handlers::register`] | owner, manager | 201 the key |
//! | `GET /api/accounts/{accountId}/keys/{keyId}` | [`handlers::show`] | owner, manager, operator | 200 the key, removed ones too (`removedAt`) |
//! | `PATCH /api/accounts/{accountId}/keys/{keyId}` | [`handlers::rename`] | owner, manager | 200 the key with its new label and holder name |
//! | `POST /api/accounts/{accountId}/keys/{keyId}/default` | [`handlers::choose_default`] | owner, manager | 200 the key, now the default |
//! | `DELETE /api/accounts/{accountId}/keys/{keyId}` | [`handlers::remove`] | owner, manager | 204; again: 204 |
//!
//! `POST …/keys` takes `{pixKey, keyKind?, holderName, label?, makeDefault?}` and an optional
//! `Idempotency-Key` header (a retry after a lost answer gets the same key, with
//! `Idempotent-Replayed: true`; the same header with other values answers 409
//! `idempotency-key-reused`). `PATCH` takes `{holderName, label?}`.
//!
//! Codes this module adds to the API's table:
//!
//! | code | status | when |
//! |---|---|---|
//! | `pix-key-already-registered` | 409 | the key is already an active key of the account (`field`: `pixKey`) |
//! | `too-many-pix-keys` | 409 | the account already has 50 active keys (every plan's own limit, 402 `plan-limit-reached`, comes first) |
//! | `pix-key-removed` | 410 | renaming, or making the default, a removed key |
//! | `key-…` (the BR Code engine's key codes, e.g. `key-cpf-check-digits`, `key-ambiguous`) | 422 | the typed key is not a valid Pix key (`field`: `pixKey`, or `keyKind`) |
//! | `holder-name-missing`, `holder-name-too-long`, `label-too-long` | 422 | `field`: `holderName` or `label` |

pub mod handlers;
