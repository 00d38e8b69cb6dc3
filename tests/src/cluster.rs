//! The scale-out topology under test: `scripts/cluster.sh` starts a private PostgreSQL with
//! pgvector, several `facegate` replicas on it and HAProxy in front; this handle runs the
//! script's fault commands (SIGKILL, SIGTERM, rolling restart, database stop and start) and
//! tears everything down on drop.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::MutexGuard;

use crate::repo_root;
use crate::server::facegate_binary;

/// One topology at a time per test binary: each is three model-loading processes on 2 cores.
/// A running topology; `down` on drop.
#[derive(Debug)]
pub struct Cluster {
    dir: PathBuf,
    env: Vec<(String, String)>,
    values: HashMap<String, String>,
    /// The balancer's base URL.
    pub lb_url: String,
    /// Each replica's own base URL (1-based in the script, 0-based here).
    pub replica_urls: Vec<String>,
    _turn: MutexGuard<'static, ()>,
}

impl Cluster {
    /// Starts `replicas` replicas behind HAProxy with `extra_env` settings on every replica.
    pub fn up(replicas: usize, extra_env: &[(&str, &str)]) -> Self {
        let turn = crate::exclusive_machine();
        let dir = tempfile::Builder::new()
            .prefix("facegate-cluster-")
            .tempdir()
            .expect("temp dir")
            .keep();
        let mut env: Vec<(String, String)> = vec![
            // tests fire requests faster than the default per-key limit
            ("FACEGATE__RATE_LIMIT__PER_SECOND".into(), "10000".into()),
            ("FACEGATE__RATE_LIMIT__PER_MINUTE".into(), "100000".into()),
            (
                "FACEGATE__SECURITY__FAILED_CREDENTIALS_PER_MINUTE".into(),
                "0".into(),
            ),
            (
                "FACEGATE_BIN".into(),
                facegate_binary().to_string_lossy().into_owned(),
            ),
        ];
        env.extend(
            extra_env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        let mut cluster = Self {
            dir,
            env,
            values: HashMap::new(),
            lb_url: String::new(),
            replica_urls: Vec::new(),
            _turn: turn,
        };
        cluster.script(&["up", &replicas.to_string()]);
        cluster.values = read_env(&cluster.dir.join("cluster.env"));
        cluster.lb_url = cluster.value("LB_URL");
        cluster.replica_urls = (1..=replicas)
            .map(|i| {
                format!(
                    "http://127.0.0.1:{}",
                    cluster.value(&format!("REPLICA_{i}_PORT"))
                )
            })
            .collect();
        cluster
    }

    fn value(&self, name: &str) -> String {
        self.values
            .get(name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} missing from cluster.env"))
    }

    /// The deployment's database URL.
    pub fn database_url(&self) -> String {
        self.value("DATABASE_URL")
    }

    fn script(&self, args: &[&str]) {
        let mut all = vec![args[0], self.dir.to_str().expect("utf-8 dir")];
        all.extend_from_slice(&args[1..]);
        let output = Command::new("bash")
            .arg(repo_root().join("scripts/cluster.sh"))
            .args(&all)
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .output()
            .expect("bash runs");
        assert!(
            output.status.success(),
            "cluster.sh {all:?} failed:\n{}\n{}\nlogs:\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            self.logs()
        );
    }

    /// Replica `i`'s (0-based) log so far.
    pub fn replica_log(&self, i: usize) -> String {
        read_lossy(&self.dir.join(format!("replica-{}.log", i + 1)))
    }

    /// Every replica's log, for failure messages.
    pub fn logs(&self) -> String {
        (0..self.replica_urls.len().max(1))
            .map(|i| format!("--- replica {}\n{}", i + 1, tail(&self.replica_log(i), 40)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Replica `i`'s process id, while it runs.
    pub fn replica_pid(&self, i: usize) -> Option<u32> {
        std::fs::read_to_string(self.dir.join(format!("replica-{}.pid", i + 1)))
            .ok()
            .and_then(|p| p.trim().parse().ok())
    }

    /// SIGKILLs replica `i` (0-based): no shutdown at all.
    pub fn kill(&self, i: usize) {
        self.script(&["kill", &(i + 1).to_string()]);
    }

    /// Starts replica `i` again and waits until the balancer sends it traffic.
    pub fn start(&self, i: usize) {
        self.script(&["start", &(i + 1).to_string()]);
    }

    /// Drains, stops (SIGTERM) and restarts every replica in turn.
    pub fn rolling_restart(&self) {
        self.script(&["rolling"]);
    }

    /// Stops the PostgreSQL server (fast shutdown: sessions are cut).
    pub fn stop_database(&self) {
        self.script(&["db-stop"]);
    }

    /// Starts the PostgreSQL server again on the same port.
    pub fn start_database(&self) {
        self.script(&["db-start"]);
    }

    /// Runs a `facegate` CLI command against the deployment's database with its secret.
    pub fn cli(&self, args: &[&str]) -> String {
        let secret = read_lossy(&self.dir.join("server_secret"));
        let env = [
            ("FACEGATE__DATABASE__URL".to_owned(), self.database_url()),
            (
                "FACEGATE__SECURITY__SERVER_SECRET".to_owned(),
                secret.trim().to_owned(),
            ),
        ];
        crate::server::run_cli(&env, args)
    }

    /// A new API key of `tenant`.
    pub fn create_key(&self, tenant: &str) -> String {
        self.cli(&["keys", "create", "--tenant", tenant])
    }

    /// Starts one more `facegate serve` on the deployment's database (not behind the balancer)
    /// with `env` on top, and returns its exit status and log once it ends or `wait` passes.
    pub fn try_extra_replica(&self, env: &[(&str, &str)], wait: std::time::Duration) -> String {
        let secret = read_lossy(&self.dir.join("server_secret"));
        let port = crate::server::free_port();
        let log = self.dir.join(format!("extra-{port}.log"));
        let mut child = Command::new(facegate_binary())
            .arg("serve")
            .current_dir(repo_root())
            .env("FACEGATE__SERVER__BIND", format!("127.0.0.1:{port}"))
            .env("FACEGATE__DATABASE__URL", self.database_url())
            .env("FACEGATE__SECURITY__SERVER_SECRET", secret.trim())
            .envs(env.iter().copied())
            .stdout(std::fs::File::create(&log).expect("log file"))
            .stderr(
                std::fs::File::options()
                    .append(true)
                    .open(&log)
                    .expect("log"),
            )
            .spawn()
            .expect("facegate starts");
        let deadline = std::time::Instant::now() + wait;
        let status = loop {
            if let Ok(Some(status)) = child.try_wait() {
                break format!("exited: {status}");
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                break "still running".to_owned();
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        };
        format!("{status}\n{}", read_lossy(&log))
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(repo_root().join("scripts/cluster.sh"))
            .args(["down", self.dir.to_str().unwrap_or_default()])
            .status();
    }
}

fn read_lossy(path: &Path) -> String {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// `NAME=value` or `NAME='value'` lines of the script's `cluster.env`.
fn read_env(path: &Path) -> HashMap<String, String> {
    read_lossy(path)
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.trim_matches('\'').to_owned()))
        .collect()
}
