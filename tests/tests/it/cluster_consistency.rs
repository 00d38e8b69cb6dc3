//! Three replicas behind HAProxy on one PostgreSQL (`scripts/cluster.sh`): a session created,
//! streamed and read on different replicas; faces indexed on one found and deleted from the
//! others at once; rate limits, the failed-credential lock-out and direct-session attempts
//! counted for the whole deployment; a webhook whose delivering replica is killed mid-delivery
//! arriving again with the same `webhook-id`; and the refusals of a replica that does not match
//! its peers.

use std::time::{Duration, Instant};

use facegate_blackbox_tests::cluster::Cluster;
use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::load::{index_face, search_by_image};
use facegate_blackbox_tests::receiver::{HttpsReceiver, TestCa};
use facegate_blackbox_tests::{
    create_managed_session_at, get, get_bytes, id_and_token, json_body, send,
};
use serde_json::json;

fn index(base_url: &str, key: &str, photo: &str, external_id: &str) -> String {
    let (status, _, _, body) = index_face(base_url, key, "customers", photo, external_id);
    assert_eq!(status, 201, "{body}");
    body["face_id"].as_str().expect("face_id").to_owned()
}

fn search_names(base_url: &str, key: &str, photo: &str) -> Vec<String> {
    let (status, _, _, body) = search_by_image(base_url, key, "customers", photo);
    assert_eq!(status, 200, "{body}");
    body["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .filter(|h| h["similarity"].as_f64().unwrap_or(0.0) > 0.5)
        .filter_map(|h| h["external_face_id"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn a_session_and_the_faces_are_the_same_on_every_replica() {
    let cluster = Cluster::up(3, &[]);
    let [r0, r1, r2] = [0, 1, 2].map(|i| cluster.replica_urls[i].clone());
    let key = cluster.create_key("bank");
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    a_session_created_streamed_and_read_on_three_replicas_passes(&cluster, &key, &frames);
    a_session_through_the_balancer_reads_alike_everywhere(&cluster, &key, &frames);
    a_face_indexed_or_deleted_on_one_replica_is_seen_at_once_on_the_others(&key, [&r0, &r1, &r2]);
}

/// Created on replica 1, streamed on replica 2, read (result and portrait) on replica 3.
fn a_session_created_streamed_and_read_on_three_replicas_passes(
    cluster: &Cluster,
    key: &str,
    frames: &[Vec<u8>],
) {
    let [r0, r1, r2] = [0, 1, 2].map(|i| cluster.replica_urls[i].clone());
    let created = create_managed_session_at(&r0, key, json!({"mode": "passive"}));
    let (id, token) = id_and_token(&created);
    let mut socket = live::open(&r1, &id, &token);
    let outcome = live::stream_lit(
        &mut socket,
        frames,
        15,
        Duration::from_secs(40),
        &mut live::live_camera(0.2, 1),
    );
    let verdict = outcome
        .verdict()
        .unwrap_or_else(|| panic!("no verdict: {:?}\n{}", outcome.messages, cluster.logs()));
    assert_eq!(verdict["verdict"], "pass", "{verdict}");
    let result = get(
        &format!("{r2}/api/v1/session/{id}/result?token={token}"),
        None,
    );
    assert_eq!(result.status, 200);
    assert_eq!(
        (
            result.body["status"].as_str(),
            result.body["verdict"].as_str()
        ),
        (Some("completed"), Some("pass")),
        "{}",
        result.body
    );
    let (status, jpeg) = get_bytes(&format!("{r2}/api/v1/session/{id}/photo?token={token}"));
    assert_eq!((status, jpeg.len() > 1000), (200, true));
}

/// The same through the balancer, which spreads the calls over the replicas.
fn a_session_through_the_balancer_reads_alike_everywhere(
    cluster: &Cluster,
    key: &str,
    frames: &[Vec<u8>],
) {
    let lb = cluster.lb_url.clone();
    let created = create_managed_session_at(&lb, key, json!({"mode": "passive"}));
    let (id, token) = id_and_token(&created);
    let mut socket = live::open(&lb, &id, &token);
    let outcome = live::stream_lit(
        &mut socket,
        frames,
        15,
        Duration::from_secs(40),
        &mut live::live_camera(0.2, 2),
    );
    assert_eq!(
        outcome.verdict().map(|v| v["verdict"].clone()),
        Some(json!("pass")),
        "{:?}",
        outcome.messages
    );
    for _ in 0..3 {
        let result = get(
            &format!("{lb}/api/v1/session/{id}/result?token={token}"),
            None,
        );
        assert_eq!(result.body["verdict"], "pass", "{}", result.body);
    }
}

/// A face indexed on one replica is found by the next search on another, at once; deleted on
/// a third, it is gone from the next search on the others.
fn a_face_indexed_or_deleted_on_one_replica_is_seen_at_once_on_the_others(
    key: &str,
    [r0, r1, r2]: [&str; 3],
) {
    let (ct, body) = json_body(json!({"external_id": "customers"}));
    let made = send(
        "POST",
        &format!("{r0}/api/v2/collections"),
        Some(key),
        ct,
        body,
    );
    assert_eq!(made.status, 201, "{:?}", made.body);
    let penny = index(r0, key, "identities/tv-cast/penny/penny1.png", "penny");
    index(r2, key, "identities/tv-cast/raj/raj1.png", "raj");
    assert_eq!(
        search_names(r1, key, "identities/tv-cast/penny/penny3.png"),
        ["penny"]
    );
    assert_eq!(
        search_names(r0, key, "identities/tv-cast/raj/raj2.png"),
        ["raj"]
    );
    let deleted = send(
        "DELETE",
        &format!("{r2}/api/v2/collections/customers/faces/{penny}"),
        Some(key),
        None,
        Vec::new(),
    );
    assert!(
        (200..300).contains(&deleted.status),
        "{}: {:?}",
        deleted.status,
        deleted.body
    );
    for replica in [r0, r1] {
        assert!(
            search_names(replica, key, "identities/tv-cast/penny/penny3.png").is_empty(),
            "a deleted face is still found on {replica}"
        );
    }
}

/// Waits until at least `margin` seconds are left in the current minute, so a test that counts
/// inside one fixed window never straddles two.
fn start_of_a_fresh_window(margin: u64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let left = 60 - now % 60;
    if left < margin {
        std::thread::sleep(Duration::from_secs(left + 1));
    }
}

#[test]
fn limits_and_attempt_counts_hold_for_the_whole_deployment() {
    let cluster = Cluster::up(
        3,
        &[
            ("FACEGATE__RATE_LIMIT__PER_SECOND", "0"),
            ("FACEGATE__RATE_LIMIT__PER_MINUTE", "30"),
            ("FACEGATE__SECURITY__FAILED_CREDENTIALS_PER_MINUTE", "12"),
            ("FACEGATE__SESSIONS__DIRECT__MAX_ATTEMPTS", "3"),
        ],
    );
    let replicas = cluster.replica_urls.clone();
    let key = cluster.create_key("bank");
    the_per_minute_limit_counts_every_replica(&replicas, &key);
    direct_session_attempts_count_every_replica(&replicas);
    a_lockout_on_one_replica_holds_on_all_but_spares_probes(&replicas);
    // a valid key (a second one: the first is over its per-minute limit by now) is served
    let fresh_key = cluster.create_key("shop");
    let reply = get(
        &format!("{}/api/v2/collections", cluster.lb_url),
        Some(&fresh_key),
    );
    assert_eq!(
        reply.status, 200,
        "a valid key through the balancer: {:?}",
        reply.body
    );
}

/// 45 requests spread over three replicas: 30 pass, the rest get 429 (not 90 allowed).
fn the_per_minute_limit_counts_every_replica(replicas: &[String], key: &str) {
    start_of_a_fresh_window(20);
    let mut passed = 0;
    let mut limited = 0;
    for n in 0..45 {
        let reply = get(
            &format!("{}/api/v2/collections", replicas[n % 3]),
            Some(key),
        );
        match (reply.status, reply.code()) {
            (200, _) => passed += 1,
            (429, "rate_limited") => limited += 1,
            other => panic!("unexpected {other:?}: {:?}", reply.body),
        }
    }
    println!("per-minute limit 30 over 3 replicas: {passed} passed, {limited} limited");
    assert_eq!((passed, limited), (30, 15));
}

/// Direct sessions: 6 concurrent creations from one address over three replicas, 3 allowed.
fn direct_session_attempts_count_every_replica(replicas: &[String]) {
    let created: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..6)
            .map(|n| {
                let url = format!("{}/api/v1/session", replicas[n % 3]);
                scope.spawn(move || {
                    let (ct, body) = json_body(json!({"fingerprint_id": "browser-1"}));
                    send("POST", &url, None, ct, body).status
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    let allowed = created.iter().filter(|s| **s == 201).count();
    let refused = created.iter().filter(|s| **s == 429).count();
    println!("direct-session attempts, max 3, 6 at once over 3 replicas: {created:?}");
    assert_eq!((allowed, refused), (3, 3), "{created:?}");
}

/// Failed credentials: 12 wrong keys spread over the replicas lock the address out of all of
/// them for guessing, but not for its probes or its metrics (HAProxy's health checks come from
/// this very address).
fn a_lockout_on_one_replica_holds_on_all_but_spares_probes(replicas: &[String]) {
    start_of_a_fresh_window(20);
    for n in 0..12 {
        let reply = get(
            &format!("{}/api/v2/collections", replicas[n % 3]),
            Some("fg_0000000000000000_wrong"),
        );
        assert_eq!(reply.status, 401, "{n}: {:?}", reply.body);
    }
    for replica in replicas {
        let reply = get(
            &format!("{replica}/api/v2/collections"),
            Some("fg_0000000000000000_wrong"),
        );
        assert_eq!(
            (reply.status, reply.code()),
            (429, "too_many_failed_attempts"),
            "{replica} let a locked-out address go on guessing"
        );
        for probe in ["/healthz", "/readyz", "/metrics"] {
            let reply = get(&format!("{replica}{probe}"), None);
            assert_eq!(
                reply.status, 200,
                "{replica}{probe} from a locked-out address"
            );
        }
    }
}

#[test]
fn a_webhook_whose_replica_is_killed_mid_delivery_arrives_with_one_webhook_id() {
    let ca = TestCa::new();
    let (first_arrived, arrived) = std::sync::mpsc::channel::<()>();
    let first_arrived = std::sync::Mutex::new(first_arrived);
    // the first delivery is held open until its sender has been killed
    let receiver = HttpsReceiver::start(&ca, 0, move |n| {
        if n == 0 {
            let _ = first_arrived.lock().expect("sender").send(());
            std::thread::sleep(Duration::from_secs(4));
        }
        200
    });
    let ca_file = ca.ca_file.to_str().expect("utf-8").to_owned();
    let cluster = Cluster::up(
        3,
        &[
            ("FACEGATE__WEBHOOKS__ALLOWED_NETWORKS", "127.0.0.0/8"),
            ("FACEGATE__WEBHOOKS__CA_FILE", &ca_file),
            ("FACEGATE__WEBHOOKS__POLL_INTERVAL_MS", "100"),
        ],
    );
    let key = cluster.create_key("bank");
    let secret = cluster.cli(&["webhooks", "secret", "--tenant", "bank"]);
    let lb = cluster.lb_url.clone();
    let created = create_managed_session_at(
        &lb,
        &key,
        json!({
            "mode": "passive",
            "webhook_url": format!("https://127.0.0.1:{}/hooks", receiver.port),
        }),
    );
    let (id, token) = id_and_token(&created);
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let mut socket = live::open(&lb, &id, &token);
    let outcome = live::stream_lit(
        &mut socket,
        &frames,
        15,
        Duration::from_secs(40),
        &mut live::live_camera(0.2, 3),
    );
    assert_eq!(
        outcome.verdict().map(|v| v["verdict"].clone()),
        Some(json!("pass")),
        "{:?}",
        outcome.messages
    );

    arrived
        .recv_timeout(Duration::from_secs(30))
        .expect("the first delivery arrives");
    // the replica holding the receiver's connection is the one delivering: kill it
    let sender_pid = delivering_pid(receiver.port).expect("a facegate process is connected");
    let killed = (0..3)
        .find(|i| cluster.replica_pid(*i) == Some(sender_pid))
        .expect("the sender is one of the replicas");
    cluster.kill(killed);
    let killed_at = Instant::now();
    println!("killed replica {} mid-delivery", killed + 1);

    another_replica_redelivers_it_with_the_same_id(&receiver, &secret, killed_at);
    let deliveries = get(
        &format!("{lb}/api/v1/session/{id}/webhook-deliveries"),
        Some(&key),
    );
    let delivery = &deliveries.body["deliveries"][0];
    assert_eq!(delivery["status"], "delivered", "{}", deliveries.body);
    // `delivered` is final: no replica claims the delivery again, so the receiver's count
    // now is its count for ever (the killed sender can send nothing more)
    assert_eq!(receiver.received().len(), 2, "delivered, then never again");
    drop(token);
}

/// Another replica claims the delivery once the killed sender's lease runs out and sends the
/// same event with the same webhook id, signed.
fn another_replica_redelivers_it_with_the_same_id(
    receiver: &HttpsReceiver,
    secret: &str,
    killed_at: Instant,
) {
    let got = receiver.wait_for(2, Duration::from_secs(60));
    assert_eq!(got.len(), 2, "redelivered after the sender died");
    println!(
        "redelivered {:.1} s after the kill",
        killed_at.elapsed().as_secs_f64()
    );
    assert_eq!(got[0].headers["webhook-id"], got[1].headers["webhook-id"]);
    assert_eq!(got[0].body, got[1].body, "the same event");
    let timestamp: i64 = got[1].headers["webhook-timestamp"]
        .parse()
        .expect("timestamp");
    assert!(webhooks::signing::verify(
        secret,
        &got[1].headers["webhook-id"],
        timestamp,
        &got[1].body,
        &got[1].headers["webhook-signature"]
    ));
}

/// The process id of the `facegate` whose connection to `port` is open (read with `ss`).
fn delivering_pid(port: u16) -> Option<u32> {
    let output = std::process::Command::new("ss")
        .args([
            "-Htnp",
            "state",
            "established",
            &format!("( dport = :{port} )"),
        ])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.split("pid=")
        .nth(1)?
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

#[test]
fn a_replica_that_does_not_match_its_peers_refuses() {
    let cluster = Cluster::up(1, &[]);
    // another server secret: refuses to start and says why
    let outcome = cluster.try_extra_replica(
        &[(
            "FACEGATE__SECURITY__SERVER_SECRET",
            "a-different-secret-0123456789abcdef0123456789",
        )],
        Duration::from_secs(60),
    );
    assert!(outcome.starts_with("exited"), "{outcome}");
    assert!(
        outcome.contains("security.server_secret differs"),
        "{outcome}"
    );
}
