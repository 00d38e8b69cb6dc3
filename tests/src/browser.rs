//! Real Chromium for the web-UI tests: `tests/browser/run.mjs` (playwright-core) drives Debian's
//! `/usr/bin/chromium` through one scenario and prints a JSON report; fake cameras are y4m files
//! made with ffmpeg from the shared videos and photos, cached per process in a temp folder.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, OnceLock};

use crate::{Server, repo_root};

/// Under `CI=true` a missing browser fails; elsewhere the browser tests skip and say so.
fn in_ci() -> bool {
    matches!(std::env::var("CI").as_deref(), Ok("true" | "1"))
}

/// The browser, held for one whole test: `None` (outside CI only) means Chromium or the driver
/// is missing, so skip. It is [`crate::exclusive_machine`]: holding it for the test, not only
/// while `node` runs, keeps another heavy test (its own server, its own socket streams) from
/// competing for CI's two cores with the footage a camera is playing: starved, the server
/// analyses that footage too sparsely to judge and the session ends in `retry`.
pub fn exclusive_browser() -> Option<MutexGuard<'static, ()>> {
    let guard = crate::exclusive_machine();
    browser_available().then_some(guard)
}

/// Chromium and the driver are here (installing the driver's npm packages when the lock file
/// allows). `false` (outside CI only) means: skip.
fn browser_available() -> bool {
    static READY: OnceLock<Result<(), String>> = OnceLock::new();
    let ready = READY.get_or_init(|| {
        let chromium = std::env::var("FACEGATE_CHROMIUM").unwrap_or("/usr/bin/chromium".into());
        if !Path::new(&chromium).exists() {
            return Err(format!("{chromium} is missing (apt-get install chromium)"));
        }
        let dir = repo_root().join("tests/browser");
        if !dir.join("node_modules/playwright-core").is_dir() {
            let status = Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--silent"])
                .current_dir(&dir)
                .status()
                .map_err(|e| format!("npm: {e}"))?;
            if !status.success() {
                return Err("npm ci in tests/browser failed".into());
            }
        }
        Ok(())
    });
    match ready {
        Ok(()) => true,
        Err(why) if in_ci() => panic!("CI: the browser tests cannot run: {why}"),
        Err(why) => {
            eprintln!("skipping a browser test: {why}");
            false
        }
    }
}

/// A y4m fake camera (640×480, 15 fps) playing `seconds` of a shared video from `start_s`.
pub fn video_camera(video: &str, start_s: f32, seconds: f32) -> PathBuf {
    let source = repo_root().join(format!("../shared/testdata/videos/{video}.mp4"));
    let name = format!("{video}-{start_s}-{seconds}.y4m");
    cached(&name, |out| {
        let mut command = Command::new("ffmpeg");
        command
            .args(["-v", "error", "-y", "-ss", &start_s.to_string(), "-i"])
            .arg(&source)
            .args(["-t", &seconds.to_string()])
            .args([
                "-vf",
                "scale=640:480:force_original_aspect_ratio=increase,crop=640:480",
            ])
            .args(["-r", "15", "-pix_fmt", "yuv420p"])
            .arg(out);
        command
    })
}

/// A y4m fake camera showing one still photo (the attack of a photo held to the camera).
pub fn photo_camera(relative: &str) -> PathBuf {
    let source = repo_root().join("../shared/testdata").join(relative);
    let name = format!("{}.y4m", relative.replace('/', "_"));
    cached(&name, |out| {
        let mut command = Command::new("ffmpeg");
        command
            .args(["-v", "error", "-y", "-loop", "1", "-i"])
            .arg(&source)
            .args(["-t", "4"])
            .args([
                "-vf",
                "scale=640:480:force_original_aspect_ratio=decrease,pad=640:480:(ow-iw)/2:(oh-ih)/2",
            ])
            .args(["-r", "15", "-pix_fmt", "yuv420p"])
            .arg(out);
        command
    })
}

/// Makes `name` once per process in a private folder (written to a temporary name, then
/// renamed, so a reader never sees half a file).
fn cached(name: &str, make: impl FnOnce(&Path) -> Command) -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    static LOCK: Mutex<()> = Mutex::new(());
    let _one_at_a_time = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dir = DIR.get_or_init(|| tempfile::tempdir().expect("camera folder"));
    let path = dir.path().join(name);
    if path.exists() {
        return path;
    }
    let staging = dir.path().join(format!("{name}.partial.y4m"));
    let status = make(&staging)
        .status()
        .expect("ffmpeg is installed (.ci/run installs it)");
    assert!(status.success(), "ffmpeg could not make {name}");
    std::fs::rename(&staging, &path).expect("rename camera file");
    path
}

