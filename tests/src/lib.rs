//! Helpers for black-box tests of the real `facegate` binary: the server under test on either
//! backend (`server`, `database`), requests and multipart bodies (one tenant's view of them:
//! `api`), sessions over the WebSocket
//! (`live`), a webhook receiver (`receiver`) and Chromium (`browser`).

pub mod api;
pub mod browser;
pub mod cluster;
pub mod database;
pub mod footage;
pub mod live;
pub mod load;
pub mod palette;
pub mod receiver;
pub mod server;

use std::path::PathBuf;

/// One CPU-heavy test at a time in the black-box executable, held for the whole test: a lit
/// session's rendering camera, Chromium playing a camera, or a three-replica cluster behind
/// HAProxy. Each of them on CI's two cores beside another starves both servers, which then
/// analyse the footage too sparsely to judge (`retry` where the test expects `pass`). Since the
/// black-box tests became one executable (issue 69) they share this one lock; before, each
/// kind had its own per binary.
pub fn exclusive_machine() -> std::sync::MutexGuard<'static, ()> {
    static ONE_HEAVY_TEST: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_HEAVY_TEST
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub use api::Api;
pub use database::{Backend, backends};
pub use server::{
    Server, cli, facegate_binary, free_port, start_server, start_server_on, start_server_unready,
};

/// The face engine on the shipped models, loaded once per test process (the rendering
/// camera finds the face with it).
pub fn engine() -> std::sync::Arc<face_engine::FaceEngine> {
    static ENGINE: std::sync::OnceLock<std::sync::Arc<face_engine::FaceEngine>> =
        std::sync::OnceLock::new();
    ENGINE
        .get_or_init(|| {
            std::sync::Arc::new(
                face_engine::FaceEngine::load(&repo_root().join("models")).expect("models load"),
            )
        })
        .clone()
}

/// The repository root (parent of this package).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
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

/// Sends a request and returns status and JSON body whatever the status (panics when no
/// HTTP answer comes at all; [`load::try_send`] reports that as status 0 instead).
pub fn send(
    method: &str,
    url: &str,
    key: Option<&str>,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> Reply {
    let (status, code, _, body) = load::try_send(method, url, key, content_type, body);
    assert_ne!(status, 0, "{method} {url}: no response ({code})");
    Reply { status, body }
}

/// Reads `read` every 200 ms until `done` holds of what it read, and returns that; panics with
/// `what` and the last reading once `within` has passed.
pub fn poll_until<T: std::fmt::Debug>(
    what: &str,
    within: std::time::Duration,
    mut read: impl FnMut() -> T,
    done: impl Fn(&T) -> bool,
) -> T {
    let deadline = std::time::Instant::now() + within;
    loop {
        let reading = read();
        if done(&reading) {
            return reading;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{what}: not within {within:?}; last read {reading:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// A JSON request body with its content type, for [`send`].
pub fn json_body(value: serde_json::Value) -> (Option<&'static str>, Vec<u8>) {
    (Some("application/json"), value.to_string().into_bytes())
}

/// Starts a server that delivers webhooks to receivers on loopback signed by `ca`, polling the
/// outbox every 100 ms.
pub fn start_webhook_server(ca: &receiver::TestCa) -> Server {
    start_webhook_server_on(Backend::Sqlite, ca)
}

/// [`start_webhook_server`] on a fresh database of `backend`.
pub fn start_webhook_server_on(backend: Backend, ca: &receiver::TestCa) -> Server {
    start_server_on(
        backend,
        &[
            ("FACEGATE__WEBHOOKS__ALLOWED_NETWORKS", "127.0.0.0/8"),
            (
                "FACEGATE__WEBHOOKS__CA_FILE",
                ca.ca_file.to_str().expect("utf-8 path"),
            ),
            ("FACEGATE__WEBHOOKS__POLL_INTERVAL_MS", "100"),
        ],
    )
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

/// `GET /api/v1/session/{id}/result?token=`: the result as the browser's token reads it. One
/// read: a verdict the client was shown is stored before it was sent (issue 67).
pub fn session_result(server: &Server, id: &str, token: &str) -> Reply {
    get(
        &format!(
            "{}/api/v1/session/{id}/result?token={token}",
            server.base_url
        ),
        None,
    )
}

/// `GET /api/v1/session/{id}/result` with the tenant's API key: the result with its layers and
/// reasons, which the browser's token never reads. One read, as [`session_result`].
pub fn keyed_session_result(server: &Server, id: &str, key: &str) -> Reply {
    get(
        &format!("{}/api/v1/session/{id}/result", server.base_url),
        Some(key),
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

/// The text `/metrics` of the server at `base_url` serves.
pub fn scrape_metrics(base_url: &str) -> String {
    ureq::get(&format!("{base_url}/metrics"))
        .call()
        .expect("metrics")
        .body_mut()
        .read_to_string()
        .expect("text")
}

/// The value of the sample `name` (with its labels, as written) in metrics `text`, if present.
pub fn metric_sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}
