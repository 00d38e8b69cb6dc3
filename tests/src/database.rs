//! The database a test server runs on: a SQLite file in the server's temporary folder, or a
//! fresh PostgreSQL database on the server named by `FACEGATE_TEST_DATABASE_URL` (created with
//! `psql`, dropped when the test ends). Under `CI=true` PostgreSQL cannot be skipped.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// Which store a test server uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// The backends this run tests: SQLite always, PostgreSQL when `FACEGATE_TEST_DATABASE_URL` is
/// set. Under `CI=true` a missing URL fails the test: CI must not pass by skipping.
pub fn backends() -> Vec<Backend> {
    if std::env::var_os("FACEGATE_TEST_DATABASE_URL").is_some() {
        return vec![Backend::Sqlite, Backend::Postgres];
    }
    assert!(
        !in_ci(),
        "CI=true but FACEGATE_TEST_DATABASE_URL is not set: the PostgreSQL half cannot skip in CI"
    );
    eprintln!("FACEGATE_TEST_DATABASE_URL not set: PostgreSQL half of this battery skipped");
    vec![Backend::Sqlite]
}

/// One test database, dropped (PostgreSQL) with its owner.
#[derive(Debug)]
pub struct TestDatabase {
    pub url: String,
    postgres: Option<(String, String)>,
}

impl TestDatabase {
    /// A new database for `backend`; SQLite's file lives in `data_dir`.
    pub fn create(backend: Backend, data_dir: &Path) -> Self {
        match backend {
            Backend::Sqlite => Self {
                url: data_dir.join("facegate.db").to_string_lossy().into_owned(),
                postgres: None,
            },
            Backend::Postgres => {
                let admin = std::env::var("FACEGATE_TEST_DATABASE_URL")
                    .expect("FACEGATE_TEST_DATABASE_URL for a PostgreSQL test server");
                static NEXT: AtomicU64 = AtomicU64::new(0);
                let name = format!(
                    "facegate_bb_{}_{}",
                    std::process::id(),
                    NEXT.fetch_add(1, Ordering::Relaxed)
                );
                psql(
                    &admin,
                    &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
                );
                psql(&admin, &format!("CREATE DATABASE {name}"));
                let mut url = url::Url::parse(&admin).expect("FACEGATE_TEST_DATABASE_URL parses");
                url.set_path(&name);
                Self {
                    url: url.to_string(),
                    postgres: Some((admin, name)),
                }
            }
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        if let Some((admin, name)) = &self.postgres {
            psql(
                admin,
                &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            );
        }
    }
}

fn psql(admin_url: &str, statement: &str) {
    let output = Command::new("psql")
        .args([admin_url, "-v", "ON_ERROR_STOP=1", "-qc", statement])
        .output()
        .expect("psql runs");
    assert!(
        output.status.success(),
        "psql {statement}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
