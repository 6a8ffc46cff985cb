//! The payer pages as served: rendered HTML and its brotli and gzip forms, kept in memory per
//! code under a byte budget, so a sign shared widely (or a crawler) costs a lookup instead of two
//! queries, a render and a compression per request.
//!
//! **When an entry is still right.** A payer page is a function of the code's row in `qrcodes`
//! (its `version` moves on archive, unarchive and claim) and of its key holder's name
//! (`pix_keys`: the name the payer's bank shows, which a rename changes). A reusable code's
//! payments are not in it: such a code is paid by many people, so every page opens ready to pay
//! and hears of a payment over its live stream. A single-use code's page is also a function of
//! its payments (`payments`: once one stands, the page says "já foi pago" to everyone,
//! [`QrCodeView::paid_at`]). Each entry remembers what it was rendered from, as its [`Stamp`],
//! and where those projections' checkpoints were ([`Marks`], as this process's
//! [`projections::projector::ProgressWatch`] heard them) *before* the rows were read. A checkpoint
//! moves in the same transaction as its read model, and the watch only moves forward, so while
//! the marks an entry depends on are unchanged none of its rows can have changed: the entry is
//! served with no database work at all (a reusable code's entry ignores the `payments` mark, so
//! a busy account's payments do not send its signs' pages back to the database). Once one of
//! them moves (by any event, for any code), the next request reads the rows again; an unchanged
//! stamp keeps the bytes (only the marks are brought forward), a changed one renders anew. A
//! request that waited for its own write (`read_your_writes`) sees the watch past that write, so
//! archiving is never answered with the old page.
//!
//! The `ETag` is a digest of the HTML, so `If-None-Match` is answered 304 from the entry. The
//! compressed forms are made on first demand, once per version, at a mid level: paid once, not
//! per request. The budget (`BALCAO_PAYER_PAGE_CACHE_BYTES`) charges each entry twice its HTML
//! (HTML plus room for both compressed forms, each a fraction of it); past it the oldest entries
//! go first, so memory stays bounded whatever is crawled.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use commands::FeedPosition;
use projections::qrcodes::QrCodeView;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::assets::accepts;

/// Default budget ([`crate::config::DEFAULT_PAYER_PAGE_CACHE_BYTES`]).
pub const DEFAULT_BUDGET_BYTES: usize = crate::config::DEFAULT_PAYER_PAGE_CACHE_BYTES;

/// Everything a payer page is rendered from: the code's whole row (its `version` moves on
/// archive, unarchive and claim; a single-use code's `paid_at` on its payment; comparing the
/// whole row also catches a change nobody foresaw) and its key holder's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// The code's row in `qrcodes`.
    pub view: QrCodeView,
    /// The name the payer's bank shows (`pix_keys`), when known.
    pub holder: Option<String>,
}

/// Where the `qrcodes`, `pix_keys` and `payments` projections were, as this process heard,
/// when the rows behind an entry were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Marks {
    /// The `qrcodes` checkpoint.
    pub qrcodes: FeedPosition,
    /// The `pix_keys` checkpoint.
    pub pix_keys: FeedPosition,
    /// The `payments` checkpoint: only a single-use code's page depends on it.
    pub payments: FeedPosition,
}

impl Marks {
    /// Whether an entry of `stamp` stored at `self` is still right at `now`: the marks its rows
    /// depend on are the same.
    fn still_right_at(&self, now: &Marks, stamp: &Stamp) -> bool {
        self.qrcodes == now.qrcodes
            && self.pix_keys == now.pix_keys
            && (!stamp.view.single_use || self.payments == now.payments)
    }
}

/// One code's page.
pub struct CachedPage {
    /// The rows it was rendered from.
    pub stamp: Stamp,
    html: Bytes,
    etag: HeaderValue,
    br: OnceLock<Bytes>,
    gzip: OnceLock<Bytes>,
}

impl CachedPage {
    /// `html` rendered from rows with `stamp`.
    pub fn new(stamp: Stamp, html: String) -> Self {
        let digest = Sha256::digest(html.as_bytes());
        let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
        CachedPage {
            stamp,
            html: Bytes::from(html),
            etag: HeaderValue::from_str(&format!("\"{hex}\"")).expect("hex is header text"),
            br: OnceLock::new(),
            gzip: OnceLock::new(),
        }
    }

