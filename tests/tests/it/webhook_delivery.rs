//! Webhooks are never lost: with the receiver down when the verdict is given and the server
//! SIGKILLed while the delivery is pending, the receiver gets exactly one acknowledged delivery
//! after both come back, with the `webhook-id` of the first attempt.

use std::time::Duration;

use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::receiver::{HttpsReceiver, TestCa};
use facegate_blackbox_tests::{
    cli, create_key, create_managed_session, free_port, poll_until, send, start_webhook_server,
};
use serde_json::{Value, json};

fn deliveries(base_url: &str, key: &str, id: &str) -> Value {
    let url = format!("{base_url}/api/v1/session/{id}/webhook-deliveries");
    send("GET", &url, Some(key), None, Vec::new()).body["deliveries"][0].clone()
}

/// Polls the session's first delivery (at most `within`) until `done` holds, and returns it.
fn delivery_when(
    base_url: &str,
    key: &str,
    id: &str,
    within: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    poll_until(
        "the delivery",
        within,
        || deliveries(base_url, key, id),
        done,
    )
}

#[test]
fn a_pending_webhook_survives_a_down_receiver_and_a_sigkilled_server() {
    let ca = TestCa::new();
    let receiver_port = free_port();
    let mut server = start_webhook_server(&ca);
    let key = create_key(&server, "bank");
    let secret = cli(&server, &["webhooks", "secret", "--tenant", "bank"]);
    let id = a_session_passes_with_its_receiver_down(&server, &key, receiver_port);

    // the receiver is down: the first attempt fails and a retry is scheduled
    let first = delivery_when(&server.base_url, &key, &id, Duration::from_secs(20), |d| {
        d["attempts"].as_u64() >= Some(1)
    });
    assert_eq!(first["status"], "pending", "{first}");
    assert_eq!(first["attempt_log"][0]["outcome"], "retry");
    let webhook_id = first["webhook_id"].as_str().expect("webhook id").to_owned();

    // the server dies without any shutdown while the delivery is pending, then comes back
    server.kill_and_restart();
    let receiver = HttpsReceiver::start(&ca, receiver_port, |_| 200);
    let got = receiver.wait_for(1, Duration::from_secs(60));
    assert_eq!(got.len(), 1, "delivered after the restart");
    // once the store holds it delivered no worker claims it again, so what the receiver has
    // now is all it will ever get
    let delivered = delivery_when(&server.base_url, &key, &id, Duration::from_secs(10), |d| {
        d["status"] == "delivered"
    });
    assert_eq!(delivered["attempts"].as_u64(), Some(2), "{delivered}");
    let got = receiver.received();
    assert_eq!(got.len(), 1, "exactly one acknowledged delivery");
    the_hook_is_signed_with_the_first_attempts_id(&got[0], &secret, &webhook_id, &id);
}

fn a_session_passes_with_its_receiver_down(
    server: &facegate_blackbox_tests::Server,
    key: &str,
    receiver_port: u16,
) -> String {
    let created = create_managed_session(
        server,
        key,
        json!({
            "mode": "passive",
            "reference_id": "r-1",
            "webhook_url": format!("https://127.0.0.1:{receiver_port}/hook"),
        }),
    );
    let (id, token) = (
        created["session_id"].as_str().expect("id").to_owned(),
        created["token"].as_str().expect("token").to_owned(),
    );
    let frames = video_frames("expressions-woman-1", 15, 0.0, 12.0);
    // a lit session's verdict is that of a server that keeps up: one at a time
    let _turn = live::exclusive_lit_sessions();
    let mut socket = live::open(&server.base_url, &id, &token);
    let outcome = live::stream_lit(
        &mut socket,
        &frames,
        15,
        Duration::from_secs(40),
        &mut live::live_camera(0.2, 501),
    );
    let verdict = outcome
        .verdict()
        .unwrap_or_else(|| panic!("{:?}", outcome.messages));
    if verdict["verdict"] != "pass" {
        let result = facegate_blackbox_tests::keyed_session_result(server, &id, key).body;
        panic!("{verdict}: the result read with the key: {result}");
    }
    id
}

fn the_hook_is_signed_with_the_first_attempts_id(
    hook: &facegate_blackbox_tests::receiver::Received,
    secret: &str,
    webhook_id: &str,
    session_id: &str,
) {
    assert_eq!(
        hook.headers["webhook-id"], webhook_id,
        "the same webhook-id on every attempt"
    );
    let timestamp: i64 = hook.headers["webhook-timestamp"]
        .parse()
        .expect("timestamp");
    assert!(webhooks::signing::verify(
        secret,
        webhook_id,
        timestamp,
        &hook.body,
        &hook.headers["webhook-signature"]
    ));
    let payload: Value = serde_json::from_str(&hook.body).expect("payload");
    assert_eq!(
        (
            payload["session_id"].as_str(),
            payload["reference_id"].as_str()
        ),
        (Some(session_id), Some("r-1"))
    );
}
