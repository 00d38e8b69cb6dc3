//! Faults of the scale-out topology under load (`scripts/cluster.sh`: three replicas behind
//! HAProxy on one PostgreSQL): a replica SIGKILLed, PostgreSQL restarted, and a rolling restart
//! of every replica. Each test prints its figures; docs/operations.md carries them.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use facegate_blackbox_tests::cluster::Cluster;
use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::load::{
    Answer, Load, Outcome, PHOTOS, index_face, search_by_image, try_send,
};
use facegate_blackbox_tests::{create_managed_session_at, id_and_token, json_body};
use serde_json::json;

fn create_collection(base_url: &str, key: &str) {
    let (ct, body) = json_body(json!({"external_id": "customers"}));
    let (status, _, _, body) = try_send(
        "POST",
        &format!("{base_url}/api/v2/collections"),
        Some(key),
        ct,
        body,
    );
    assert_eq!(status, 201, "{body}");
}

fn photo(n: usize) -> &'static str {
    PHOTOS[n % PHOTOS.len()]
}

/// Two threads indexing and one searching through the balancer.
fn index_and_search(lb: &str, key: &str) -> Load {
    let mut load = Load::new();
    for worker in 0..2 {
        let (lb, key) = (lb.to_owned(), key.to_owned());
        load.spawn("index", move |n| {
            index_face(&lb, &key, "customers", photo(n), &format!("w{worker}-{n}"))
        });
    }
    let (lb, key) = (lb.to_owned(), key.to_owned());
    load.spawn("search", move |n| {
        search_by_image(&lb, &key, "customers", photo(n))
    });
    load
}

fn list(base_url: &str, key: &str) -> Answer {
    try_send(
        "GET",
        &format!("{base_url}/api/v2/collections/customers/faces?max_results=5"),
        Some(key),
        None,
        Vec::new(),
    )
}

/// Counts outcomes by operation and status.
fn tally(outcomes: &[Outcome]) -> BTreeMap<(&'static str, u16), usize> {
    let mut counts = BTreeMap::new();
    for o in outcomes {
        *counts.entry((o.op, o.status)).or_insert(0) += 1;
    }
    counts
}

fn assert_no_panics(cluster: &Cluster, replicas: usize) {
    for i in 0..replicas {
        let log = cluster.replica_log(i);
        assert!(
            !log.contains("panicked"),
            "replica {} panicked:\n{log}",
            i + 1
        );
    }
}

#[test]
fn sigkill_of_a_replica_under_load_loses_nothing_committed() {
    let cluster = Cluster::up(3, &[]);
    let lb = cluster.lb_url.clone();
    let key = cluster.create_key("bank");
    create_collection(&lb, &key);

    let load = index_and_search(&lb, &key);

    // a live session through the balancer; the replica holding its socket is the one killed
    let created = create_managed_session_at(&lb, &key, json!({"mode": "passive"}));
    let (id, token) = id_and_token(&created);
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let (mut socket, replica) = live::open_reporting_replica(&lb, &id, &token);
    let replica = replica.expect("HAProxy names the replica");
    let victim: usize = replica
        .trim_start_matches('r')
        .parse::<usize>()
        .expect("r<N>")
        - 1;
    let before = live::stream(&mut socket, &frames, 15, Duration::from_secs(2));
    assert!(before.verdict().is_none(), "no verdict within 2 s");
    std::thread::sleep(Duration::from_secs(2));
    let killed_at = load.elapsed();
    cluster.kill(victim);
    println!(
        "killed {replica} at {:.1} s of load",
        killed_at.as_secs_f64()
    );

    the_socket_of_a_killed_replica_ends_promptly(&mut socket, &frames);
    let outcome = resume_on_a_surviving_replica(&lb, (&id, &token), &replica, &frames);
    println!(
        "resumed on a surviving replica {:.1} s after the kill",
        (load.elapsed() - killed_at).as_secs_f64()
    );
    // the session's light sequence was shown on the first connection and is never drawn
    // again, so the resumed stream is judged without light: `retry`, with the guidance to
    // start again in better light, never `fail` (docs/liveness.md)
    assert_eq!(
        outcome.verdict().map(|v| v["verdict"].clone()),
        Some(json!("retry")),
        "retried session: {:?}\n{}",
        outcome.messages,
        cluster.logs()
    );
    assert!(
        outcome.messages.iter().all(|m| m["type"] != "illumination"),
        "a reconnect never gets a sequence"
    );

    std::thread::sleep(Duration::from_secs(3));
    let outcomes = load.stop();
    only_requests_in_flight_at_the_kill_failed(&outcomes, killed_at);
    every_acknowledged_face_is_present(&lb, &key, &outcomes);
    cluster.start(victim);
    assert_no_panics(&cluster, 3);
}

