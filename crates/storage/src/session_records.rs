//! Session records for a tenant's backend: the list (newest first, filtered, keyset-paged, never
//! an image) and erasure on request (the session row with its portrait, reference embedding,
//! audit frames, webhook deliveries and stream lease, leaving a tombstone of id and tenant).

use diesel::prelude::*;
use domain::{Session, SessionStatus, TenantId, Verdict};
use uuid::Uuid;

use crate::Store;
use crate::collections::Page;
use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::{erased_sessions, session_streams, sessions};
use crate::sessions::SessionRow;

/// Which of a tenant's sessions to list. Expired sessions are never listed: every read of one
/// answers as for an unknown session.
#[derive(Debug, Clone, Default)]
pub struct SessionFilter {
    pub reference_id: Option<String>,
    pub status: Option<SessionStatus>,
    pub verdict: Option<Verdict>,
    /// Created at or after (unix ms).
    pub created_from: Option<i64>,
    /// Created before (unix ms).
    pub created_before: Option<i64>,
}

/// Where a page of the list starts: after the session created at `created_at` with `id` (the
/// list runs newest first, ties broken by id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionCursor {
    pub created_at: i64,
    pub id: Uuid,
}

impl SessionCursor {
    /// The cursor as the list's opaque `next_token`.
    pub fn token(self) -> String {
        format!("{}.{}", self.created_at, self.id.simple())
    }

    /// A `next_token` read back; `None` when it is not one this list wrote.
    pub fn parse(token: &str) -> Option<Self> {
        let (created_at, id) = token.split_once('.')?;
        Some(Self {
            created_at: created_at.parse().ok().filter(|t: &i64| *t >= 0)?,
            id: Uuid::try_parse(id).ok()?,
        })
    }
}

/// What erasing a session found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erasure {
    /// The session existed and is gone now.
    Erased,
    /// The session had been erased before.
    AlreadyErased,
    /// No such session of this tenant.
    Unknown,
}

fn db(e: diesel::result::Error) -> StorageError {
    StorageError::from_diesel(Entity::Session, e)
}

impl Store {
    /// One page of `tenant`'s unexpired sessions matching `filter`, newest first.
    pub fn list_sessions(
        &self,
        tenant: TenantId,
        filter: &SessionFilter,
        limit: usize,
        after: Option<SessionCursor>,
    ) -> StorageResult<Page<Session>> {
        let mut query = sessions::table
            .filter(sessions::tenant_id.eq(tenant.0.to_string()))
            // an `expired` session is past its `expires_at` too: one filter covers both
            .filter(sessions::expires_at.gt(self.now_millis()))
            .into_boxed();
        if let Some(reference_id) = &filter.reference_id {
            query = query.filter(sessions::reference_id.eq(reference_id.clone()));
        }
        if let Some(status) = filter.status {
            query = query.filter(sessions::status.eq(status.as_str()));
        }
        if let Some(verdict) = filter.verdict {
            query = query.filter(sessions::verdict.eq(verdict.as_str()));
        }
        if let Some(from) = filter.created_from {
            query = query.filter(sessions::created_at.ge(from));
        }
        if let Some(before) = filter.created_before {
            query = query.filter(sessions::created_at.lt(before));
        }
        if let Some(cursor) = after {
            query = query.filter(
                sessions::created_at
                    .lt(cursor.created_at)
                    .or(sessions::created_at
                        .eq(cursor.created_at)
                        .and(sessions::id.lt(cursor.id.to_string()))),
            );
        }
        let rows = query
            .order((sessions::created_at.desc(), sessions::id.desc()))
            .limit(limit as i64 + 1)
            .load::<SessionRow>(&mut *self.conn()?)
            .map_err(db)?;
        let more = rows.len() > limit;
        let items = rows
            .into_iter()
            .take(limit)
            .map(SessionRow::into_domain)
            .collect::<StorageResult<Vec<_>>>()?;
        let next_token = more
            .then(|| {
                items.last().map(|s| {
                    SessionCursor {
                        created_at: s.created_at,
                        id: s.id,
                    }
                    .token()
                })
            })
            .flatten();
        Ok(Page { items, next_token })
    }

    /// Erases session `id` of `tenant` now, in one transaction: the row (status, verdict,
    /// portrait, reference embedding, per-layer evidence, URLs, reference id), its audit
    /// frames and webhook deliveries with their attempts (by the tables' cascades), and its
    /// stream lease. A tombstone of id, tenant and time stays, so a second erasure is told
    /// apart from an unknown id. Another tenant's session is `Unknown`.
    pub fn erase_session(&self, tenant: TenantId, id: Uuid) -> StorageResult<Erasure> {
        let (tenant, id) = (tenant.0.to_string(), id.to_string());
        let mut conn = self.conn()?;
        crate::connection::write_transaction(&mut conn, |c| -> Result<_, StorageError> {
            let deleted = diesel::delete(
                sessions::table
                    .find(&id)
                    .filter(sessions::tenant_id.eq(&tenant)),
            )
            .execute(c)
            .map_err(db)?;
            if deleted == 0 {
                let tombstone = erased_sessions::table
                    .find(&id)
                    .filter(erased_sessions::tenant_id.eq(&tenant))
                    .count()
                    .get_result::<i64>(c)
                    .map_err(db)?;
                return Ok(if tombstone > 0 {
                    Erasure::AlreadyErased
                } else {
                    Erasure::Unknown
                });
            }
            diesel::delete(session_streams::table.find(&id))
                .execute(c)
                .map_err(db)?;
            diesel::insert_into(erased_sessions::table)
                .values((
                    erased_sessions::session_id.eq(&id),
                    erased_sessions::tenant_id.eq(&tenant),
                    erased_sessions::erased_at.eq(self.now_millis()),
                ))
                .execute(c)
                .map_err(db)?;
            Ok(Erasure::Erased)
        })
    }

    /// Whether session `id` still exists (a live stream stops once it was erased).
    pub fn session_exists(&self, id: Uuid) -> StorageResult<bool> {
        sessions::table
            .find(id.to_string())
            .count()
            .get_result::<i64>(&mut *self.conn()?)
            .map(|n| n > 0)
            .map_err(db)
    }
}
