//! Guessing defence: failed credentials are counted per client address (the TCP peer, or the
//! first untrusted `X-Forwarded-For` hop behind `server.trusted_proxies`). A refused API key
//! (401) or a session id/token that does not match (404 `session_not_found`, the "link no
//! longer valid" page, a socket closed with 4004) is one failure. An address with
//! `security.failed_credentials_per_minute` failures inside a minute gets 429
//! `too_many_failed_attempts` with `Retry-After` on every request until its minute is over,
//! right credentials included, so guessing costs a minute per few dozen tries. On one process
//! (SQLite) the windows live in memory; on a shared database (PostgreSQL, several replicas)
//! they are counted in the database under a digest of the address, so a guesser spreading
//! tries over the replicas gets no more of them.
//!
//! What the lock-out never touches: `/healthz`, `/readyz` and `/metrics` (a balancer's probe or
//! a scraper shares addresses with clients, and must never see a replica as down because of
//! them), and a request whose API key is valid (256-bit keys cannot be guessed; the key's own
//! rate limits still apply), so one client with a bad key behind an unlisted proxy cannot
//! lock out every integrator behind it. A locked-out address still gets 429 for wrong keys,
//! session tokens and verification links.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::{HttpMessage, ResponseError, web};
use parking_lot::Mutex;

use crate::AppState;
use crate::error::{ApiError, Code, RefusedCredential};

const WINDOW: Duration = Duration::from_secs(60);
/// Beyond this many tracked addresses, finished windows are dropped before a new one is added.
const MAX_TRACKED: usize = 100_000;

/// Put into a request's extensions once its API key is accepted, with the key's tenant: a
/// refusal in such a request (another tenant's session, say) is no guess and is not counted,
/// and the key is not looked up a second time.
#[derive(Debug, Clone, Copy)]
pub struct AcceptedApiKey(pub domain::TenantId);

/// Paths never limited or locked out: the probes and the metrics scraper.
const UNGUARDED_PATHS: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

#[derive(Debug, Clone, Copy)]
struct Window {
    started: Instant,
    failures: u32,
}

/// Failed credentials per client address, in fixed one-minute windows.
#[derive(Debug)]
pub struct FailedCredentials {
    per_minute: u32,
    windows: Mutex<HashMap<IpAddr, Window>>,
    /// Counts in the database instead of in memory (every replica sees the same counts).
    shared: Option<crate::storage::Store>,
}

impl FailedCredentials {
    /// `per_minute` failures lock an address out for the rest of its minute; 0 turns it off.
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            windows: Mutex::new(HashMap::new()),
            shared: None,
        }
    }

    /// The same, counted in `store` for every replica on it.
    pub fn shared(per_minute: u32, store: crate::storage::Store) -> Self {
        Self {
            shared: Some(store),
            ..Self::new(per_minute)
        }
    }

    /// Whether checking and recording reach the database (call them on a blocking thread).
    pub fn is_shared(&self) -> bool {
        self.shared.is_some() && self.per_minute > 0
    }

    fn counter_name(store: &crate::storage::Store, client: IpAddr) -> String {
        format!("fail|{}", store.digest_hex(&client.to_string()))
    }

    /// `Err(seconds to wait)` while `client` is locked out. A shared store that cannot be
    /// reached locks nobody out (the request meets the same outage in its handler).
    pub fn check(&self, client: IpAddr) -> Result<(), u64> {
        match &self.shared {
            Some(store) if self.per_minute > 0 => {
                let now = store.now_millis();
                let name = Self::counter_name(store, client);
                match store.hits_in_window(&name, WINDOW.as_millis() as i64, now) {
                    Ok(window) if window.hits >= i64::from(self.per_minute) => {
                        Err(window.seconds_left(now))
                    }
                    Ok(_) => Ok(()),
                    Err(e) => {
                        tracing::warn!(error = %e, "failed-credential counter unreadable");
                        Ok(())
                    }
                }
            }
            _ => self.check_at(client, Instant::now()),
        }
    }

    fn check_at(&self, client: IpAddr, now: Instant) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        match self.windows.lock().get(&client) {
            Some(w) if now.duration_since(w.started) < WINDOW && w.failures >= self.per_minute => {
                let left = WINDOW.saturating_sub(now.duration_since(w.started));
                Err(left.as_secs().max(1))
            }
            _ => Ok(()),
        }
    }

    /// Counts one failure of `client`.
    pub fn record(&self, client: IpAddr) {
        match &self.shared {
            Some(store) if self.per_minute > 0 => {
                let name = Self::counter_name(store, client);
                let counted = store.count_hit(&name, WINDOW.as_millis() as i64, store.now_millis());
                if let Err(e) = counted {
                    tracing::warn!(error = %e, "failed credential not counted");
                }
            }
            _ => self.record_at(client, Instant::now()),
        }
    }

    fn record_at(&self, client: IpAddr, now: Instant) {
        if self.per_minute == 0 {
            return;
        }
        let mut windows = self.windows.lock();
        if windows.len() >= MAX_TRACKED && !windows.contains_key(&client) {
            windows.retain(|_, w| now.duration_since(w.started) < WINDOW);
        }
        let window = windows.entry(client).or_insert(Window {
            started: now,
            failures: 0,
        });
        if now.duration_since(window.started) >= WINDOW {
            *window = Window {
                started: now,
                failures: 0,
            };
        }
        window.failures = window.failures.saturating_add(1);
    }
}