/// Where screenshots go: `docs/ui/` when `FACEGATE_UPDATE_SCREENSHOTS=1` (how the docs'
/// pictures are refreshed), else a folder that is thrown away.
pub fn screenshot_dir() -> PathBuf {
    if std::env::var("FACEGATE_UPDATE_SCREENSHOTS").as_deref() == Ok("1") {
        return repo_root().join("docs/ui");
    }
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().expect("screenshot folder"))
        .path()
        .to_owned()
}

/// Runs one scenario (see `tests/browser/run.mjs`) and returns its report. The caller holds
/// [`exclusive_browser`].
pub fn run_scenario(scenario: &serde_json::Value) -> serde_json::Value {
    run_browser_script("run.mjs", scenario)
}

/// Runs `tests/browser/{script}` on `scenario` and returns the JSON report on its last line
/// (panicking with its output when there is none, or when it reports an `error`). The caller
/// holds [`exclusive_browser`].
pub fn run_browser_script(script: &str, scenario: &serde_json::Value) -> serde_json::Value {
    let file = tempfile::NamedTempFile::new().expect("scenario file");
    std::fs::write(file.path(), scenario.to_string()).expect("write scenario");
    let output = Command::new("node")
        .arg(repo_root().join("tests/browser").join(script))
        .arg(file.path())
        .current_dir(repo_root().join("tests/browser"))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report = stdout
        .lines()
        .rev()
        .find_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .unwrap_or_else(|| {
            panic!("no report from the browser\nstdout: {stdout}\nstderr: {stderr}")
        });
    assert!(
        report.get("error").is_none(),
        "browser script {script} ({}) failed: {}\nreport: {report:#}",
        scenario["name"],
        report["error"]
    );
    report
}

/// Asserts that no axe-core audit of the report found a serious or critical violation.
pub fn assert_accessible(report: &serde_json::Value) {
    for audit in report["axe"].as_array().into_iter().flatten() {
        for violation in audit["violations"].as_array().into_iter().flatten() {
            assert!(
                !matches!(violation["impact"].as_str(), Some("serious" | "critical")),
                "axe on screen {}: {violation}",
                audit["screen"]
            );
        }
    }
}

