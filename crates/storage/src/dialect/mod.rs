//! The SQL that differs between the two databases, one file per backend (as svix keeps one
//! file per queue backend): [`postgres`] and [`sqlite`]. Repositories call the functions here,
//! which pick the backend's file by the connection; no repository names a backend.

pub(crate) mod postgres;
pub(crate) mod sqlite;

use diesel::QueryResult;
use uuid::Uuid;

use crate::AnyConnection;

/// Applies every pending migration; returns how many ran.
pub(crate) fn run_migrations(conn: &mut AnyConnection) -> Result<usize, String> {
    match conn {
        AnyConnection::Sqlite(lite) => sqlite::run_migrations(lite),
        AnyConnection::Postgresql(pg) => postgres::run_migrations(pg),
    }
}

/// Reverts every applied migration.
pub(crate) fn revert_all_migrations(conn: &mut AnyConnection) -> Result<(), String> {
    match conn {
        AnyConnection::Sqlite(lite) => sqlite::revert_all_migrations(lite),
        AnyConnection::Postgresql(pg) => postgres::revert_all_migrations(pg),
    }
}

/// One hit on counter `name` in the window starting at `window_start`, atomically; the
/// window's count after it.
pub(crate) fn count_hit(
    conn: &mut AnyConnection,
    name: &str,
    window_start: i64,
    expires_at: i64,
) -> QueryResult<i64> {
    match conn {
        AnyConnection::Sqlite(lite) => sqlite::count_hit(lite, name, window_start, expires_at),
        AnyConnection::Postgresql(pg) => postgres::count_hit(pg, name, window_start, expires_at),
    }
}

/// Claims session `id`'s stream lease for `holder` until `lease_until` when it is free, ran out
/// before `now` or is `holder`'s already; the number of rows changed (1 when claimed).
pub(crate) fn claim_stream(
    conn: &mut AnyConnection,
    id: Uuid,
    holder: &str,
    lease_until: i64,
    now: i64,
) -> QueryResult<usize> {
    match conn {
        AnyConnection::Sqlite(lite) => sqlite::claim_stream(lite, id, holder, lease_until, now),
        AnyConnection::Postgresql(pg) => postgres::claim_stream(pg, id, holder, lease_until, now),
    }
}

/// Makes replicas that write for the same `subject` inside a transaction take turns (SQLite's
/// writers already take turns: every write transaction begins `IMMEDIATE`).
pub(crate) fn serialise_subject(conn: &mut AnyConnection, subject: &str) -> QueryResult<()> {
    match conn {
        AnyConnection::Sqlite(_) => Ok(()),
        AnyConnection::Postgresql(pg) => postgres::lock_subject_for_transaction(pg, subject),
    }
}

/// Writes a face's pgvector column inside the caller's transaction (nothing on SQLite, or for
/// a vector of another width than the column's).
pub(crate) fn store_search_vector(
    conn: &mut AnyConnection,
    face_id: &str,
    vector: &[f32],
) -> QueryResult<()> {
    match conn {
        AnyConnection::Sqlite(_) => Ok(()),
        AnyConnection::Postgresql(pg) => postgres::set_search_vector(pg, face_id, vector),
    }
}

/// Whether the schema has the pgvector column (never on SQLite).
pub(crate) fn has_search_vectors(conn: &mut AnyConnection) -> QueryResult<bool> {
    match conn {
        AnyConnection::Sqlite(_) => Ok(false),
        AnyConnection::Postgresql(pg) => postgres::has_search_vector_column(pg),
    }
}
