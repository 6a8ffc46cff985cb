//! A code's row drawn from its own stream: what a page or an answer shows when the projector has
//! not written the row yet (stopped, behind, or NATS down). The event log already holds the
//! code the moment its command commits, so nothing the caller just made is ever a 404.
//!
//! The fold reads the same payload types as the projection and applies the same rules
//! (creation makes the row; archive and unarchive set `archived_at` and `version`; a claim moves
//! `owner_id` and `created_by`), so the view equals the row the projector will write (a test
//! compares them).

use commands::Upcasters;
use commands::feed::StoredEvent;

use super::claims::{CLAIMED, QrCodeClaimedV1};
use super::{ARCHIVED, ArchivedV1, CREATED, QrCodeCreatedV1, QrCodeView, UNARCHIVED};

/// The view of one code from its stream's events (in stream order, upcast), or `None` when the
/// stream holds no creation this read model can read (no such code, or a shape it would park).
pub fn view_from_stream(upcasters: &Upcasters, events: &[StoredEvent]) -> Option<QrCodeView> {
    let mut view: Option<QrCodeView> = None;
    for event in events {
        let event_type = event.event_type.as_str();
        if ![CREATED, ARCHIVED, UNARCHIVED, CLAIMED].contains(&event_type) {
            continue;
        }
        // The projection parks an event it cannot read and goes on with the next; so does the
        // fold.
        if event.schema_version != upcasters.current_version(event_type) {
            continue;
        }
        match event_type {
            CREATED => {
                let Ok(created) = event.payload.deserialize::<QrCodeCreatedV1>() else {
                    continue;
                };
                let charge_expires_at = created.charge_expires_at();
                let charge_due = created.charge_due();
                view = Some(QrCodeView {
                    qrcode_id: created.qrcode_id,
                    owner_id: created.owner_id,
                    created_by: created.created_by,
                    key_kind: created.key_kind,
                    pix_key: created.pix_key,
                    merchant_name: created.merchant_name,
                    merchant_city: created.merchant_city,
                    amount_centavos: created.amount_centavos,
                    description: created.description,
                    txid: created.txid,
                    payload: created.payload,
                    created_at: created.created_at,
                    event_id: event.event_id,
                    position: event.position,
                    key_id: created.key_id,
                    batch_id: created.batch_id,
                    duplicate_of: created.duplicate_of,
                    archived_at: None,
                    version: event.stream_version,
                    single_use: created.single_use,
                    // Payments are not the code's events: `find_or_from_log` asks for them.
                    paid_at: None,
                    charge_expires_at,
                    charge_due,
                });
            }
            ARCHIVED | UNARCHIVED => {
                let Some(row) = view.as_mut() else { continue };
                let Ok(changed) = event.payload.deserialize::<ArchivedV1>() else {
                    continue;
                };
                if event_type == ARCHIVED && changed.archived_at.is_none() {
                    continue;
                }
                row.archived_at = changed.archived_at.filter(|_| event_type == ARCHIVED);
                row.version = event.stream_version;
            }
            CLAIMED => {
                let Some(row) = view.as_mut() else { continue };
                let Ok(claimed) = event.payload.deserialize::<QrCodeClaimedV1>() else {
                    continue;
                };
                row.owner_id = Some(claimed.owner_id);
                row.created_by = Some(claimed.claimed_by);
            }
            _ => {}
        }
    }
    view
}
