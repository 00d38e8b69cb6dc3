//! The typed clients of `clients/` (issue 41) against the real binary. The generated code is
//! what the served OpenAPI document generates today (`clients/generate.sh --check`); the
//! TypeScript package builds and packs, the Python one builds a wheel; both clients create,
//! list and erase a session, detect and compare faces, index and search a collection, and
//! verify a webhook the server delivered (a changed body is refused); and the React component
//! runs the verification flow in Chromium on a second origin and reports the session id.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use facegate_blackbox_tests::browser::{
    SecondOrigin, exclusive_browser, lit_canvas_camera, run_scenario, screenshot_dir,
};
use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::receiver::{HttpsReceiver, TestCa};
use facegate_blackbox_tests::{
    Server, cli, create_key, create_managed_session, facegate_binary, id_and_token, repo_root,
    session_result, start_server_on,
};
use serde_json::json;

/// Runs `program args` in `dir` with `env`; asserts it succeeded and returns its stdout.
fn run(dir: &Path, program: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{program} {args:?} failed\nstdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn generated_code_is_current_and_packages_build(scratch: &Path) {
    let clients = repo_root().join("clients");
    let binary = facegate_binary();
    let checked = run(
        &clients,
        "bash",
        &["generate.sh", "--check"],
        &[("FACEGATE_BINARY", binary.to_str().expect("path"))],
    );
    assert!(
        checked.contains("matches the OpenAPI document"),
        "{checked}"
    );
    let typescript = clients.join("typescript");
    run(&typescript, "npm", &["run", "--silent", "build"], &[]);
    let packed = run(
        &typescript,
        "npm",
        &[
            "pack",
            "--silent",
            "--pack-destination",
            scratch.to_str().expect("path"),
        ],
        &[],
    );
    assert!(packed.trim().ends_with(".tgz"), "{packed}");
    let wheel_dir = scratch.join("wheel");
    run(
        &clients.join("python"),
        "python3",
        &[
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            wheel_dir.to_str().expect("path"),
            ".",
        ],
        &[],
    );
    let wheels: Vec<_> = std::fs::read_dir(&wheel_dir)
        .expect("wheels")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".whl"))
        .collect();
    assert_eq!(wheels.len(), 1, "one wheel");
}

/// One passive session streamed to a verdict whose webhook reaches `receiver`; returns the
/// delivered request as `{secret, headers, body}` in a file under `scratch`.
fn delivered_webhook(
    server: &Server,
    key: &str,
    receiver: &HttpsReceiver,
    scratch: &Path,
) -> String {
    let created = create_managed_session(
        server,
        key,
        json!({
            "mode": "passive",
            "webhook_url": format!("https://127.0.0.1:{}/hooks/facegate", receiver.port),
        }),
    );
    let (id, token) = id_and_token(&created);
    let mut socket = live::open(&server.base_url, &id, &token);
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let outcome = live::stream(&mut socket, &frames, 15, Duration::from_secs(40));
    assert!(outcome.verdict().is_some(), "{:?}", outcome.messages);
    let hook = receiver.wait_for(1, Duration::from_secs(20)).remove(0);
    let secret = cli(server, &["webhooks", "secret", "--tenant", "bank"]);
    let file = scratch.join("webhook.json");
    let fixture = json!({"secret": secret, "headers": hook.headers, "body": hook.body});
    std::fs::write(&file, fixture.to_string()).expect("fixture");
    file.to_str().expect("path").to_owned()
}