/// The session's socket on a killed replica ends (the client sees it and can retry), never
/// hangs.
fn the_socket_of_a_killed_replica_ends_promptly(socket: &mut live::Socket, frames: &[Vec<u8>]) {
    let ended = Instant::now();
    let cut = live::stream(socket, &frames[30..], 15, Duration::from_secs(20));
    let ended = ended.elapsed();
    assert!(cut.verdict().is_none());
    assert!(
        ended < Duration::from_secs(15),
        "the socket of a killed replica must end, not hang ({ended:?})"
    );
    println!(
        "the session's socket ended {:.2} s after the kill (close code {:?})",
        ended.as_secs_f64(),
        cut.close_code
    );
}

/// The client retries through the balancer: a surviving replica (never `killed`) resumes the
/// session once the dead replica's stream lease has run out (4029 session_busy until then).
fn resume_on_a_surviving_replica(
    lb: &str,
    (id, token): (&str, &str),
    killed: &str,
    frames: &[Vec<u8>],
) -> live::StreamOutcome {
    let retried_at = Instant::now();
    let mut busy_answers = 0;
    let outcome = loop {
        let (mut socket, resumed_on) = live::open_reporting_replica(lb, id, token);
        assert_ne!(resumed_on.as_deref(), Some(killed));
        let outcome = live::stream_lit(
            &mut socket,
            frames,
            15,
            Duration::from_secs(40),
            &mut live::live_camera(0.2, 701),
        );
        if outcome.close_code == Some(4029) && retried_at.elapsed() < Duration::from_secs(20) {
            busy_answers += 1;
            std::thread::sleep(Duration::from_secs(1));
            continue;
        }
        break outcome;
    };
    println!("{busy_answers} session_busy answers while the dead replica's lease ran out");
    outcome
}

/// A request the killed replica was serving may fail (HAProxy answers 502); everything started
/// after failover succeeds.
fn only_requests_in_flight_at_the_kill_failed(outcomes: &[Outcome], killed_at: Duration) {
    let counts = tally(outcomes);
    println!("outcomes by (operation, status): {counts:?}");
    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| !o.ok()).collect();
    let failover_done = killed_at + Duration::from_secs(2);
    assert!(
        failed.iter().all(|o| o.started < failover_done),
        "failures after failover: {:?}",
        failed
            .iter()
            .filter(|o| o.started >= failover_done)
            .map(|o| (o.op, o.status, o.code.clone()))
            .collect::<Vec<_>>()
    );
    assert!(failed.iter().all(|o| matches!(o.status, 0 | 502 | 503)));
    println!(
        "{} requests, {} failed (all in flight on the killed replica at the kill)",
        outcomes.len(),
        failed.len()
    );
}

/// Nothing acknowledged is lost: every face answered 201 is there, read on any replica.
fn every_acknowledged_face_is_present(lb: &str, key: &str, outcomes: &[Outcome]) {
    let acked: Vec<String> = outcomes
        .iter()
        .filter(|o| o.op == "index" && o.status == 201)
        .filter_map(|o| o.body["face_id"].as_str().map(str::to_owned))
        .collect();
    assert!(acked.len() >= 10, "too little load: {}", acked.len());
    for face_id in &acked {
        let (status, _, _, body) = try_send(
            "GET",
            &format!("{lb}/api/v2/collections/customers/faces/{face_id}"),
            Some(key),
            None,
            Vec::new(),
        );
        assert_eq!(status, 200, "acknowledged face {face_id} lost: {body}");
    }
    println!("{} acknowledged faces all present", acked.len());
}

