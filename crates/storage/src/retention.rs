//! Retention: what a session holds (portrait, reference embedding, audit frames) is deleted
//! when its purpose ends, and the sweep expires sessions past their lifetime.

use diesel::prelude::*;
use domain::SessionStatus;
use uuid::Uuid;

use crate::Store;
use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::{session_audit_frames, sessions};

impl Store {
    /// Deletes a session's photo when its purpose has ended (for example after download).
    pub fn delete_session_photo(&self, id: Uuid) -> StorageResult<()> {
        diesel::update(sessions::table.find(id.to_string()))
            .set(sessions::photo.eq(None::<Vec<u8>>))
            .execute(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel(Entity::Session, e))
            .map(|_| ())
    }

    /// Retention sweep: expires unfinished sessions past `expires_at` and deletes the photo,
    /// the reference embedding and the audit frames of every session past `expires_at`.
    /// Returns (sessions expired, photos deleted).
    pub fn sweep_expired_sessions(&self, now: i64) -> StorageResult<(usize, usize)> {
        let mut conn = self.conn()?;
        crate::connection::write_transaction(&mut conn, |c| -> Result<_, diesel::result::Error> {
            let expired =
                diesel::update(sessions::table.filter(sessions::expires_at.le(now)).filter(
                    sessions::status.eq_any([
                        SessionStatus::Created.as_str(),
                        SessionStatus::InProgress.as_str(),
                    ]),
                ))
                .set(sessions::status.eq(SessionStatus::Expired.as_str()))
                .execute(c)?;
            let photos = diesel::update(
                sessions::table
                    .filter(sessions::expires_at.le(now))
                    .filter(sessions::photo.is_not_null()),
            )
            .set(sessions::photo.eq(None::<Vec<u8>>))
            .execute(c)?;
            diesel::update(
                sessions::table
                    .filter(sessions::expires_at.le(now))
                    .filter(sessions::reference_embedding.is_not_null()),
            )
            .set(sessions::reference_embedding.eq(None::<Vec<u8>>))
            .execute(c)?;
            let past: Vec<String> = sessions::table
                .filter(sessions::expires_at.le(now))
                .inner_join(
                    session_audit_frames::table
                        .on(session_audit_frames::session_id.eq(sessions::id)),
                )
                .select(sessions::id)
                .distinct()
                .load(c)?;
            crate::audit_frames::delete_of(c, &past)?;
            Ok((expired, photos))
        })
        .map_err(|e| StorageError::from_diesel(Entity::Session, e))
    }
}
