//! The SQL written by hand, for both databases: the statements both accept as written (the
//! counter and lease upserts) here, and what differs in one file per backend (as svix keeps
//! one file per queue backend): [`postgres`] and [`sqlite`]. Repositories call the functions
//! here, which pick the backend by the connection; no repository names a backend.

pub(crate) mod postgres;
pub(crate) mod sqlite;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
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

/// Runs `$body` with `$c` bound to the connection of whichever backend `$conn` is: for
/// statements whose SQL both databases accept as written.
macro_rules! on_either_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            AnyConnection::Sqlite($c) => $body,
            AnyConnection::Postgresql($c) => $body,
        }
    };
}

/// The statements both databases accept as written. Their parameters are `$1`, `$2`, … in the
/// order they first appear: PostgreSQL numbers them so, and SQLite takes `$1` as a named
/// parameter and numbers named parameters by first appearance, so the binds line up on both.
const COUNT_HIT: &str = "INSERT INTO request_counters (name, window_start, hits, expires_at) \
     VALUES ($1, $2, 1, $3) ON CONFLICT (name, window_start) \
     DO UPDATE SET hits = request_counters.hits + 1 RETURNING hits";
const CLAIM_STREAM: &str = "INSERT INTO session_streams (session_id, holder, lease_until) \
     VALUES ($1, $2, $3) ON CONFLICT (session_id) DO UPDATE SET holder = excluded.holder, \
     lease_until = excluded.lease_until \
     WHERE session_streams.lease_until < $4 OR session_streams.holder = excluded.holder";

#[derive(QueryableByName)]
struct Hits {
    #[diesel(sql_type = BigInt)]
    hits: i64,
}

/// One hit on counter `name` in the window starting at `window_start`, atomically; the
/// window's count after it.
pub(crate) fn count_hit(
    conn: &mut AnyConnection,
    name: &str,
    window_start: i64,
    expires_at: i64,
) -> QueryResult<i64> {
    let query = diesel::sql_query(COUNT_HIT)
        .bind::<Text, _>(name)
        .bind::<BigInt, _>(window_start)
        .bind::<BigInt, _>(expires_at);
    on_either_backend!(conn, |c| query.get_result::<Hits>(c).map(|row| row.hits))
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
    let query = diesel::sql_query(CLAIM_STREAM)
        .bind::<Text, _>(id.to_string())
        .bind::<Text, _>(holder)
        .bind::<BigInt, _>(lease_until)
        .bind::<BigInt, _>(now);
    on_either_backend!(conn, |c| query.execute(c))
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