    /// The page for a request with `request` headers: 304 when its `If-None-Match` names this
    /// version, else the HTML in the best form the client accepts.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        let headers = [
            (header::ETAG, self.etag.clone()),
            // Always asked again (the code may be archived), answered 304 while not.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (header::VARY, HeaderValue::from_static("accept-encoding")),
        ];
        let tag = self.etag.as_bytes();
        let matches = request
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .any(|candidate| {
                candidate == "*" || candidate.trim_start_matches("W/").as_bytes() == tag
            });
        if matches {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        let offered = request
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let (encoding, body) = if accepts(offered, "br") {
            (Some("br"), self.br.get_or_init(|| brotli_of(&self.html)))
        } else if accepts(offered, "gzip") {
            (Some("gzip"), self.gzip.get_or_init(|| gzip_of(&self.html)))
        } else {
            (None, &self.html)
        };
        let mut response = (
            headers,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            )],
            body.clone(),
        )
            .into_response();
        if let Some(encoding) = encoding {
            // Already compressed: the compression layer leaves a response with this header alone.
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        response
    }

    fn charge(&self) -> usize {
        2 * self.html.len() + 256
    }
}

/// A hit, with the marks it was last known right at.
pub struct Hit {
    /// The page.
    pub page: Arc<CachedPage>,
    /// Whether the marks are the ones asked with: no database work is needed.
    pub current: bool,
}

/// The bounded cache of payer pages; cheap to clone (shared).
#[derive(Clone)]
pub struct PayerPages(Arc<Mutex<Store>>);

struct Store {
    budget: usize,
    used: usize,
    entries: HashMap<Uuid, (Arc<CachedPage>, Marks)>,
    /// Insertion order, oldest first; may hold ids already replaced or gone (skipped).
    order: VecDeque<Uuid>,
}

impl PayerPages {
    /// A cache holding at most about `budget` bytes (0 turns caching off).
    pub fn new(budget: usize) -> Self {
        PayerPages(Arc::new(Mutex::new(Store {
            budget,
            used: 0,
            entries: HashMap::new(),
            order: VecDeque::new(),
        })))
    }

    fn store(&self) -> std::sync::MutexGuard<'_, Store> {
        // A panic while holding the lock leaves consistent data (every change is one step).
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The entry for `qrcode_id`, and whether it was stored at `marks`.
    pub fn get(&self, qrcode_id: Uuid, marks: Marks) -> Option<Hit> {
        let store = self.store();
        let (page, at) = store.entries.get(&qrcode_id)?;
        Some(Hit {
            page: Arc::clone(page),
            current: at.still_right_at(&marks, &page.stamp),
        })
    }

    /// Records that the entry for `qrcode_id` is still right at `marks` (its rows were read
    /// again and had its stamp).
    pub fn confirm(&self, qrcode_id: Uuid, stamp: &Stamp, marks: Marks) {
        let mut store = self.store();
        if let Some((page, at)) = store.entries.get_mut(&qrcode_id)
            && page.stamp == *stamp
        {
            *at = marks;
        }
    }

    /// Stores `page` for `qrcode_id`, read at `marks`, evicting the oldest entries beyond the
    /// budget; a page larger than the whole budget is not kept.
    pub fn put(&self, qrcode_id: Uuid, page: Arc<CachedPage>, marks: Marks) {
        let mut store = self.store();
        let charge = page.charge();
        if charge > store.budget {
            return;
        }
        if let Some((old, _)) = store.entries.remove(&qrcode_id) {
            store.used -= old.charge();
        }
        while store.used + charge > store.budget {
            let Some(oldest) = store.order.pop_front() else {
                break;
            };
            if let Some((gone, _)) = store.entries.remove(&oldest) {
                store.used -= gone.charge();
            }
        }
        store.entries.insert(qrcode_id, (page, marks));
        store.order.push_back(qrcode_id);
        store.used += charge;
        // Replaced ids leave stale places in `order`; keep it within a small multiple of the map.
        if store.order.len() > 2 * store.entries.len() + 64 {
            let Store { order, entries, .. } = &mut *store;
            let mut seen = std::collections::HashSet::new();
            let kept: VecDeque<Uuid> = order
                .iter()
                .rev()
                .filter(|id| entries.contains_key(id) && seen.insert(**id))
                .copied()
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            *order = kept;
        }
    }

    /// Bytes charged now (for tests and the metrics).
    pub fn used_bytes(&self) -> usize {
        self.store().used
    }

