//! Load for the scale-out tests and the mixed-load generator: requests that never panic on a
//! broken connection (status 0 then), and worker threads that repeat an operation until told
//! to stop, keeping every outcome with its time, latency, status, error code and
//! `Retry-After`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One request's outcome.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The operation's name.
    pub op: &'static str,
    /// When it started, from the load's start.
    pub started: Duration,
    pub latency: Duration,
    /// 0 when no HTTP answer came (connection refused or reset).
    pub status: u16,
    /// The error body's `error.code`, or the transport error.
    pub code: String,
    pub retry_after: Option<String>,
    pub body: serde_json::Value,
}

impl Outcome {
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Sends one request; a transport failure is status 0 with its message as the code.
pub fn try_send(
    method: &str,
    url: &str,
    key: Option<&str>,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> (u16, String, Option<String>, serde_json::Value) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into();
    let mut request = ureq::http::Request::builder().method(method).uri(url);
    if let Some(key) = key {
        request = request.header("Authorization", format!("Bearer {key}"));
    }
    if let Some(ct) = content_type {
        request = request.header("Content-Type", ct);
    }
    let Ok(request) = request.body(body) else {
        return (0, "bad request".into(), None, serde_json::Value::Null);
    };
    match agent.run(request) {
        Ok(mut response) => {
            let status = response.status().as_u16();
            let retry_after = response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let text = response
                .body_mut()
                .with_config()
                .limit(64 << 20)
                .read_to_string()
                .unwrap_or_default();
            let body = serde_json::from_str(&text).unwrap_or(serde_json::Value::Null);
            let code = body["error"]["code"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            (status, code, retry_after, body)
        }
        Err(e) => (0, e.to_string(), None, serde_json::Value::Null),
    }
}

/// Photos with one face each, for load.
pub const PHOTOS: [&str; 4] = [
    "identities/tv-cast/penny/penny1.png",
    "identities/tv-cast/raj/raj1.png",
    "identities/tv-cast/amy/amy1.png",
    "identities/tv-cast/howard/howard1.png",
];

/// Indexes the face of `photo` (under `../shared/testdata`) into `collection` as
/// `external_id`, without the quality filter.
pub fn index_face(
    base: &str,
    key: &str,
    collection: &str,
    photo: &str,
    external_id: &str,
) -> Answer {
    let (ct, body) = crate::multipart(&[
        ("image", crate::testdata_file(photo)),
        ("external_face_id", crate::Part::Text(external_id.into())),
        ("quality_filter", crate::Part::Text("none".into())),
    ]);
    let url = format!("{base}/api/v2/collections/{collection}/faces");
    try_send("POST", &url, Some(key), Some(&ct), body)
}

/// Searches `collection` with the face of `photo`, top 5.
pub fn search_by_image(base: &str, key: &str, collection: &str, photo: &str) -> Answer {
    let (ct, body) = crate::multipart(&[("image", crate::testdata_file(photo))]);
    let url = format!("{base}/api/v2/collections/{collection}/search-by-image?max_faces=5");
    try_send("POST", &url, Some(key), Some(&ct), body)
}

/// Compares the faces of two photos.
pub fn compare(base: &str, key: &str, source: &str, target: &str) -> Answer {
    let (ct, body) = crate::multipart(&[
        ("source_image", crate::testdata_file(source)),
        ("target_image", crate::testdata_file(target)),
    ]);
    try_send(
        "POST",
        &format!("{base}/api/v2/faces:compare"),
        Some(key),
        Some(&ct),
        body,
    )
}

/// Worker threads repeating operations until [`Load::stop`].
#[derive(Debug)]
pub struct Load {
    start: Instant,
    stop: Arc<AtomicBool>,
    outcomes: Arc<Mutex<Vec<Outcome>>>,
    workers: Vec<JoinHandle<()>>,
}

/// What an operation returns: status, code, Retry-After and body (see [`try_send`]).
pub type Answer = (u16, String, Option<String>, serde_json::Value);

impl Load {
    pub fn new() -> Self {
        Self {
            start: Instant::now(),
            stop: Arc::new(AtomicBool::new(false)),
            outcomes: Arc::new(Mutex::new(Vec::new())),
            workers: Vec::new(),
        }
    }

    /// Adds a thread that calls `operation(n)` for n = 0, 1, … until stopped.
    pub fn spawn(
        &mut self,
        op: &'static str,
        operation: impl FnMut(usize) -> Answer + Send + 'static,
    ) {
        self.spawn_paced(op, Duration::ZERO, operation);
    }

    /// Like [`Load::spawn`], resting `pause` between calls (not counted in the latency).
    pub fn spawn_paced(
        &mut self,
        op: &'static str,
        pause: Duration,
        mut operation: impl FnMut(usize) -> Answer + Send + 'static,
    ) {
        let (start, stop, outcomes) = (self.start, self.stop.clone(), self.outcomes.clone());
        self.workers.push(std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let began = Instant::now();
                let (status, code, retry_after, body) = operation(n);
                outcomes
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(Outcome {
                        op,
                        started: began - start,
                        latency: began.elapsed(),
                        status,
                        code,
                        retry_after,
                        body,
                    });
                n += 1;
                if !pause.is_zero() {
                    std::thread::sleep(pause);
                }
            }
        }));
    }

    /// Time since the load began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Outcomes so far.
    pub fn outcomes(&self) -> Vec<Outcome> {
        self.outcomes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Stops every thread after its current request and returns all outcomes.
    pub fn stop(self) -> Vec<Outcome> {
        self.stop.store(true, Ordering::Relaxed);
        for worker in self.workers {
            let _ = worker.join();
        }
        self.outcomes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Default for Load {
    fn default() -> Self {
        Self::new()
    }
}

/// The `q`-quantile (0..=1) of `values` in milliseconds (0 when empty).
pub fn quantile_ms(values: &[Duration], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted: Vec<f64> = values.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    sorted.sort_by(f64::total_cmp);
    let index = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}