/// The React component on a second origin: a shop page (esbuild's bundle of
/// `clients/typescript/test/react-page.tsx`) opens the flow, the lit canvas camera passes it,
/// and the component reports the session id.
fn react_component_reports_the_session_id(scratch: &Path) {
    let Some(_browser) = exclusive_browser() else {
        return;
    };
    let bundle = scratch.join("react-page.js");
    run(
        &repo_root().join("clients/typescript"),
        "npx",
        &[
            "--no-install",
            "esbuild",
            "test/react-page.tsx",
            "--bundle",
            "--format=iife",
            "--minify",
            "--define:process.env.NODE_ENV=\"production\"",
            &format!("--outfile={}", bundle.display()),
        ],
        &[],
    );
    let script = std::fs::read_to_string(&bundle).expect("bundle");
    let shop = SecondOrigin::serve(format!(
        "<!doctype html><html lang=\"en\"><title>Shop</title><div id=\"root\"></div>\
         <script>{script}</script>"
    ));
    let origin = shop.origin();
    let server = facegate_blackbox_tests::start_server(&[
        ("FACEGATE__UI__EMBED_ORIGINS", &origin),
        ("FACEGATE__SESSIONS__RNG_SEED", "29"),
    ]);
    let key = create_key(&server, "shop");
    let created = create_managed_session(&server, &key, json!({"mode": "passive"}));
    let (id, token) = id_and_token(&created);
    let (_frames, camera) = lit_canvas_camera("webcam-man-1", 0.0, 14.0, 0.2, None);
    let session_url = created["session_url"].as_str().expect("url");
    let report = run_scenario(&json!({
        "name": "react",
        "url": session_url,
        "camera": "canvas",
        "answer_challenges": camera,
        "viewport": "desktop",
        "shots": screenshot_dir(),
        "sdk": {"shop_url": format!(
            "{origin}/checkout.html?session={}",
            url::form_urlencoded::byte_serialize(session_url.as_bytes()).collect::<String>()
        )},
    }));
    assert_eq!(report["verdict"], "pass", "{report:#}");
    assert_eq!(report["sdk_title"], format!("done:{id}"), "{report:#}");
    assert_eq!(
        report["iframe_left"], false,
        "the component closes its frame"
    );
    assert_eq!(session_result(&server, &id, &token).body["verdict"], "pass");
}

#[test]
fn the_typed_clients_are_generated_build_and_work_against_the_server() {
    let scratch = tempfile::tempdir().expect("scratch");
    generated_code_is_current_and_packages_build(scratch.path());

    let ca = TestCa::new();
    let receiver = HttpsReceiver::start(&ca, 0, |_| 200);
    let server = start_server_on(
        facegate_blackbox_tests::Backend::Sqlite,
        &[
            ("FACEGATE__WEBHOOKS__ALLOWED_NETWORKS", "127.0.0.0/8"),
            (
                "FACEGATE__WEBHOOKS__CA_FILE",
                ca.ca_file.to_str().expect("path"),
            ),
            ("FACEGATE__WEBHOOKS__POLL_INTERVAL_MS", "100"),
            ("FACEGATE__LIVENESS__ILLUMINATION__ENABLED", "false"),
            ("FACEGATE__SESSIONS__RNG_SEED", "41"),
        ],
    );
    let key = create_key(&server, "bank");
    let webhook = delivered_webhook(&server, &key, &receiver, scratch.path());
    let testdata = repo_root().join("../shared/testdata");
    let env = [
        ("FACEGATE_URL", server.base_url.as_str()),
        ("FACEGATE_KEY", key.as_str()),
        ("FACEGATE_TESTDATA", testdata.to_str().expect("path")),
        ("FACEGATE_WEBHOOK", webhook.as_str()),
    ];
    let clients = repo_root().join("clients");
    let typescript = run(
        &clients.join("typescript"),
        "node",
        &["test/smoke.mjs"],
        &env,
    );
    assert!(typescript.contains("typescript client: ok"), "{typescript}");
    let python_path = clients.join("python/src");
    let mut python_env = env.to_vec();
    python_env.push(("PYTHONPATH", python_path.to_str().expect("path")));
    let python = run(
        &clients.join("python"),
        "python3",
        &["tests/smoke.py"],
        &python_env,
    );
    assert!(python.contains("python client: ok"), "{python}");

    react_component_reports_the_session_id(scratch.path());
}
