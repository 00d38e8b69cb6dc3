//! Black-box tests of the binary's contract: `serve` is the default command, `/healthz`
//! answers once models are loaded, the one file runs from any directory on its embedded models
//! and UI, and configuration is layered and validated by key.

use std::path::Path;
use std::process::Command;

use facegate_blackbox_tests::{facegate_binary, repo_root, start_server};

#[test]
fn serve_is_the_default_and_healthz_answers_after_models_load() {
    let server = start_server(&[]);
    let body: serde_json::Value = ureq::get(&format!("{}/healthz", server.base_url))
        .call()
        .expect("healthz")
        .body_mut()
        .read_json()
        .expect("json");
    assert_eq!(body["status"], "ok");
    // the default face model's embedder, and every model's
    assert_eq!(body["default_face_model"], "sface");
    assert!(
        body["embedder"]
            .as_str()
            .is_some_and(|e| e.starts_with("face_recognition_sface.onnx@"))
    );
    assert!(
        body["embedders"]["fr_feature"]
            .as_str()
            .is_some_and(|e| e.starts_with("fr_feature.onnx@")),
        "{body}"
    );
    assert_eq!(body["embedders"]["sface"], body["embedder"]);
}

#[test]
fn logs_to_a_file_carry_no_colour_codes_and_json_logs_are_one_object_a_line() {
    let server = start_server(&[]);
    let log = server.log();
    assert!(log.contains("models loaded"), "{log}");
    assert!(!log.contains('\u{1b}'), "ANSI codes in a log file:\n{log}");

    let server = start_server(&[("FACEGATE__LOG__FORMAT", "json")]);
    let log = server.log();
    let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(!lines.is_empty());
    for line in &lines {
        let object: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(
            object["level"].is_string() && object["fields"].is_object(),
            "{line}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.contains("\"message\":\"models loaded\"")),
        "{log}"
    );
}

