//! Helpers for black-box tests of the real `facegate` binary: building it once, starting it on
//! a free port with a temporary database, and waiting for `/healthz`.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The repository root (parent of this package).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Path of the `facegate` binary of the current profile, built on first use.
pub fn facegate_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "-q", "-p", "facegate"])
                .current_dir(repo_root())
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building facegate failed");
            // target/<profile>/deps/<this test> -> target/<profile>/facegate
            let exe = std::env::current_exe().expect("test binary path");
            let profile_dir = exe
                .parent()
                .and_then(|p| p.parent())
                .expect("target/<profile>");
            profile_dir.join("facegate")
        })
        .clone()
}

/// A free TCP port on loopback.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// A running `facegate serve`, killed on drop.
#[derive(Debug)]
pub struct Server {
    pub child: Child,
    pub base_url: String,
    _data_dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary with a temporary SQLite database on a free port and waits until
/// `/healthz` answers 200 (at most 60 s).
pub fn start_server(extra_env: &[(&str, &str)]) -> Server {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let mut command = Command::new(facegate_binary());
    command
        .current_dir(repo_root())
        .env("FACEGATE__SERVER__BIND", format!("127.0.0.1:{port}"))
        .env(
            "FACEGATE__DATABASE__URL",
            data_dir.path().join("facegate.db"),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (k, v) in extra_env {
        command.env(k, v);
    }
    let child = command.spawn().expect("facegate starts");
    let server = Server {
        child,
        base_url: format!("http://127.0.0.1:{port}"),
        _data_dir: data_dir,
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let healthy = ureq::get(&format!("{}/healthz", server.base_url))
            .call()
            .is_ok_and(|response| response.status() == 200);
        if healthy {
            return server;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("facegate did not answer /healthz within 60 s");
}
