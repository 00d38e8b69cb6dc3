//! Stream leases: which connection streams a liveness session, shared by every replica. A
//! connection claims the session's lease before it streams, renews it while frames arrive and
//! releases it when it ends; a second connection, on any replica, is refused while the lease
//! runs. A replica killed mid-stream cannot release, so its lease runs out by itself.

use diesel::prelude::*;
use uuid::Uuid;

use crate::schema::session_streams;
use crate::{Entity, StorageError, StorageResult, Store};

fn db(e: diesel::result::Error) -> StorageError {
    StorageError::from_diesel(Entity::SessionStream, e)
}

impl Store {
    /// Claims session `id` for `holder` until `now + lease_ms`: `true` when it was free, its
    /// lease had run out, or `holder` already held it.
    pub fn claim_session_stream(
        &self,
        id: Uuid,
        holder: &str,
        lease_ms: i64,
        now: i64,
    ) -> StorageResult<bool> {
        let mut conn = self.conn()?;
        let changed =
            crate::dialect::claim_stream(&mut conn, id, holder, now + lease_ms, now).map_err(db)?;
        Ok(changed == 1)
    }

    /// Releases `holder`'s lease on session `id` (nothing when another holds it now).
    pub fn release_session_stream(&self, id: Uuid, holder: &str) -> StorageResult<()> {
        use session_streams as ss;
        diesel::delete(
            ss::table
                .filter(ss::session_id.eq(id.to_string()))
                .filter(ss::holder.eq(holder)),
        )
        .execute(&mut *self.conn()?)
        .map_err(db)?;
        Ok(())
    }

    /// Deletes leases that ran out before `now`; returns how many.
    pub fn sweep_session_streams(&self, now: i64) -> StorageResult<usize> {
        use session_streams as ss;
        diesel::delete(ss::table.filter(ss::lease_until.lt(now)))
            .execute(&mut *self.conn()?)
            .map_err(db)
    }
}