#[test]
fn the_binary_runs_from_any_directory_on_its_embedded_models() {
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let port = facegate_blackbox_tests::free_port();
    let mut child = Command::new(facegate_binary())
        .current_dir(elsewhere.path())
        .env("FACEGATE__SERVER__BIND", format!("127.0.0.1:{port}"))
        .env_remove("FACEGATE__MODELS__DIR")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("facegate starts");
    let base = format!("http://127.0.0.1:{port}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let healthy = loop {
        let answer = ureq::get(&format!("{base}/healthz")).call();
        if answer.is_ok_and(|r| r.status() == 200) {
            break true;
        }
        if std::time::Instant::now() > deadline || matches!(child.try_wait(), Ok(Some(_))) {
            break false;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    // no models/ and no web-ui/ here: both come from the binary
    let page = ureq::get(&format!("{base}/sdk/facegate.js")).call();
    let _ = child.kill();
    let _ = child.wait();
    assert!(healthy, "healthy without models/ in the working directory");
    assert!(page.is_ok_and(|r| r.status() == 200), "the UI is embedded");
    assert!(
        elsewhere.path().join("facegate.db").is_file(),
        "the default database is created where it runs"
    );
}

fn run_with_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut command = Command::new(facegate_binary());
    command.args(args).current_dir(repo_root());
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command.output().expect("facegate runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn invalid_configuration_names_the_key_and_exits_2() {
    let cases: [(&str, &str, &str); 4] = [
        ("FACEGATE__SERVER__BIND", "not-an-address", "server.bind"),
        ("FACEGATE__SERVER__WORKERS", "many", "server.workers"),
        (
            "FACEGATE__DATABASE__URL",
            "mysql://db/facegate",
            "database.url",
        ),
        ("FACEGATE__MODELS__DIR", "/nonexistent", "models.dir"),
    ];
    for (key, value, named) in cases {
        let (code, stderr) = run_with_env(&["serve"], &[(key, value)]);
        assert_eq!(code, 2, "{key}={value}: {stderr}");
        assert!(
            stderr.contains(named),
            "{key}={value}: error does not name `{named}`: {stderr}"
        );
    }
}

#[test]
fn coefficients_that_do_not_fit_the_engine_stop_start_up_naming_the_difference() {
    let bundled = std::fs::read_to_string(
        repo_root().join("crates/liveness-engine/data/fitted_decision.json"),
    )
    .expect("the bundled coefficients");
    let mut decision: serde_json::Value = serde_json::from_str(&bundled).expect("JSON");
    decision["inputs"][0] = serde_json::Value::from("motion.tilt");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = dir.path().join("coefficients.json");
    std::fs::write(&file, decision.to_string()).expect("written");
    let (code, stderr) = run_with_env(
        &["serve"],
        &[(
            "FACEGATE__LIVENESS__FITTED_DECISION_FILE",
            file.to_str().expect("a UTF-8 path"),
        )],
    );
    assert_eq!(code, 2, "{stderr}");
    for named in ["liveness.fitted_decision_file", "motion.tilt"] {
        assert!(stderr.contains(named), "does not name {named}: {stderr}");
    }
}

#[test]
fn config_file_is_layered_under_the_environment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("facegate.toml");
    std::fs::write(&file, "[server]\nbind = \"bad address from the file\"\n").expect("write");
    let file_arg = file.to_string_lossy().into_owned();
    // the file alone is invalid and is named by key
    let (code, stderr) = run_with_env(&["--config", &file_arg, "serve"], &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("server.bind") && stderr.contains("bad address from the file"),
        "{stderr}"
    );
    // the environment overrides the file; a missing --config file is an error too
    let (code, _) = run_with_env(&["--config", "/nonexistent/facegate.toml", "serve"], &[]);
    assert_eq!(code, 2);
    let port = facegate_blackbox_tests::free_port().to_string();
    let server_env = format!("127.0.0.1:{port}");
    let mut child = Command::new(facegate_binary())
        .args(["--config", &file_arg])
        .current_dir(repo_root())
        .env("FACEGATE__SERVER__BIND", &server_env)
        .env("FACEGATE__DATABASE__URL", dir.path().join("db.sqlite"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut healthy = false;
    while std::time::Instant::now() < deadline && !healthy {
        healthy = ureq::get(&format!("http://{server_env}/healthz"))
            .call()
            .is_ok_and(|r| r.status() == 200);
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        healthy,
        "env FACEGATE__SERVER__BIND did not override the file"
    );
}

/// Runs `facegate eval ARGS testdata/identities/SET --report OUT`, asserts it succeeded and
/// returns its stdout.
fn eval_with_report(args: &[&str], set: &str, out: &Path) -> String {
    let output = Command::new(facegate_binary())
        .arg("eval")
        .args(args)
        .arg(repo_root().join("../shared/testdata/identities").join(set))
        .arg("--report")
        .arg(out)
        .current_dir(repo_root())
        .output()
        .expect("eval runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn eval_verify_prints_the_report_and_writes_its_page() {
    let out = tempfile::tempdir().expect("report folder");
    let stdout = eval_with_report(&["verify"], "tv-cast", out.path());
    for needle in [
        "pairs             80 genuine, 700 impostor",
        "ROC AUC",
        "TAR @ FAR 0.001",
        "EER",
        "recommended",
    ] {
        assert!(stdout.contains(needle), "missing `{needle}` in:\n{stdout}");
    }
    // the page: self-contained (no script, nothing fetched), the curves and histograms inline
    let page = std::fs::read_to_string(out.path().join("report.html")).expect("report.html");
    assert_eq!(
        page.matches("<svg").count(),
        3,
        "ROC, DET and the score histograms"
    );
    for text in [
        "ROC",
        "DET",
        "same person",
        "different people",
        "threshold 0.",
    ] {
        assert!(page.contains(text), "the page shows `{text}`");
    }
    assert!(!page.contains("<script"));
    for chart in ["roc.svg", "det.svg", "scores.svg"] {
        assert!(out.path().join(chart).is_file(), "{chart} beside the page");
    }
}

#[test]
fn eval_search_reports_open_set_identification_and_refuses_a_flat_folder() {
    // johns: 5 people, 11 images each; every other name enrolled (3 people), the other two's
    // 22 images non-mated probes
    let out = tempfile::tempdir().expect("report folder");
    let stdout = eval_with_report(
        &["search", "--face-model", "fr_feature"],
        "johns",
        out.path(),
    );
    for needle in [
        "face model        fr_feature",
        "gallery           3 identities",
        "probes            30 mated, 22 non-mated",
        "rank-1",
        "FNIR @ FPIR 0.01",
    ] {
        assert!(stdout.contains(needle), "missing `{needle}` in:\n{stdout}");
    }
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out.path().join("search.json")).expect("search.json"),
    )
    .expect("json");
    assert_eq!(report["cmc"].as_array().expect("cmc").len(), 20);
    // measured 2026-12-04: every mated probe finds its mate first, and no stranger scores above
    // any mate (docs/accuracy.md, "Open-set 1:N")
    assert_eq!(report["rank1"], 1.0, "{report}");
    assert_eq!(report["fnir_at_fpir"][0]["fnir"], 0.0, "{report}");
    // a folder of images without one folder per person says what it expects
    let flat = Command::new(facegate_binary())
        .args(["eval", "search"])
        .arg(repo_root().join("../shared/testdata/spoof/samples"))
        .current_dir(repo_root())
        .output()
        .expect("eval runs");
    assert!(!flat.status.success());
    let stderr = String::from_utf8_lossy(&flat.stderr);
    assert!(stderr.contains("DIR/<identity>/<image>"), "{stderr}");
}

#[test]
fn keys_create_list_revoke_and_migrate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("keys.db").to_string_lossy().into_owned();
    let env = [("FACEGATE__DATABASE__URL", db.as_str())];
    let run = |args: &[&str]| {
        let mut command = Command::new(facegate_binary());
        command.args(args).current_dir(repo_root());
        for (k, v) in env {
            command.env(k, v);
        }
        let output = command.output().expect("facegate runs");
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert!(run(&["migrate"]).contains("applied 9 migration"));
    assert!(run(&["migrate"]).contains("applied 0 migration"));
    let created = run(&["keys", "create", "--tenant", "acme"]);
    let key = created
        .lines()
        .last()
        .expect("key on the last line")
        .to_owned();
    assert!(key.starts_with("fg_") && key.len() == 84, "{key}");
    let listed = run(&["keys", "list"]);
    let id = &key[3..19];
    assert!(
        listed.contains(id) && listed.contains("acme") && listed.contains("active"),
        "{listed}"
    );
    assert!(
        !listed.contains(&key[20..]),
        "the secret part is never shown again"
    );
    run(&["keys", "revoke", id]);
    assert!(run(&["keys", "list"]).contains("revoked"));
    // the database holds the digest, never the key
    let raw = std::fs::read(&db).expect("db file");
    assert!(
        !raw.windows(key.len()).any(|w| w == key.as_bytes()),
        "plaintext key found in the database file"
    );
    let secret = std::fs::read_to_string(format!("{db}.secret")).expect("generated secret");
    assert_eq!(secret.trim().len(), 64);
}

#[test]
fn postgres_requires_an_explicit_server_secret() {
    let (code, stderr) = run_with_env(
        &["serve"],
        &[(
            "FACEGATE__DATABASE__URL",
            "postgres://facegate@127.0.0.1:5432/facegate",
        )],
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("security.server_secret"), "{stderr}");
}
