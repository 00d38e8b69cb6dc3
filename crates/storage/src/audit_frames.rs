//! Opt-in audit frames of completed sessions: written sealed (XChaCha20-Poly1305 under a key
//! derived from the server secret for this purpose) in the completion's transaction, read back
//! by the owning tenant, and deleted by the retention sweep when the session expires.

use diesel::prelude::*;
use uuid::Uuid;

use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::session_audit_frames as frames;
use crate::{AnyConnection, Store};

const SEALING_LABEL: &str = "facegate audit frame sealing v1";

fn db(e: diesel::result::Error) -> StorageError {
    StorageError::from_diesel(Entity::Session, e)
}

impl Store {
    /// Seals each frame (before the completion's transaction opens).
    pub(crate) fn seal_audit_frames(&self, jpegs: &[Vec<u8>]) -> StorageResult<Vec<Vec<u8>>> {
        jpegs
            .iter()
            .map(|jpeg| {
                self.secret()
                    .seal(SEALING_LABEL, jpeg)
                    .ok_or_else(|| StorageError::Corrupt("audit frame could not be sealed".into()))
            })
            .collect()
    }

    /// The audit frames of session `id`, in capture order (callers authenticate first).
    pub fn session_audit_frames(&self, id: Uuid) -> StorageResult<Vec<Vec<u8>>> {
        let sealed: Vec<Vec<u8>> = frames::table
            .filter(frames::session_id.eq(id.to_string()))
            .order(frames::position.asc())
            .select(frames::sealed)
            .load(&mut self.conn()?)
            .map_err(db)?;
        sealed
            .iter()
            .map(|s| {
                self.secret().open(SEALING_LABEL, s).ok_or_else(|| {
                    StorageError::Corrupt(
                        "an audit frame does not open under this server secret".into(),
                    )
                })
            })
            .collect()
    }
}

/// Inserts the sealed frames of session `id` of `tenant` (inside the completion's transaction).
pub(crate) fn insert(
    c: &mut AnyConnection,
    id: Uuid,
    tenant: &str,
    sealed: &[Vec<u8>],
    now: i64,
) -> StorageResult<()> {
    for (position, frame) in sealed.iter().enumerate() {
        diesel::insert_into(frames::table)
            .values((
                frames::session_id.eq(id.to_string()),
                frames::position.eq(position as i32),
                frames::tenant_id.eq(tenant),
                frames::sealed.eq(frame),
                frames::created_at.eq(now),
            ))
            .execute(c)
            .map_err(db)?;
    }
    Ok(())
}

/// Deletes the audit frames of every session in `expired` (the retention sweep).
pub(crate) fn delete_of(
    c: &mut AnyConnection,
    expired: &[String],
) -> Result<usize, diesel::result::Error> {
    diesel::delete(frames::table.filter(frames::session_id.eq_any(expired))).execute(c)
}
