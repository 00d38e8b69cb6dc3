//! Token and key guessing against the real binary: 10,000 wrong API keys and 10,000 wrong session
//! tokens are all refused the same way, on SQLite and on PostgreSQL; refused credentials lock the
//! client address out of guessing for the rest of its minute (429 `too_many_failed_attempts` for
//! keys, tokens and links) while its probes, its metrics and its valid keys, and other addresses,
//! go on; and the time to refuse a key with a right or a wrong prefix is printed
//! (measured, never asserted: docs/security.md).

use std::collections::BTreeMap;
use std::time::Instant;

use facegate_blackbox_tests::{
    Backend, backends, create_key, create_managed_session, id_and_token, start_server,
    start_server_on,
};
use serde_json::json;

struct Client {
    agent: ureq::Agent,
}

impl Client {
    fn new() -> Self {
        Self {
            agent: ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .into(),
        }
    }

    /// Status, the error code and the whole body of a GET.
    fn get(&self, url: &str, key: Option<&str>, forwarded_for: Option<&str>) -> (u16, String) {
        let mut request = self.agent.get(url);
        if let Some(key) = key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        if let Some(address) = forwarded_for {
            request = request.header("X-Forwarded-For", address);
        }
        let mut response = request.call().expect("request");
        let status = response.status().as_u16();
        (
            status,
            response.body_mut().read_to_string().unwrap_or_default(),
        )
    }
}

fn random_hex(seed: u64, len: usize) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from_digit((state % 16) as u32, 16).expect("hex digit")
        })
        .collect()
}

#[test]
fn ten_thousand_wrong_keys_and_tokens_are_refused_alike() {
    for backend in backends() {
        guess_keys_and_tokens(backend);
    }
}

fn guess_keys_and_tokens(backend: Backend) {
    let mut server = start_server_on(
        backend,
        &[("FACEGATE__SECURITY__FAILED_CREDENTIALS_PER_MINUTE", "0")],
    );
    let key = create_key(&server, "bank");
    let (id, token) = id_and_token(&create_managed_session(&server, &key, json!({})));
    let client = Client::new();
    let prefix = key.split('_').take(2).collect::<Vec<_>>().join("_");
    let mut answers: BTreeMap<(u16, String), usize> = BTreeMap::new();
    for n in 0..10_000u64 {
        let guess = match n % 4 {
            0 => format!("{prefix}_{}", random_hex(n, 64)),
            1 => random_hex(n, 64),
            2 => format!("{}{}", &key[..key.len() - 1], random_hex(n, 1)),
            _ => format!("fg_{}", random_hex(n, 20)),
        };
        if guess == key {
            continue;
        }
        let answer = client.get(
            &format!("{}/api/v2/collections", server.base_url),
            Some(&guess),
            None,
        );
        *answers.entry(answer).or_default() += 1;
    }
    println!(
        "wrong API keys tried: 10000, distinct answers: {}",
        answers.len()
    );
    assert_eq!(answers.len(), 1, "{answers:#?}");
    assert_eq!(answers.keys().next().map(|(s, _)| *s), Some(401));

    let mut answers: BTreeMap<(u16, String), usize> = BTreeMap::new();
    for n in 0..10_000u64 {
        let (session, guess) = match n % 3 {
            0 => (id.clone(), random_hex(n, 64)),
            1 => (uuid_like(n), token.clone()),
            _ => (id.clone(), format!("{}{}", &token[..63], random_hex(n, 1))),
        };
        if guess == token && session == id {
            continue;
        }
        let url = format!(
            "{}/api/v1/session/{session}/result?token={guess}",
            server.base_url
        );
        *answers.entry(client.get(&url, None, None)).or_default() += 1;
    }
    println!(
        "wrong session tokens tried: 10000, distinct answers: {}",
        answers.len()
    );
    assert_eq!(answers.len(), 1, "{answers:#?}");
    assert_eq!(answers.keys().next().map(|(s, _)| *s), Some(404));
    let (status, _) = client.get(
        &format!(
            "{}/api/v1/session/{id}/result?token={token}",
            server.base_url
        ),
        None,
        None,
    );
    assert_eq!(status, 200, "the right token still reads");
    server.assert_battery_survived(
        &format!("key and token guessing on {}", backend.name()),
        20_000,
        512,
    );
}

