//! Mixed load through a balancer (or one server): index, search, compare, session creation
//! and live WebSocket sessions streaming a real video at 15 fps, each in its own threads for a
//! fixed time. Prints throughput and p50/p99 latency per operation as a Markdown table and
//! one JSON line.
//!
//! `mixed_load BASE_URL API_KEY SECONDS [LIVE_SESSIONS]` (`scripts/mixed-load.sh` sets it up).
//! `mixed_load hops DIRECT_URL BALANCER_URL API_KEY` instead times 1,000 sequential requests of
//! `/healthz` (no database) and of listing collections (key check, shared rate-limit counters
//! and one query) straight to a replica and through the balancer: the cost of each hop.
//! `mixed_load costs BASE_URL API_KEY` runs each operation alone, sequentially, and divides the
//! CPU time the `facegate`, `postgres` and `haproxy` processes used (from /proc) by the count.

use std::time::Duration;

use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::load::{
    Load, PHOTOS, compare, index_face, quantile_ms, search_by_image, try_send,
};
use facegate_blackbox_tests::{id_and_token, json_body};
use serde_json::json;

/// The n-th load photo, round robin.
fn photo(n: usize) -> &'static str {
    PHOTOS[n % PHOTOS.len()]
}

fn hops(direct: &str, balancer: &str, key: &str) {
    println!("| request | path | p50 ms | p99 ms |");
    println!("|---|---|---:|---:|");
    for (name, path, key) in [
        ("/healthz", "/healthz", None),
        ("list collections", "/api/v2/collections", Some(key)),
    ] {
        for (via, base) in [
            ("straight to the replica", direct),
            ("through HAProxy", balancer),
        ] {
            let mut latencies = Vec::new();
            for _ in 0..1000 {
                let began = std::time::Instant::now();
                let (status, ..) = try_send("GET", &format!("{base}{path}"), key, None, Vec::new());
                assert_eq!(status, 200, "{base}{path}");
                latencies.push(began.elapsed());
            }
            println!(
                "| {name} | {via} | {:.2} | {:.2} |",
                quantile_ms(&latencies, 0.5),
                quantile_ms(&latencies, 0.99)
            );
        }
    }
}

/// One sequential operation: its status for call n.
type CountedOperation<'a> = Box<dyn Fn(usize) -> u16 + 'a>;

/// CPU seconds used so far by every process named `name` (user + system, from /proc).
fn cpu_seconds(name: &str) -> f64 {
    let ticks_per_second = 100.0;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    entries
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter_map(|stat| {
            let (head, rest) = stat.rsplit_once(") ")?;
            let comm = head.split_once(" (")?.1;
            let fields: Vec<&str> = rest.split(' ').collect();
            (comm == name).then(|| {
                let user: f64 = fields.get(11)?.parse().ok()?;
                let system: f64 = fields.get(12)?.parse().ok()?;
                Some((user + system) / ticks_per_second)
            })?
        })
        .sum()
}

