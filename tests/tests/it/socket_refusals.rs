//! The WebSocket refuses and closes with its documented codes: wrong or oversized tokens,
//! unknown sessions, a second socket (and 100 more), oversized frames, text, floods, idle
//! sockets and clients that never read, each releasing the session.

use std::time::{Duration, Instant};

use facegate_blackbox_tests::live;
use facegate_blackbox_tests::{create_key, get, id_and_token, post_managed_session, start_server};
use serde_json::json;
use tungstenite::Message;

#[test]
fn the_socket_refuses_wrong_tokens_second_sockets_big_frames_and_text() {
    let server = start_server(&[]);
    let key = create_key(&server, "t");
    let created = post_managed_session(&server, &key, json!({"mode": "passive"}));
    let (id, token) = id_and_token(&created.body);
    let wait = Duration::from_secs(10);

    let wrong = live::send_and_wait_close(&server.base_url, &id, "wrong", Vec::new(), wait);
    assert_eq!(
        (wrong.error_code(), wrong.close_code),
        (Some("session_not_found"), Some(4004))
    );
    let long =
        live::send_and_wait_close(&server.base_url, &id, &"t".repeat(10_000), Vec::new(), wait);
    assert_eq!(long.close_code, Some(4004));
    let unknown =
        live::send_and_wait_close(&server.base_url, "not-a-uuid", &token, Vec::new(), wait);
    assert_eq!(unknown.close_code, Some(4004));

    let mut first = live::open(&server.base_url, &id, &token);
    let _ = live::stream(&mut first, &[], 1, Duration::from_millis(300));
    let second = live::send_and_wait_close(&server.base_url, &id, &token, Vec::new(), wait);
    assert_eq!(
        (second.error_code(), second.close_code),
        (Some("session_busy"), Some(4029))
    );
    // 100 more sockets to the same session: every one refused, none held
    for _ in 0..100 {
        let extra = live::send_and_wait_close(&server.base_url, &id, &token, Vec::new(), wait);
        assert_eq!(extra.close_code, Some(4029));
    }
    first
        .send(Message::Binary(vec![0xFF; 1_600_000].into()))
        .expect("send big frame");
    let big = live::stream(&mut first, &[], 1, wait);
    assert_eq!(
        (big.error_code(), big.close_code),
        (Some("frame_too_large"), Some(1009))
    );

    let text = live::send_and_wait_close(
        &server.base_url,
        &id,
        &token,
        vec![Message::Text("hello".into())],
        wait,
    );
    assert_eq!(
        (text.error_code(), text.close_code),
        (Some("text_not_accepted"), Some(1003))
    );

    // a 10 MB frame: refused the same way, memory stays bounded
    let huge = live::send_and_wait_close(
        &server.base_url,
        &id,
        &token,
        vec![Message::Binary(vec![0u8; 10_000_000].into())],
        wait,
    );
    assert_eq!(huge.close_code, Some(1009));

    // 1,000 junk frames in about a second: the socket stays up, answers guidance, no 5xx after
    let mut flood = live::open(&server.base_url, &id, &token);
    for _ in 0..1000 {
        if flood.send(Message::Binary(vec![1, 2, 3].into())).is_err() {
            break;
        }
    }
    let after = live::stream(&mut flood, &[], 1, Duration::from_secs(2));
    assert!(
        after
            .messages
            .iter()
            .any(|m| m["type"] == "guidance" || m["type"] == "verdict"),
        "{:?}",
        after.messages
    );
    let health = get(&format!("{}/healthz", server.base_url), None);
    assert_eq!(health.status, 200);
}

#[test]
fn idle_sockets_and_clients_that_never_read_are_closed_and_free_the_session() {
    let server = start_server(&[("FACEGATE__SESSIONS__SOCKET_IDLE_SECONDS", "2")]);
    let key = create_key(&server, "t");
    let created = post_managed_session(&server, &key, json!({"mode": "passive"}));
    let (id, token) = id_and_token(&created.body);

    // held open with no frames: closed 4000 after the idle timeout
    let started = Instant::now();
    let idle = live::send_and_wait_close(
        &server.base_url,
        &id,
        &token,
        Vec::new(),
        Duration::from_secs(10),
    );
    assert_eq!(
        (idle.error_code(), idle.close_code),
        (Some("idle_timeout"), Some(4000))
    );
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );

    // a client that sends frames but never reads (so never answers a ping) is dropped, and
    // the session is free again for a reconnect
    let mut silent = live::open(&server.base_url, &id, &token);
    let junk = vec![0xFFu8, 0xD8, 0xFF, 0xD9];
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if silent.send(Message::Binary(junk.clone().into())).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(silent);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let again = live::send_and_wait_close(
            &server.base_url,
            &id,
            &token,
            Vec::new(),
            Duration::from_secs(5),
        );
        if again.close_code != Some(4029) {
            assert_eq!(
                again.messages.first().map(|m| m["type"].clone()),
                Some(json!("ready"))
            );
            break;
        }
        assert!(Instant::now() < deadline, "the session stayed busy");
        std::thread::sleep(Duration::from_millis(200));
    }
}
