//! WebSocket batteries against the real binary, on SQLite and on PostgreSQL: 100 sockets racing
//! for one session while it streams (every one refused with 4029, the streaming one unharmed and
//! passing), a socket flooding garbage frames as fast as it can (the session ends, the
//! server keeps serving), and a client streaming faster than `max_fps` (told `slow_down`, its
//! session going on). Each asserts no panic in the log, no leaked socket and bounded memory.

use std::time::{Duration, Instant};

use facegate_blackbox_tests::live::{self, video_frames};
use facegate_blackbox_tests::{
    Backend, backends, create_key, create_managed_session, get, id_and_token, metric_sample,
    scrape_metrics, session_result, start_server_on,
};
use serde_json::json;
use tungstenite::Message;

#[test]
fn a_hundred_sockets_on_one_session_are_refused_and_the_streaming_one_passes() {
    for backend in backends() {
        race_for_one_session(backend);
    }
}

fn race_for_one_session(backend: Backend) {
    // a streamed session whose verdict is asserted, beside 100 socket threads: one heavy test
    // at a time (`exclusive_machine`), so that neither it nor a browser test beside it starves
    let _turn = live::exclusive_lit_sessions();
    let mut server = start_server_on(backend, &[]);
    let key = create_key(&server, "bank");
    let (id, token) = id_and_token(&create_managed_session(
        &server,
        &key,
        json!({"mode": "passive"}),
    ));
    let frames = video_frames("webcam-man-1", 15, 0.0, 12.0);
    let mut socket = live::open(&server.base_url, &id, &token);
    socket
        .send(Message::binary(frames[0].clone()))
        .expect("first frame");
    assert!(
        live::await_ready(&mut socket, Duration::from_secs(10)),
        "the streaming socket holds the session"
    );

    let racers: Vec<_> = (0..100)
        .map(|_| {
            let (base, id, token) = (server.base_url.clone(), id.clone(), token.clone());
            std::thread::spawn(move || {
                live::send_and_wait_close(&base, &id, &token, Vec::new(), Duration::from_secs(20))
            })
        })
        .collect();
    let mut refused = 0;
    for racer in racers {
        let outcome = racer.join().expect("racer");
        assert_eq!(
            (outcome.error_code(), outcome.close_code),
            (Some("session_busy"), Some(4029)),
            "{:?}",
            outcome.messages
        );
        refused += 1;
    }
    println!("sockets racing for one streaming session: {refused} refused with 4029");

    // the light sequence ran out while the racers were refused, before any lit frame: the
    // session is judged without light, `retry` (never `fail`)
    let outcome = live::stream(&mut socket, &frames[1..], 15, Duration::from_secs(40));
    let verdict = outcome
        .verdict()
        .expect("the streaming socket still gets its verdict");
    assert_eq!(verdict["verdict"], "retry", "{verdict}");
    server.assert_battery_survived(
        &format!("100 sockets on one session on {}", backend.name()),
        refused + 1,
        512,
    );
}

#[test]
fn a_socket_flooding_garbage_ends_its_session_and_the_server_keeps_serving() {
    for backend in backends() {
        flood_garbage(backend);
    }
}

fn flood_garbage(backend: Backend) {
    let mut server = start_server_on(backend, &[]);
    let key = create_key(&server, "bank");
    let (id, token) = id_and_token(&create_managed_session(
        &server,
        &key,
        json!({"mode": "passive"}),
    ));
    let mut socket = live::open(&server.base_url, &id, &token);
    let started = Instant::now();
    let mut sent = 0u64;
    let mut ended = false;
    while started.elapsed() < Duration::from_secs(20) && sent < 20_000 {
        let garbage: Vec<u8> = (0..512).map(|i| (i as u64 * 31 + sent) as u8).collect();
        if socket.send(Message::binary(garbage)).is_err() {
            ended = true;
            break;
        }
        sent += 1;
        match socket.read() {
            Ok(Message::Close(_)) | Err(tungstenite::Error::ConnectionClosed) => {
                ended = true;
                break;
            }
            _ => {}
        }
    }
    let outcome = live::stream(&mut socket, &[], 1, Duration::from_secs(10));
    println!(
        "garbage frames sent before the end: {sent} in {:?}; close {:?}",
        started.elapsed(),
        outcome.close_code
    );
    assert!(
        ended || outcome.close_code.is_some(),
        "the flood ends the socket"
    );
    let result = session_result(&server, &id, &token);
    assert!(result.status < 500, "{:?}", result.body);
    assert_ne!(result.body["verdict"], "pass", "{:?}", result.body);
    let health = get(&format!("{}/healthz", server.base_url), None);
    assert_eq!(health.status, 200);
    server.assert_battery_survived(
        &format!("garbage socket flood on {}", backend.name()),
        sent as usize,
        512,
    );
}

#[test]
fn a_client_streaming_past_max_fps_is_told_to_slow_down_and_its_session_goes_on() {
    let mut server = start_server_on(Backend::Sqlite, &[]);
    let key = create_key(&server, "bank");
    let (id, token) = id_and_token(&create_managed_session(
        &server,
        &key,
        json!({"mode": "passive"}),
    ));
    // distinct frames of a real face, 150 a second for 2 s: five times the rate
    let frames = video_frames("webcam-man-1", 150, 0.0, 2.0);
    let mut socket = live::open(&server.base_url, &id, &token);
    let outcome = live::stream(&mut socket, &frames, 150, Duration::from_secs(2));
    let ready = outcome
        .messages
        .iter()
        .find(|m| m["type"] == "ready")
        .expect("ready");
    assert_eq!(ready["data"]["max_fps"], 30, "{ready}");
    let told: Vec<&serde_json::Value> = outcome
        .messages
        .iter()
        .filter(|m| m["type"] == "slow_down")
        .collect();
    // at most one a second, and the data names the rate
    assert!((1..=3).contains(&told.len()), "{told:?}");
    assert!(told.iter().all(|m| m["data"]["max_fps"] == 30), "{told:?}");
    assert_eq!(outcome.close_code, None, "the socket stays open");
    assert_eq!(outcome.error_code(), None, "{:?}", outcome.messages);
    assert!(outcome.verdict().is_none(), "{:?}", outcome.messages);
    let over_rate = metric_sample(
        &scrape_metrics(&server.base_url),
        "facegate_session_frames_over_rate_total",
    )
    .expect("facegate_session_frames_over_rate_total");
    // of about 300 frames sent, at most a second's worth and 30 a second were taken
    let sent = outcome.frames_sent as f64;
    assert!(
        over_rate >= sent - 30.0 - 2.5 * 30.0 && over_rate < sent,
        "{over_rate} of {sent} set aside"
    );
    let result = session_result(&server, &id, &token);
    assert_eq!(result.body["status"], "in_progress", "{:?}", result.body);
    drop(socket);
    server.assert_battery_survived("a client past max_fps", outcome.frames_sent, 512);
}
