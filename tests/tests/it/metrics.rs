//! The operators' metrics against the real binary: after a passed session whose webhook cannot
//! be delivered yet, `/metrics` counts the verdict, the frames, the retried delivery and the
//! backlog with its age, and the analysis queue's depth and wait; every metric the shipped alert rules and Grafana dashboard query is
//! one the server exports; and `promtool` checks the rules and runs their unit tests.

use std::collections::BTreeSet;
use std::process::Command;
use std::time::Duration;

use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::receiver::TestCa;
use facegate_blackbox_tests::{
    create_key, create_managed_session, free_port, get, metric_sample, poll_until, repo_root,
    scrape_metrics, start_webhook_server,
};
use serde_json::json;

/// Metric names (`facegate_…`) in a rules or dashboard file, histogram suffixes removed.
fn queried_metrics(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("facegate_") {
        let name: String = text[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|suffix| name.strip_suffix(suffix))
            .unwrap_or(&name)
            .to_owned();
        out.insert(family);
    }
    out
}

#[test]
fn sessions_and_webhooks_are_counted_and_the_shipped_rules_query_real_metrics() {
    let ca = TestCa::new();
    let server = start_webhook_server(&ca);
    let key = create_key(&server, "bank");
    let dead_receiver = free_port();
    a_session_passes_with_its_webhook_to_a_dead_receiver(&server, &key, dead_receiver);
    let text = scrape_once_a_retry_is_counted(&server.base_url);
    println!("{text}");
    the_verdict_frames_and_backlog_are_counted(&text);
    // after one request, so the request families exist too
    assert_eq!(
        get(&format!("{}/healthz", server.base_url), None).status,
        200
    );
    every_metric_the_rules_and_dashboard_query_is_exported(&scrape_metrics(&server.base_url));
}

fn a_session_passes_with_its_webhook_to_a_dead_receiver(
    server: &facegate_blackbox_tests::Server,
    key: &str,
    dead_receiver: u16,
) {
    let created = create_managed_session(
        server,
        key,
        json!({
            "mode": "passive",
            "webhook_url": format!("https://127.0.0.1:{dead_receiver}/hook"),
        }),
    );
    let id = created["session_id"].as_str().expect("id");
    let token = created["token"].as_str().expect("token");
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    // a lit session's verdict is that of a server that keeps up: one at a time
    let _turn = live::exclusive_lit_sessions();
    let mut socket = live::open(&server.base_url, id, token);
    let outcome = live::stream_lit(
        &mut socket,
        &frames,
        15,
        Duration::from_secs(40),
        &mut live::live_camera(0.2, 201),
    );
    assert_eq!(
        outcome.verdict().map(|v| v["verdict"].clone()),
        Some(json!("pass"))
    );
}

/// The receiver is down: the delivery is retried and stays in the backlog. Waits (at most
/// 30 s) until the retry is counted and returns that scrape.
fn scrape_once_a_retry_is_counted(base_url: &str) -> String {
    poll_until(
        "a retried delivery counted",
        Duration::from_secs(30),
        || scrape_metrics(base_url),
        |text| {
            metric_sample(text, "facegate_webhook_deliveries_total{outcome=\"retry\"}") >= Some(1.0)
        },
    )
}

fn the_verdict_frames_and_backlog_are_counted(text: &str) {
    assert_eq!(
        metric_sample(text, "facegate_session_verdicts_total{verdict=\"pass\"}"),
        Some(1.0)
    );
    assert_eq!(
        metric_sample(text, "facegate_session_verdicts_total{verdict=\"fail\"}"),
        Some(0.0)
    );
    // the one lit passive session came to its look at the colours' end, whatever it gave
    let looks: Vec<f64> = ["ended", "not_sure", "too_few_faces"]
        .iter()
        .map(|outcome| {
            metric_sample(
                text,
                &format!("facegate_session_looks_total{{outcome=\"{outcome}\"}}"),
            )
            .expect("a look outcome")
        })
        .collect();
    assert_eq!(looks.iter().sum::<f64>(), 1.0, "{looks:?}");
    let frames_counted = metric_sample(text, "facegate_session_frames_total").expect("frames");
    let dropped = metric_sample(text, "facegate_session_frames_dropped_total").expect("dropped");
    assert!(
        frames_counted >= 20.0 && dropped <= frames_counted,
        "{frames_counted} {dropped}"
    );
    assert_eq!(metric_sample(text, "facegate_sessions_active"), Some(0.0));
    // every analysed frame was a job of the analysis pool, which is idle now
    assert_eq!(
        metric_sample(text, "facegate_session_analysis_queue_depth"),
        Some(0.0)
    );
    let served = metric_sample(text, "facegate_session_analysis_queue_wait_seconds_count")
        .expect("jobs served");
    let waited = metric_sample(text, "facegate_session_analysis_queue_wait_seconds_sum")
        .expect("their wait");
    assert!(
        served >= 1.0 && served <= frames_counted + 2.0 && waited >= 0.0,
        "{served} jobs, {waited} s"
    );
    // the webhook's retry came after the record that queued it
    assert_eq!(
        metric_sample(text, "facegate_session_records_pending"),
        Some(0.0)
    );
    assert_eq!(
        metric_sample(text, "facegate_session_records_not_stored_total"),
        Some(0.0)
    );
    assert_eq!(metric_sample(text, "facegate_webhook_backlog"), Some(1.0));
    assert!(
        metric_sample(text, "facegate_webhook_backlog_oldest_seconds").is_some_and(|age| age > 0.0)
    );
    assert_eq!(
        metric_sample(
            text,
            "facegate_webhook_deliveries_total{outcome=\"delivered\"}"
        ),
        Some(0.0)
    );
}

fn every_metric_the_rules_and_dashboard_query_is_exported(text: &str) {
    let exported: BTreeSet<String> = text
        .lines()
        .filter_map(|line| line.strip_prefix("# TYPE "))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    for file in [
        "deploy/prometheus/facegate-alerts.yml",
        "deploy/grafana/facegate-dashboard.json",
    ] {
        let content = std::fs::read_to_string(repo_root().join(file)).expect("shipped file");
        let queried = queried_metrics(&content);
        assert!(!queried.is_empty(), "{file} queries no metric");
        let missing: Vec<&String> = queried.difference(&exported).collect();
        assert!(
            missing.is_empty(),
            "{file} queries {missing:?}, not exported"
        );
    }
    let dashboard: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("deploy/grafana/facegate-dashboard.json"))
            .expect("dashboard"),
    )
    .expect("the dashboard is JSON");
    assert!(dashboard["panels"].as_array().is_some_and(|p| p.len() >= 8));
}

#[test]
fn promtool_checks_the_alert_rules_and_their_unit_tests() {
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    let rules = repo_root().join("deploy/prometheus");
    let Ok(check) = Command::new("promtool")
        .args(["check", "rules", "facegate-alerts.yml"])
        .current_dir(&rules)
        .output()
    else {
        assert!(
            !in_ci,
            "CI=true but promtool is not installed (scripts/test.sh installs it)"
        );
        eprintln!("promtool not installed: alert rules not checked");
        return;
    };
    let report = String::from_utf8_lossy(&check.stdout).into_owned()
        + &String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success(), "{report}");
    println!("{report}");
    let unit = Command::new("promtool")
        .args(["test", "rules", "facegate-alerts.test.yml"])
        .current_dir(&rules)
        .output()
        .expect("promtool runs");
    let report =
        String::from_utf8_lossy(&unit.stdout).into_owned() + &String::from_utf8_lossy(&unit.stderr);
    assert!(unit.status.success(), "{report}");
    println!("{report}");
}