fn uuid_like(n: u64) -> String {
    let hex = random_hex(n, 32);
    format!(
        "{}-{}-7{}-8{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[13..16],
        &hex[17..20],
        &hex[20..]
    )
}

#[test]
fn refused_credentials_lock_the_address_out_for_a_minute() {
    let server = start_server(&[
        ("FACEGATE__SECURITY__FAILED_CREDENTIALS_PER_MINUTE", "20"),
        ("FACEGATE__SERVER__TRUSTED_PROXIES", "127.0.0.0/8"),
    ]);
    let key = create_key(&server, "bank");
    let (id, token) = id_and_token(&create_managed_session(&server, &key, json!({})));
    let client = Client::new();
    let collections = format!("{}/api/v2/collections", server.base_url);
    let attacker = Some("203.0.113.7");
    for _ in 0..10 {
        assert_eq!(client.get(&collections, Some("fg_wrong"), attacker).0, 401);
    }
    for _ in 0..10 {
        let url = format!("{}/api/v1/session/{id}/result?token=wrong", server.base_url);
        assert_eq!(client.get(&url, None, attacker).0, 404);
    }
    // locked out of guessing: wrong keys, session tokens and verification links
    let (status, body) = client.get(&collections, Some("fg_wrong"), attacker);
    assert_eq!(status, 429, "a wrong key from a locked-out address: {body}");
    assert!(body.contains("too_many_failed_attempts"), "{body}");
    let url = format!("{}/api/v1/session/{id}/result?token=wrong", server.base_url);
    assert_eq!(client.get(&url, None, attacker).0, 429);
    let page = format!("{}/verify/{id}?token={token}", server.base_url);
    assert_eq!(client.get(&page, None, attacker).0, 429);
    // never out of the probes, the metrics, or a request with a valid key
    for probe in ["/healthz", "/readyz", "/metrics"] {
        let url = format!("{}{probe}", server.base_url);
        assert_eq!(client.get(&url, None, attacker).0, 200, "{probe}");
    }
    let (status, body) = client.get(&collections, Some(&key), attacker);
    assert_eq!(status, 200, "a valid key from a locked-out address: {body}");
    // another address is not affected
    let neighbour = Some("203.0.113.8");
    assert_eq!(client.get(&collections, Some(&key), neighbour).0, 200);
    assert_eq!(client.get(&page, None, neighbour).0, 200);
}

#[test]
fn refusing_a_right_or_a_wrong_key_prefix_takes_the_same_time() {
    let server = start_server(&[("FACEGATE__SECURITY__FAILED_CREDENTIALS_PER_MINUTE", "0")]);
    let key = create_key(&server, "bank");
    let client = Client::new();
    let url = format!("{}/api/v2/collections", server.base_url);
    let prefix = key.split('_').take(2).collect::<Vec<_>>().join("_");
    let (mut right, mut wrong) = (Vec::new(), Vec::new());
    for n in 0..2_000u64 {
        for (guess, times) in [
            (format!("{prefix}_{}", random_hex(n, 64)), &mut right),
            (
                format!("fg_{}_{}", random_hex(n + 7, 16), random_hex(n, 64)),
                &mut wrong,
            ),
        ] {
            let started = Instant::now();
            let (status, _) = client.get(&url, Some(&guess), None);
            times.push(started.elapsed().as_micros());
            assert_eq!(status, 401);
        }
    }
    let median = |v: &mut Vec<u128>| {
        v.sort_unstable();
        v[v.len() / 2]
    };
    let p90 = |v: &Vec<u128>| v[v.len() * 9 / 10];
    let (right_median, wrong_median) = (median(&mut right), median(&mut wrong));
    println!(
        "refusal time over 2000 requests each: right prefix median {right_median} µs (p90 {}), \
         wrong prefix median {wrong_median} µs (p90 {})",
        p90(&right),
        p90(&wrong)
    );
}