    /// Entries held now.
    pub fn len(&self) -> usize {
        self.store().entries.len()
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Brotli at quality 6: a page is compressed once per version, so a little more than the
/// per-request level of dynamic answers, far from the start-time best of static assets.
fn brotli_of(body: &[u8]) -> Bytes {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams {
        quality: 6,
        ..Default::default()
    };
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).expect("compressing into memory");
    Bytes::from(out)
}

/// Gzip at level 6, for the same reason.
fn gzip_of(body: &[u8]) -> Bytes {
    use std::io::Write as _;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
    encoder.write_all(body).expect("compressing into memory");
    Bytes::from(encoder.finish().expect("compressing into memory"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(version: i64) -> Stamp {
        Stamp {
            view: QrCodeView {
                qrcode_id: Uuid::nil(),
                owner_id: None,
                created_by: None,
                key_kind: projections::qrcodes::KeyKind::Evp,
                pix_key: "123e4567-e89b-12d3-a456-426614174000".to_owned(),
                merchant_name: "PADARIA".to_owned(),
                merchant_city: "SAO PAULO".to_owned(),
                amount_centavos: None,
                description: None,
                txid: "***".to_owned(),
                payload: String::new(),
                created_at: chrono::DateTime::UNIX_EPOCH,
                event_id: Uuid::nil(),
                position: FeedPosition::default(),
                key_id: None,
                batch_id: None,
                duplicate_of: None,
                archived_at: None,
                version,
                single_use: false,
                paid_at: None,
                charge_expires_at: None,
                charge_due: None,
            },
            holder: None,
        }
    }

    fn page(version: i64, size: usize) -> Arc<CachedPage> {
        Arc::new(CachedPage::new(stamp(version), "x".repeat(size)))
    }

    fn marks(n: u64) -> Marks {
        Marks {
            qrcodes: FeedPosition {
                tx_id: n,
                global_position: 1,
            },
            pix_keys: FeedPosition::default(),
            payments: FeedPosition::default(),
        }
    }

    #[test]
    fn an_entry_is_current_only_at_the_marks_it_was_read_or_confirmed_at() {
        let cache = PayerPages::new(1 << 20);
        let id = Uuid::new_v4();
        cache.put(id, page(1, 100), marks(1));
        assert!(cache.get(id, marks(1)).expect("hit").current);
        assert!(!cache.get(id, marks(2)).expect("hit").current);
        cache.confirm(id, &stamp(1), marks(2));
        assert!(cache.get(id, marks(2)).expect("hit").current);
        // A confirmation for another stamp changes nothing.
        cache.confirm(id, &stamp(2), marks(3));
        assert!(!cache.get(id, marks(3)).expect("hit").current);
    }

    #[test]
    fn a_single_use_codes_entry_is_current_only_while_payments_have_not_moved() {
        let cache = PayerPages::new(1 << 20);
        let (sign, sale) = (Uuid::new_v4(), Uuid::new_v4());
        let mut single = stamp(1);
        single.view.single_use = true;
        cache.put(sign, page(1, 100), marks(1));
        cache.put(
            sale,
            Arc::new(CachedPage::new(single, "x".repeat(100))),
            marks(1),
        );
        let paid = Marks {
            payments: FeedPosition {
                tx_id: 9,
                global_position: 9,
            },
            ..marks(1)
        };
        // A payment moved `payments`: a sign's page still opens ready to pay, with no row read;
        // the single-use code's page is read again (it may be paid now).
        assert!(cache.get(sign, paid).expect("hit").current);
        assert!(!cache.get(sale, paid).expect("hit").current);
    }

    #[test]
    fn the_oldest_pages_leave_when_the_budget_is_spent() {
        let cache = PayerPages::new(10_000);
        let ids: Vec<Uuid> = (0..10).map(|_| Uuid::new_v4()).collect();
        for id in &ids {
            cache.put(*id, page(1, 1_000), marks(1));
        }
        assert!(cache.used_bytes() <= 10_000, "{}", cache.used_bytes());
        assert!(cache.get(ids[0], marks(1)).is_none(), "the oldest went");
        assert!(cache.get(ids[9], marks(1)).is_some(), "the newest stays");
        // Replacing one entry over and over neither grows the charge nor the order.
        for version in 0..1_000 {
            cache.put(ids[9], page(version, 1_000), marks(1));
        }
        assert!(cache.used_bytes() <= 10_000);
        let entries = cache.len();
        let places = cache.store().order.len();
        assert!(
            places <= 2 * entries + 64,
            "{places} places for {entries} entries"
        );
        // Larger than the whole budget: not kept.
        cache.put(Uuid::new_v4(), page(1, 20_000), marks(1));
        assert!(cache.used_bytes() <= 10_000);
    }

    #[test]
    fn a_matching_if_none_match_is_answered_304_and_compressed_forms_decode_to_the_html() {
        let entry = page(1, 5_000);
        let first = entry.respond(&HeaderMap::new());
        assert_eq!(first.status(), StatusCode::OK);
        let etag = first.headers()[header::ETAG].clone();

        let mut again = HeaderMap::new();
        again.insert(header::IF_NONE_MATCH, etag.clone());
        assert_eq!(entry.respond(&again).status(), StatusCode::NOT_MODIFIED);
        let mut other = HeaderMap::new();
        other.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"zzz\""));
        assert_eq!(entry.respond(&other).status(), StatusCode::OK);

        let mut br = HeaderMap::new();
        br.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, br"),
        );
        let answer = entry.respond(&br);
        assert_eq!(answer.headers()[header::CONTENT_ENCODING], "br");
        assert_eq!(answer.headers()[header::VARY], "accept-encoding");
        let compressed = entry.br.get().expect("made on demand");
        let mut plain = Vec::new();
        brotli::BrotliDecompress(&mut &compressed[..], &mut plain).expect("valid brotli");
        assert_eq!(plain, entry.html);
    }
}
