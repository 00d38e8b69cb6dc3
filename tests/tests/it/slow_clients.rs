//! Slow clients against the real binary, each bounded by a timeout while one HTTP worker keeps
//! serving everyone else: headers sent a byte at a time (cut by actix's request-head deadline),
//! bodies dribbled or abandoned half-way (408 `body_timeout` from `server.body_timeout_seconds`
//! and `server.body_idle_seconds`), and clients that ask for responses and never read them
//! (dropped by the kernel after `server.stalled_client_seconds`, their sockets released).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use facegate_blackbox_tests::{Server, create_key, send, start_server};

/// A normal request, timed, while the slow clients hold their connections.
fn served_promptly(server: &Server, key: &str, beside: &str) {
    let started = Instant::now();
    let reply = send(
        "GET",
        &format!("{}/api/v2/collections", server.base_url),
        Some(key),
        None,
        vec![],
    );
    assert_eq!(reply.status, 200);
    println!(
        "a normal request beside {beside} took {:?}",
        started.elapsed()
    );
}

/// Opens a raw connection and sends `head` one byte every `pause`.
fn dribble(port: u16, head: &[u8], pause: Duration, budget: Duration) -> (Duration, bool) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_millis(50)))
        .expect("timeout");
    let started = Instant::now();
    for byte in head {
        if stream.write_all(&[*byte]).is_err() {
            return (started.elapsed(), true);
        }
        std::thread::sleep(pause);
        let mut buf = [0u8; 512];
        match stream.read(&mut buf) {
            Ok(_) => return (started.elapsed(), true),
            Err(_) if started.elapsed() > budget => return (started.elapsed(), false),
            Err(_) => {}
        }
    }
    (started.elapsed(), false)
}

#[test]
fn slow_headers_are_cut_off_and_hold_no_worker_hostage() {
    let server = start_server(&[("FACEGATE__SERVER__WORKERS", "1")]);
    let port = server.port();
    let key = create_key(&server, "slow");
    let slow_header = b"GET /api/v2/collections HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let handles: Vec<_> = (0..8)
        .map(|_| {
            std::thread::spawn(move || {
                dribble(
                    port,
                    slow_header,
                    Duration::from_millis(200),
                    Duration::from_secs(40),
                )
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    served_promptly(&server, &key, "8 clients sending their headers slowly");
    for handle in handles {
        let (elapsed, cut) = handle.join().expect("client thread");
        assert!(cut, "a slow client was never cut off ({elapsed:?})");
        println!("slow header client cut off after {elapsed:?}");
    }
}

/// Sends `head` at once, then `body` a chunk every `pause` (stopping after `stop_after` bytes
/// when given); returns the answer's status line and body and when it came.
fn slow_body(
    port: u16,
    head: String,
    body: Vec<u8>,
    pause: Duration,
    stop_after: Option<usize>,
) -> (String, Duration) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_millis(20)))
        .expect("timeout");
    let started = Instant::now();
    stream.write_all(head.as_bytes()).expect("head");
    let mut answer = Vec::new();
    let mut sent = 0;
    while started.elapsed() < Duration::from_secs(60) {
        let room = stop_after.unwrap_or(body.len()).min(body.len());
        if sent < room {
            let _ = stream.write_all(&body[sent..sent + 1]);
            sent += 1;
        }
        std::thread::sleep(pause);
        let mut buf = [0u8; 4096];
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                answer.extend_from_slice(&buf[..n]);
                if answer.windows(4).any(|w| w == b"\r\n\r\n") && answer.ends_with(b"}") {
                    break;
                }
            }
            Err(_) => {}
        }
    }
    (
        String::from_utf8_lossy(&answer).into_owned(),
        started.elapsed(),
    )
}

