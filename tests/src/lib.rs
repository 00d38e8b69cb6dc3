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
    data_dir: tempfile::TempDir,
}

impl Server {
    /// The SQLite file this server uses.
    pub fn database_url(&self) -> String {
        self.data_dir
            .path()
            .join("facegate.db")
            .to_string_lossy()
            .into_owned()
    }
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
        // tests fire requests faster than the default per-key limit; the limit test overrides
        .env("FACEGATE__RATE_LIMIT__PER_SECOND", "10000")
        .env("FACEGATE__RATE_LIMIT__PER_MINUTE", "100000")
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
        data_dir,
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

/// One multipart part: a file (name, bytes) or a text value.
#[derive(Debug, Clone)]
pub enum Part {
    File(String, Vec<u8>),
    Text(String),
}

/// Encodes `fields` as multipart/form-data; returns the content type and the body.
pub fn multipart(fields: &[(&str, Part)]) -> (String, Vec<u8>) {
    let boundary = "facegate-test-boundary-7f3a9c";
    let mut body = Vec::new();
    for (name, part) in fields {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match part {
            Part::File(filename, bytes) => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
                );
                body.extend_from_slice(bytes);
            }
            Part::Text(value) => {
                body.extend_from_slice(
                    format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}")
                        .as_bytes(),
                );
            }
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A test image from `../shared/testdata` as a file part.
pub fn testdata_file(relative: &str) -> Part {
    let path = repo_root().join("../shared/testdata").join(relative);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Part::File(
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        bytes,
    )
}

/// Runs `facegate keys create --tenant NAME` against the server's database; returns the key.
pub fn create_key(server: &Server, tenant: &str) -> String {
    let output = Command::new(facegate_binary())
        .args(["keys", "create", "--tenant", tenant])
        .current_dir(repo_root())
        .env("FACEGATE__DATABASE__URL", server.database_url())
        .output()
        .expect("keys create");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .last()
        .expect("key line")
        .trim()
        .to_owned()
}

/// A response reduced to what tests look at.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: serde_json::Value,
}

impl Reply {
    /// The stable error code of an error body.
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or_default()
    }
}

/// Sends a request and returns status and JSON body whatever the status.
pub fn send(
    method: &str,
    url: &str,
    key: Option<&str>,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> Reply {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut request = ureq::http::Request::builder().method(method).uri(url);
    if let Some(key) = key {
        request = request.header("Authorization", format!("Bearer {key}"));
    }
    if let Some(ct) = content_type {
        request = request.header("Content-Type", ct);
    }
    let request = request.body(body).expect("request");
    let mut response = agent.run(request).expect("response");
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(64 * 1024 * 1024)
        .read_to_string()
        .unwrap_or_default();
    Reply {
        status,
        body: serde_json::from_str(&text).unwrap_or(serde_json::Value::Null),
    }
}

/// A JSON request body with its content type, for [`send`].
pub fn json_body(value: serde_json::Value) -> (Option<&'static str>, Vec<u8>) {
    (Some("application/json"), value.to_string().into_bytes())
}