fn locked_out(seconds: u64) -> ApiError {
    ApiError::new(
        Code::TooManyFailedAttempts,
        format!("too many refused credentials from this address; retry in {seconds} s"),
    )
    .retry_after(seconds)
}

/// The tenant of the API key `req` carries, when the store accepts it (looked up only for a
/// locked-out address; the `Tenant` extractor reuses it and applies the key's rate limits).
async fn accepted_api_key(
    state: &AppState,
    req: &actix_web::HttpRequest,
) -> Option<AcceptedApiKey> {
    let key = crate::client::bearer(req)?;
    let operations = state.operations.clone();
    match web::block(move || operations.tenant_of_api_key(&key)).await {
        Ok(Ok(Some(tenant))) => Some(AcceptedApiKey(tenant)),
        _ => None,
    }
}

/// Middleware: refuses locked-out addresses before any handler runs, and counts refusals.
pub async fn refuse_guessers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    if UNGUARDED_PATHS.contains(&req.path()) {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let client = crate::client::client_address(req.request(), &state.trusted_proxies);
    let counts = state.failed_credentials.clone();
    let checked = if counts.is_shared() {
        let counts = counts.clone();
        web::block(move || counts.check(client))
            .await
            .unwrap_or(Ok(()))
    } else {
        counts.check(client)
    };
    if let Err(seconds) = checked {
        match accepted_api_key(&state, req.request()).await {
            Some(accepted) => {
                req.extensions_mut().insert(accepted);
            }
            None => {
                let response = locked_out(seconds).error_response();
                return Ok(req.into_response(response).map_into_boxed_body());
            }
        }
    }
    let response = next.call(req).await?;
    let authenticated = response.request().extensions().contains::<AcceptedApiKey>();
    let refused = !authenticated
        && (response.status() == StatusCode::UNAUTHORIZED
            || response
                .response()
                .extensions()
                .contains::<RefusedCredential>());
    if refused {
        if counts.is_shared() {
            let _ = web::block(move || counts.record(client)).await;
        } else {
            counts.record(client);
        }
    }
    Ok(response.map_into_boxed_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_locked_out_for_the_rest_of_its_minute() {
        let limiter = FailedCredentials::new(3);
        let (a, b) = (
            IpAddr::from([203, 0, 113, 7]),
            IpAddr::from([203, 0, 113, 8]),
        );
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check_at(a, t0).is_ok());
            limiter.record_at(a, t0);
        }
        assert_eq!(limiter.check_at(a, t0 + Duration::from_secs(10)), Err(50));
        assert!(limiter.check_at(b, t0).is_ok(), "other addresses are free");
        assert!(limiter.check_at(a, t0 + WINDOW).is_ok(), "a new minute");
        limiter.record_at(a, t0 + WINDOW);
        assert!(
            limiter.check_at(a, t0 + WINDOW).is_ok(),
            "counting starts over"
        );
    }

    #[test]
    fn zero_turns_it_off() {
        let limiter = FailedCredentials::new(0);
        let a = IpAddr::from([203, 0, 113, 7]);
        (0..1000).for_each(|_| limiter.record(a));
        assert!(limiter.check(a).is_ok());
    }
}