#[test]
fn a_postgres_restart_gives_503_with_retry_after_then_service_returns() {
    let cluster = Cluster::up(3, &[]);
    let lb = cluster.lb_url.clone();
    let key = cluster.create_key("bank");
    create_collection(&lb, &key);
    let (status, ..) = index_face(&lb, &key, "customers", PHOTOS[0], "penny");
    assert_eq!(status, 201);

    let mut load = Load::new();
    for _ in 0..3 {
        let (lb, key) = (lb.clone(), key.clone());
        load.spawn("list", move |_| {
            let answer = list(&lb, &key);
            std::thread::sleep(Duration::from_millis(20));
            answer
        });
    }
    std::thread::sleep(Duration::from_secs(2));
    let down_at = load.elapsed();
    cluster.stop_database();
    std::thread::sleep(Duration::from_secs(4));
    let up_at = load.elapsed();
    cluster.start_database();
    std::thread::sleep(Duration::from_secs(8));
    let outcomes = load.stop();
    println!("outcomes by (operation, status): {:?}", tally(&outcomes));

    let unexpected: Vec<_> = outcomes
        .iter()
        .filter(|o| !(o.status == 200 || (o.status == 503 && o.code == "database_unavailable")))
        .map(|o| (o.started, o.status, o.code.clone()))
        .collect();
    assert!(
        unexpected.is_empty(),
        "only 200 or 503 database_unavailable: {unexpected:?}"
    );
    let outage: Vec<&Outcome> = outcomes.iter().filter(|o| o.status == 503).collect();
    assert!(!outage.is_empty(), "the outage was seen");
    assert!(
        outage.iter().all(|o| o.retry_after.is_some()),
        "every 503 carries Retry-After"
    );
    let during: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| {
            o.started > down_at + Duration::from_millis(500) && o.started + o.latency < up_at
        })
        .collect();
    assert!(
        during.iter().all(|o| o.status == 503),
        "while the database is down every answer is 503"
    );
    let worst_503 = outage.iter().map(|o| o.latency).max().unwrap_or_default();
    let first_ok_after = outcomes
        .iter()
        .filter(|o| o.started >= up_at && o.ok())
        .map(|o| o.started + o.latency)
        .min()
        .expect("service came back");
    let recovered = first_ok_after - up_at;
    let last_failure = outage
        .iter()
        .map(|o| o.started + o.latency)
        .max()
        .unwrap_or_default();
    println!(
        "database down {:.1} s: {} answers 503 (slowest {:.2} s); first success {:.2} s after it \
         returned; last 503 at {:.1} s, {:.2} s after it returned",
        (up_at - down_at).as_secs_f64(),
        outage.len(),
        worst_503.as_secs_f64(),
        recovered.as_secs_f64(),
        last_failure.as_secs_f64(),
        last_failure.saturating_sub(up_at).as_secs_f64()
    );
    assert!(recovered < Duration::from_secs(5), "back within seconds");
    assert!(
        last_failure < up_at + Duration::from_secs(5),
        "no failures a few seconds after the database returned"
    );
    assert_no_panics(&cluster, 3);
}

#[test]
fn a_rolling_restart_fails_no_face_services_request() {
    let cluster = Cluster::up(3, &[]);
    let lb = cluster.lb_url.clone();
    let key = cluster.create_key("bank");
    create_collection(&lb, &key);

    let mut load = index_and_search(&lb, &key);
    let (lb3, key3) = (lb.clone(), key.clone());
    load.spawn("list", move |_| list(&lb3, &key3));
    std::thread::sleep(Duration::from_secs(1));
    let began = Instant::now();
    cluster.rolling_restart();
    let took = began.elapsed();
    std::thread::sleep(Duration::from_secs(1));
    let outcomes = load.stop();
    let counts = tally(&outcomes);
    println!(
        "rolling restart of 3 replicas took {:.1} s; {} requests: {counts:?}",
        took.as_secs_f64(),
        outcomes.len()
    );
    let failed: Vec<_> = outcomes
        .iter()
        .filter(|o| !o.ok())
        .map(|o| (o.op, o.started, o.status, o.code.clone()))
        .collect();
    assert!(
        failed.is_empty(),
        "failed during the rolling restart: {failed:?}"
    );
    assert!(outcomes.len() >= 30, "too little load");
    for i in 0..3 {
        assert!(
            cluster
                .replica_log(i)
                .matches("listening; starting up")
                .count()
                >= 2,
            "replica {} was restarted",
            i + 1
        );
    }
    assert_no_panics(&cluster, 3);
}