fn costs(base: &str, key: &str) {
    let (ct, body) = json_body(json!({"external_id": "costs"}));
    try_send(
        "POST",
        &format!("{base}/api/v2/collections"),
        Some(key),
        ct,
        body,
    );
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let operations: Vec<(&str, usize, CountedOperation)> = vec![
        (
            "index",
            40,
            Box::new(|n| index_face(base, key, "costs", photo(n), &format!("cost-{n}")).0),
        ),
        (
            "search",
            40,
            Box::new(|n| search_by_image(base, key, "costs", photo(n)).0),
        ),
        (
            "compare",
            40,
            Box::new(|n| compare(base, key, photo(n), photo(n + 1)).0),
        ),
        (
            "create_session",
            200,
            Box::new(|_| {
                let (ct, body) = json_body(json!({"mode": "passive"}));
                try_send(
                    "POST",
                    &format!("{base}/api/v1/managed-session"),
                    Some(key),
                    ct,
                    body,
                )
                .0
            }),
        ),
        (
            "live_session",
            5,
            Box::new(|_| {
                let (ct, body) = json_body(json!({"mode": "passive"}));
                let created = try_send(
                    "POST",
                    &format!("{base}/api/v1/managed-session"),
                    Some(key),
                    ct,
                    body,
                );
                let (id, token) = id_and_token(&created.3);
                let mut socket = live::open(base, &id, &token);
                let outcome = live::stream(&mut socket, &frames, 15, Duration::from_secs(40));
                if outcome.verdict().is_some() { 200 } else { 0 }
            }),
        ),
    ];
    println!(
        "| operation | count | facegate CPU ms each | postgres CPU ms each | haproxy CPU ms each | wall p50 ms |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, count, operation) in operations {
        let before = ["facegate", "postgres", "haproxy"].map(cpu_seconds);
        let mut latencies = Vec::new();
        for n in 0..count {
            let began = std::time::Instant::now();
            assert!((200..300).contains(&operation(n)), "{name} failed");
            latencies.push(began.elapsed());
        }
        let after = ["facegate", "postgres", "haproxy"].map(cpu_seconds);
        let each = |i: usize| (after[i] - before[i]) * 1000.0 / count as f64;
        println!(
            "| {name} | {count} | {:.1} | {:.2} | {:.2} | {:.0} |",
            each(0),
            each(1),
            each(2),
            quantile_ms(&latencies, 0.5)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 5 && args[1] == "hops" {
        return hops(&args[2], &args[3], &args[4]);
    }
    if args.len() < 4 {
        eprintln!("usage: mixed_load BASE_URL API_KEY SECONDS [LIVE_SESSIONS]");
        std::process::exit(2);
    }
    // the live sessions' `live::open` loads the client's face engine: load it before any
    // operation is timed
    facegate_blackbox_tests::engine();
    if args.len() == 4 && args[1] == "costs" {
        return costs(&args[2], &args[3]);
    }
    let (base, key) = (args[1].clone(), args[2].clone());
    let seconds: u64 = args[3].parse().expect("SECONDS");
    let live_sessions: usize = args.get(4).map_or(2, |n| n.parse().expect("LIVE_SESSIONS"));

    let (ct, body) = json_body(json!({"external_id": "customers"}));
    let made = try_send(
        "POST",
        &format!("{base}/api/v2/collections"),
        Some(&key),
        ct,
        body,
    );
    assert!(matches!(made.0, 201 | 409), "collection: {:?}", made);

    let mut load = Load::new();
    let (b, k) = (base.clone(), key.clone());
    load.spawn("index", move |n| {
        index_face(&b, &k, "customers", photo(n), &format!("load-{n}"))
    });
    let (b, k) = (base.clone(), key.clone());
    load.spawn("search", move |n| {
        search_by_image(&b, &k, "customers", photo(n))
    });
    let (b, k) = (base.clone(), key.clone());
    load.spawn("compare", move |n| compare(&b, &k, photo(n), photo(n + 1)));
    let (b, k) = (base.clone(), key.clone());
    // paced: creating sessions is cheap, and a real client streams the ones it creates
    load.spawn_paced("create_session", Duration::from_millis(100), move |_| {
        let (ct, body) = json_body(json!({"mode": "passive"}));
        try_send(
            "POST",
            &format!("{b}/api/v1/managed-session"),
            Some(&k),
            ct,
            body,
        )
    });
    let frames = std::sync::Arc::new(video_frames("webcam-man-1", 15, 0.0, 12.0));
    for _ in 0..live_sessions {
        let (b, k, frames) = (base.clone(), key.clone(), frames.clone());
        load.spawn("live_session", move |_| {
            let (ct, body) = json_body(json!({"mode": "passive"}));
            let created = try_send(
                "POST",
                &format!("{b}/api/v1/managed-session"),
                Some(&k),
                ct,
                body,
            );
            if created.0 != 201 {
                return created;
            }
            let (id, token) = id_and_token(&created.3);
            let mut socket = live::open(&b, &id, &token);
            let outcome = live::stream(&mut socket, &frames, 15, Duration::from_secs(40));
            match outcome.verdict() {
                Some(v) => (
                    200,
                    v["verdict"].as_str().unwrap_or("").to_owned(),
                    None,
                    v.clone(),
                ),
                None => (0, "no verdict".into(), None, json!(outcome.messages)),
            }
        });
    }
    std::thread::sleep(Duration::from_secs(seconds));
    let elapsed = load.elapsed().as_secs_f64();
    let outcomes = load.stop();

    println!("| operation | done | failed | per second | p50 ms | p99 ms |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut report = serde_json::Map::new();
    for op in [
        "index",
        "search",
        "compare",
        "create_session",
        "live_session",
    ] {
        let of_op: Vec<_> = outcomes.iter().filter(|o| o.op == op).collect();
        let ok: Vec<Duration> = of_op.iter().filter(|o| o.ok()).map(|o| o.latency).collect();
        let failed = of_op.len() - ok.len();
        let rate = ok.len() as f64 / elapsed;
        let (p50, p99) = (quantile_ms(&ok, 0.5), quantile_ms(&ok, 0.99));
        println!(
            "| {op} | {} | {failed} | {rate:.2} | {p50:.0} | {p99:.0} |",
            ok.len()
        );
        report.insert(
            op.into(),
            json!({"done": ok.len(), "failed": failed, "per_second": rate, "p50_ms": p50, "p99_ms": p99}),
        );
    }
    let verdicts: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.op == "live_session")
        .map(|o| o.code.as_str())
        .collect();
    println!("live session verdicts: {verdicts:?}");
    println!("{}", serde_json::Value::Object(report));
}
