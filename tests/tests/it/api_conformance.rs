//! A third-party client holds the server to its OpenAPI document: schemathesis (PyPI, pinned
//! and installed by `scripts/test.sh`) runs every check against `/api/openapi.json` on the real
//! binary with a valid API key, with a fixed seed and a bounded number of examples, and must
//! find nothing. What a schema cannot state (an uploaded file must be a decodable image with a
//! face, a webhook host must resolve) is configured in `tests/schemathesis/schemathesis.toml`.
//! Outside CI the test skips when schemathesis is not installed; under `CI=true` it fails.

use std::process::Command;

use facegate_blackbox_tests::{create_key, repo_root, start_server};

/// The `st` command: on `PATH`, or beside the `python3` that pip installed it for.
fn schemathesis() -> Option<String> {
    let runs = |program: &str| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if runs("st") {
        return Some("st".into());
    }
    let beside_python = Command::new("python3")
        .args([
            "-c",
            "import os, sys; print(os.path.join(os.path.dirname(sys.executable), 'st'))",
        ])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .filter(|path| runs(path));
    if beside_python.is_some() {
        return beside_python;
    }
    let in_ci = matches!(std::env::var("CI").as_deref(), Ok("true" | "1"));
    assert!(!in_ci, "CI: schemathesis (`st`) is not installed");
    eprintln!("skipped: schemathesis (`st`) is not installed (pip install schemathesis)");
    None
}

#[test]
fn schemathesis_finds_no_failure_in_any_operation() {
    let Some(st) = schemathesis() else {
        return;
    };
    // the limits off: schemathesis sends thousands of requests from one address and key
    let server = start_server(&[
        ("FACEGATE__RATE_LIMIT__PER_SECOND", "0"),
        ("FACEGATE__RATE_LIMIT__PER_MINUTE", "0"),
        ("FACEGATE__SECURITY__FAILED_CREDENTIALS_PER_MINUTE", "0"),
    ]);
    let key = create_key(&server, "conformance");
    let config = repo_root().join("tests/schemathesis/schemathesis.toml");
    let output = Command::new(&st)
        .arg("--config-file")
        .arg(&config)
        .args(["run", &format!("{}/api/openapi.json", server.base_url)])
        .args(["--header", &format!("Authorization: Bearer {key}")])
        .args(["--checks", "all"])
        .args(["--phases", "examples,coverage,fuzzing,stateful"])
        .args(["--max-examples", "40"])
        .args(["--seed", "20261125"])
        .args(["--workers", "1"])
        .args(["--no-color"])
        .output()
        .expect("schemathesis runs");
    let report = String::from_utf8_lossy(&output.stdout);
    println!("{report}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "schemathesis found failures (exit {:?}); the report is above",
        output.status.code()
    );
    // schemathesis selects every operation it can call (`Selected: n/n`) and tests each
    let selected = report
        .lines()
        .find_map(|line| line.trim().strip_prefix("Selected: "))
        .and_then(|counts| counts.split_once('/'))
        .map(|(chosen, all)| (chosen.trim().to_owned(), all.trim().to_owned()));
    let Some((chosen, all)) = selected else {
        panic!("no `Selected:` line in the report");
    };
    assert_eq!(chosen, all, "every operation is selected");
    assert!(
        report.contains(&format!("Tested: {all}")),
        "not every one of the {all} operations was tested"
    );
}
