//! One delivery attempt over HTTPS: the Standard Webhooks headers, a 10 s timeout, no
//! redirects followed, the response body capped, and a resolver that resolves the host again
//! and connects only to addresses the [`AddressGuard`] allows (DNS rebinding gets nothing).

use std::io::Read;
use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use ureq::http::Uri;
use ureq::tls::{Certificate, RootCerts, TlsConfig};
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::WebhookError;
use crate::guard::AddressGuard;
use crate::signing;

/// Per-attempt timeout (connect, TLS, request and response together).
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// Bytes of a receiver's answer read at most (the rest is dropped).
pub const MAX_RESPONSE_BYTES: u64 = 64 * 1024;

/// What the receiver did with one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptResult {
    /// It answered with this status (and `Retry-After` seconds, when it sent one).
    Answered {
        status: u16,
        retry_after: Option<u64>,
    },
    /// No answer: refused address, connection, TLS or timeout failure.
    Failed(String),
}

#[derive(Debug)]
struct GuardedResolver {
    guard: AddressGuard,
}

impl Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &Uri,
        _config: &ureq::config::Config,
        _timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let refused = |why: &str| {
            ureq::Error::Io(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                why.to_string(),
            ))
        };
        let (Some(scheme), Some(authority)) = (uri.scheme(), uri.authority()) else {
            return Err(refused("webhook URL without scheme or host"));
        };
        if scheme.as_str() != "https" {
            return Err(refused("webhook URL is not https"));
        }
        let port = authority.port_u16().unwrap_or(443);
        let addrs: Vec<SocketAddr> = self
            .guard
            .resolve(authority.host(), port)
            .map_err(|e| refused(&e.to_string()))?;
        let mut out = self.empty();
        for addr in addrs.into_iter().take(16) {
            out.push(addr);
        }
        Ok(out)
    }
}

/// Sends signed webhook attempts.
#[derive(Debug, Clone)]
pub struct Deliverer {
    agent: ureq::Agent,
}

impl Deliverer {
    /// A deliverer that reaches what `guard` allows and trusts the public roots, plus the PEM
    /// certificates of `ca_file` (with the system bundle) when one is given.
    pub fn new(guard: AddressGuard, ca_file: Option<&Path>) -> Result<Self, WebhookError> {
        let mut tls = TlsConfig::builder();
        if let Some(path) = ca_file {
            let mut roots = read_pem_certificates(path)?;
            if let Ok(system) =
                read_pem_certificates(Path::new("/etc/ssl/certs/ca-certificates.crt"))
            {
                roots.extend(system);
            }
            tls = tls.root_certs(RootCerts::new_with_certs(&roots));
        }
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(TIMEOUT))
            .max_redirects(0)
            .http_status_as_error(false)
            .proxy(None)
            .user_agent("Facegate-Webhooks/1")
            .tls_config(tls.build())
            .build();
        let agent = ureq::Agent::with_parts(
            config,
            DefaultConnector::default(),
            GuardedResolver { guard },
        );
        Ok(Self { agent })
    }

    /// POSTs `body` to `url` with the Standard Webhooks headers.
    pub fn attempt(
        &self,
        url: &str,
        id: &str,
        timestamp: i64,
        body: &str,
        secrets: &[String],
    ) -> AttemptResult {
        let signature = signing::signature_header(secrets, id, timestamp, body);
        let response = self
            .agent
            .post(url)
            .header("content-type", "application/json")
            .header("webhook-id", id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .send(body);
        match response {
            Ok(mut response) => {
                let status = response.status().as_u16();
                let retry_after = response
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok());
                // read (and drop) at most MAX_RESPONSE_BYTES so the connection ends cleanly
                let mut sink = Vec::new();
                let _ = response
                    .body_mut()
                    .as_reader()
                    .take(MAX_RESPONSE_BYTES)
                    .read_to_end(&mut sink);
                AttemptResult::Answered {
                    status,
                    retry_after,
                }
            }
            Err(e) => AttemptResult::Failed(e.to_string()),
        }
    }
}

fn read_pem_certificates(path: &Path) -> Result<Vec<Certificate<'static>>, WebhookError> {
    let pem = std::fs::read(path)
        .map_err(|e| WebhookError::CaFile(format!("{}: {e}", path.display())))?;
    let certs: Vec<Certificate<'static>> = ureq::tls::parse_pem(&pem)
        .filter_map(|item| match item {
            Ok(ureq::tls::PemItem::Certificate(cert)) => Some(cert),
            _ => None,
        })
        .collect();
    if certs.is_empty() {
        return Err(WebhookError::CaFile(format!(
            "{}: no certificate",
            path.display()
        )));
    }
    Ok(certs)
}

/// Milliseconds since `start`.
pub fn elapsed_ms(start: Instant) -> i64 {
    start.elapsed().as_millis() as i64
}
