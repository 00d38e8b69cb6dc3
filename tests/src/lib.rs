//! Helpers for black-box tests of the real `facegate` binary: building it once, starting it on
//! a free port with a temporary database, and waiting for `/healthz`.

pub mod browser;
pub mod live;
pub mod receiver;

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
    port: u16,
    env: Vec<(String, String)>,
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

    /// SIGKILLs the process (no shutdown at all) and starts it again on the same database and
    /// port, waiting for `/healthz`.
    pub fn kill_and_restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.child = spawn(self.port, self.data_dir.path(), &self.env);
        wait_healthy(&self.base_url, &mut self.child);
    }

    /// Starts the process again after it was stopped some other way (for example SIGTERM).
    pub fn restart(&mut self) {
        self.child = spawn(self.port, self.data_dir.path(), &self.env);
        wait_healthy(&self.base_url, &mut self.child);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn(port: u16, data_dir: &std::path::Path, env: &[(String, String)]) -> Child {
    let mut command = Command::new(facegate_binary());
    command
        .current_dir(repo_root())
        .env("FACEGATE__SERVER__BIND", format!("127.0.0.1:{port}"))
        // tests fire requests faster than the default per-key limit; the limit test overrides
        .env("FACEGATE__RATE_LIMIT__PER_SECOND", "10000")
        .env("FACEGATE__RATE_LIMIT__PER_MINUTE", "100000")
        .env("FACEGATE__DATABASE__URL", data_dir.join("facegate.db"))
        // the suites refuse credentials on purpose; tests/token_guessing.rs turns this on
        .env("FACEGATE__SECURITY__FAILED_CREDENTIALS_PER_MINUTE", "0")
        .stdout(Stdio::null())
        .stderr(if std::env::var_os("FACEGATE_TEST_SERVER_LOG").is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        });
    for (k, v) in env {
        command.env(k, v);
    }
    command.spawn().expect("facegate starts")
}

fn wait_healthy(base_url: &str, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let healthy = ureq::get(&format!("{base_url}/healthz"))
            .call()
            .is_ok_and(|response| response.status() == 200);
        if healthy {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("facegate exited during start-up: {status}");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("facegate did not answer /healthz within 60 s");
}

/// Starts the binary with a temporary SQLite database on a free port and waits until
/// `/healthz` answers 200 (at most 60 s).
pub fn start_server(extra_env: &[(&str, &str)]) -> Server {
    let mut server = start_server_unready(extra_env);
    wait_healthy(&server.base_url, &mut server.child);
    server
}

/// Starts the binary without waiting for it to be healthy (start-up tests).
pub fn start_server_unready(extra_env: &[(&str, &str)]) -> Server {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let env: Vec<(String, String)> = extra_env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let child = spawn(port, data_dir.path(), &env);
    Server {
        child,
        base_url: format!("http://127.0.0.1:{port}"),
        port,
        env,
        data_dir,
    }
}

/// Runs a `facegate` CLI command against the server's database; returns stdout's last line.
pub fn cli(server: &Server, args: &[&str]) -> String {
    let output = Command::new(facegate_binary())
        .args(args)
        .current_dir(repo_root())
        .env("FACEGATE__DATABASE__URL", server.database_url())
        .output()
        .expect("facegate cli");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .trim()
        .to_owned()
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
    cli(server, &["keys", "create", "--tenant", tenant])
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

/// Starts a server that delivers webhooks to receivers on loopback signed by `ca`, polling the
/// outbox every 100 ms.
pub fn start_webhook_server(ca: &receiver::TestCa) -> Server {
    start_server(&[
        ("FACEGATE__WEBHOOKS__ALLOWED_NETWORKS", "127.0.0.0/8"),
        (
            "FACEGATE__WEBHOOKS__CA_FILE",
            ca.ca_file.to_str().expect("utf-8 path"),
        ),
        ("FACEGATE__WEBHOOKS__POLL_INTERVAL_MS", "100"),
    ])
}

/// `POST /api/v1/managed-session` with `body`; asserts 201 and returns the answer.
pub fn create_managed_session(
    server: &Server,
    key: &str,
    body: serde_json::Value,
) -> serde_json::Value {
    create_managed_session_at(&server.base_url, key, body)
}

/// `POST /api/v1/managed-session` with `body`, whatever the answer.
pub fn post_managed_session(server: &Server, key: &str, body: serde_json::Value) -> Reply {
    post_managed_session_at(&server.base_url, key, body)
}

fn post_managed_session_at(base_url: &str, key: &str, body: serde_json::Value) -> Reply {
    let (ct, bytes) = json_body(body);
    let url = format!("{base_url}/api/v1/managed-session");
    send("POST", &url, Some(key), ct, bytes)
}

/// [`create_managed_session`] against any base URL.
pub fn create_managed_session_at(
    base_url: &str,
    key: &str,
    body: serde_json::Value,
) -> serde_json::Value {
    let reply = post_managed_session_at(base_url, key, body);
    assert_eq!(reply.status, 201, "{:?}", reply.body);
    reply.body
}

/// `GET /api/v1/session/{id}/result?token=`: the result as the browser's token reads it.
pub fn session_result(server: &Server, id: &str, token: &str) -> Reply {
    get(
        &format!(
            "{}/api/v1/session/{id}/result?token={token}",
            server.base_url
        ),
        None,
    )
}

/// GETs `url` and returns the status and the raw body (for images).
pub fn get_bytes(url: &str) -> (u16, Vec<u8>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut response = agent.get(url).call().expect("response");
    let status = response.status().as_u16();
    let bytes = response
        .body_mut()
        .with_config()
        .limit(16 << 20)
        .read_to_vec()
        .unwrap_or_default();
    (status, bytes)
}

/// `GET url` (with the API key when given), as a [`Reply`].
pub fn get(url: &str, key: Option<&str>) -> Reply {
    send("GET", url, key, None, Vec::new())
}

/// The `session_id` and `token` of a create answer.
pub fn id_and_token(created: &serde_json::Value) -> (String, String) {
    (
        created["session_id"]
            .as_str()
            .expect("session_id")
            .to_owned(),
        created["token"].as_str().expect("token").to_owned(),
    )
}