/// Asserts that the page logged no error (a CSP violation is logged as one).
pub fn assert_no_console_errors(report: &serde_json::Value) {
    let errors = report["console_errors"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// Asserts that the page's flow ended `pass`; when it did not, the message carries the layers of
/// the session's API-key result, which say why (the page never sees them).
pub fn assert_page_passed(report: &serde_json::Value, server: &Server, id: &str, key: &str) {
    if report["verdict"] != "pass" {
        let keyed = crate::keyed_session_result(server, id, key);
        panic!(
            "verdict {}: {report:#}\nlayers: {:#}",
            report["verdict"], keyed.body["layers"]
        );
    }
}

/// Asserts that the page showed the server's light sequence (at least 6 colours), colour by
/// colour, in order, as the `illumination` message sent it.
pub fn assert_light_sequence_shown(report: &serde_json::Value) {
    let sent = &report["illumination"];
    assert!(
        sent["colors"].as_array().is_some_and(|c| c.len() >= 6),
        "{report:#}"
    );
    assert_eq!(report["light_shown"], sent["colors"], "{report:#}");
}

/// The rendering camera in Chromium (`answer_challenges` of `tests/browser/run.mjs` with
/// `light`): `seconds` of a shared video from `start_s` as JPEG frames in a folder (kept alive
/// by the returned guard), played in a loop, with the engine's face box of every frame, so
/// the page's canvas camera renders the light of the colours the page shows at
/// screen-to-ambient `ratio`, 150 ms after they are shown (the same model as
/// `liveness_rig::light_camera`). `segments` adds labelled action segments (active mode).
pub fn lit_canvas_camera(
    video: &str,
    start_s: f32,
    seconds: f32,
    ratio: f32,
    segments: Option<serde_json::Value>,
) -> (tempfile::TempDir, serde_json::Value) {
    lit_canvas_camera_of(
        CanvasCamera::Webcam,
        video,
        (start_s, seconds),
        ratio,
        segments,
    )
}

/// What the canvas camera does on its own to the page's light (the JavaScript twin of two
/// families of `liveness_rig::camera_model`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CanvasCamera {
    /// A webcam: exposure and white balance held, 15 frames a second, 150 ms from the screen.
    Webcam,
    /// A phone that does not take the page's lock: auto-exposure (takes back 70% of a
    /// brightness change, 35% of the way a frame), grey-world white balance (35% of the way a
    /// frame), 10 frames a second, 320 ms from the screen.
    Phone,
}

impl CanvasCamera {
    pub const ALL: [Self; 2] = [Self::Webcam, Self::Phone];

    fn fps(self) -> u32 {
        match self {
            Self::Webcam => 15,
            Self::Phone => 10,
        }
    }

    /// The `light` options of `tests/browser/run.mjs`'s canvas camera besides the boxes.
    fn light_options(self, ratio: f32) -> serde_json::Value {
        match self {
            Self::Webcam => serde_json::json!({ "ratio": ratio, "delay_ms": 150 }),
            Self::Phone => serde_json::json!({
                "ratio": ratio,
                "delay_ms": 320,
                "camera": {
                    "exposure_pull": 0.7,
                    "exposure_speed": 0.35,
                    "white_balance": "grey_world",
                    "balance_speed": 0.35,
                },
            }),
        }
    }
}

/// [`lit_canvas_camera`] through `model`; `clip` is the start and length in seconds.
pub fn lit_canvas_camera_of(
    model: CanvasCamera,
    video: &str,
    (start_s, seconds): (f32, f32),
    ratio: f32,
    segments: Option<serde_json::Value>,
) -> (tempfile::TempDir, serde_json::Value) {
    let frames = crate::live::video_frames(video, model.fps(), start_s, seconds);
    let dir = tempfile::tempdir().expect("frames folder");
    let engine = crate::engine();
    let options = face_engine::DetectOptions {
        mode: face_engine::DetectMode::Selfie,
        max_faces: 1,
        ..face_engine::DetectOptions::default()
    };
    let mut boxes = Vec::with_capacity(frames.len());
    for (i, frame) in frames.iter().enumerate() {
        std::fs::write(dir.path().join(format!("{:05}.jpg", i + 1)), frame).expect("frame");
        let image = face_engine::Image::decode(frame).expect("frame decodes");
        let face = engine
            .detect(&image, &options)
            .expect("detect")
            .into_iter()
            .next();
        boxes.push(
            face.map(|f| serde_json::json!([f.bbox.x, f.bbox.y, f.bbox.width, f.bbox.height])),
        );
    }
    let segments = segments
        .unwrap_or_else(|| serde_json::json!({ "neutral": (0..frames.len()).collect::<Vec<_>>() }));
    let mut light = model.light_options(ratio);
    light["boxes"] = serde_json::json!(boxes);
    let camera = serde_json::json!({
        "frames_url": dir.path(),
        "segments": segments,
        "fps": model.fps(),
        "frame_count": frames.len(),
        "light": light,
    });
    (dir, camera)
}

/// A page on a second origin (`http://localhost:{port}`, against Facegate's `127.0.0.1`): a real
/// HTTP server with no CSP of ours, answering every request with the page's current HTML.
#[derive(Debug)]
pub struct SecondOrigin {
    pub port: u16,
    page: std::sync::Arc<std::sync::Mutex<String>>,
}

impl SecondOrigin {
    pub fn serve(html: String) -> Self {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let page = std::sync::Arc::new(std::sync::Mutex::new(html));
        let shared = page.clone();
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let mut request = [0u8; 8192];
                let _ = stream.read(&mut request);
                let html = shared.lock().expect("page").clone();
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\
                     Content-Length: {}\r\nConnection: close\r\n\r\n{html}",
                    html.len()
                );
            }
        });
        Self { port, page }
    }

    /// `http://localhost:{port}`.
    pub fn origin(&self) -> String {
        format!("http://localhost:{}", self.port)
    }

    /// What every later request gets.
    pub fn set_page(&self, html: String) {
        *self.page.lock().expect("page") = html;
    }
}