#[test]
fn slow_and_abandoned_bodies_get_408_and_hold_no_worker_hostage() {
    let server = start_server(&[
        ("FACEGATE__SERVER__WORKERS", "1"),
        ("FACEGATE__SERVER__BODY_TIMEOUT_SECONDS", "6"),
        ("FACEGATE__SERVER__BODY_IDLE_SECONDS", "3"),
    ]);
    let port = server.port();
    let key = create_key(&server, "slow");
    let json =
        br#"{"external_id":"slowly-sent-collection-name","description":"one byte at a time"}"#;
    let json_head = format!(
        "POST /api/v2/collections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        json.len()
    );
    let multipart = format!(
        "--slow-boundary\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.jpg\"\r\n\
         Content-Type: image/jpeg\r\n\r\n{}\r\n--slow-boundary--\r\n",
        "x".repeat(4000)
    )
    .into_bytes();
    let multipart_head = format!(
        "POST /api/v2/faces:detect HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: multipart/form-data; boundary=slow-boundary\r\nContent-Length: {}\r\n\r\n",
        multipart.len()
    );
    // whole-body deadline: a byte every 200 ms never pauses 3 s but takes far longer than 6 s
    let dribbled = [
        (json_head.clone(), json.to_vec()),
        (multipart_head.clone(), multipart.clone()),
    ]
    .map(|(head, body)| {
        std::thread::spawn(move || slow_body(port, head, body, Duration::from_millis(200), None))
    });
    // idle deadline: 40 bytes, then silence
    let abandoned =
        [(json_head, json.to_vec()), (multipart_head, multipart)].map(|(head, body)| {
            std::thread::spawn(move || {
                slow_body(port, head, body, Duration::from_millis(10), Some(40))
            })
        });
    std::thread::sleep(Duration::from_secs(1));
    served_promptly(&server, &key, "4 clients sending their bodies slowly");
    for (kind, handles, within) in [
        ("dribbled", dribbled, 6.0..15.0),
        ("abandoned", abandoned, 3.0..8.0),
    ] {
        for handle in handles {
            let (answer, after) = handle.join().expect("client thread");
            println!("{kind} body answered after {after:?}");
            assert!(
                answer.starts_with("HTTP/1.1 408") && answer.contains("\"body_timeout\""),
                "{kind} body: {answer}"
            );
            assert!(
                within.contains(&after.as_secs_f64()),
                "{kind} body answered after {after:?}"
            );
        }
    }
    let listed = send(
        "GET",
        &format!("{}/api/v2/collections", server.base_url),
        Some(&key),
        None,
        vec![],
    );
    assert_eq!(
        listed.body["collections"].as_array().map(Vec::len),
        Some(0),
        "no half-sent collection was created"
    );
}

#[test]
fn clients_that_never_read_are_dropped_and_their_sockets_released() {
    let mut server = start_server(&[
        ("FACEGATE__SERVER__WORKERS", "1"),
        ("FACEGATE__SERVER__STALLED_CLIENT_SECONDS", "3"),
    ]);
    let key = create_key(&server, "slow");
    let before = server.open_files();
    // each connection pipelines requests for the OpenAPI document and never reads a byte: the
    // answers fill both sides' socket buffers and the server can send no more
    let request = b"GET /api/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n";
    let pipelined: Vec<u8> = request.repeat(1000);
    let stalled: Vec<TcpStream> = (0..10)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", server.port())).expect("connect");
            stream
                .set_write_timeout(Some(Duration::from_secs(5)))
                .expect("timeout");
            let _ = stream.write_all(&pipelined);
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    let holding = server.open_files();
    println!("open files: {before} before, {holding} with 10 stalled readers");
    assert!(holding >= before + 10, "the stalled connections are open");
    served_promptly(&server, &key, "10 clients that never read");
    let started = Instant::now();
    let released = loop {
        let now = server.open_files();
        if now <= before + 1 {
            break now;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "stalled connections still held after 60 s: {now} open files, {before} before"
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    println!(
        "stalled readers released after {:?} ({released} open files)",
        started.elapsed()
    );
    drop(stalled);
    server.assert_battery_survived("slow readers", 10 * 1000, 512);
}
