//! Who the client is: its address (the TCP peer, or the first untrusted hop of
//! `X-Forwarded-For` when the peer is one of `server.trusted_proxies`, a balancer in front;
//! never believed otherwise) and the API key it presents.

use std::net::IpAddr;

use actix_web::HttpRequest;
use ipnet::IpNet;

/// The address direct-session attempts are counted against.
pub fn client_address(req: &HttpRequest, trusted_proxies: &[IpNet]) -> IpAddr {
    let peer = req
        .peer_addr()
        .map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip());
    let trusted = |ip: &IpAddr| trusted_proxies.iter().any(|net| net.contains(ip));
    if !trusted(&peer) {
        return peer;
    }
    let forwarded: Vec<IpAddr> = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|hop| hop.trim().parse().ok())
        .collect();
    // walk from the nearest hop back; the first address that is not a trusted proxy is the client
    forwarded
        .iter()
        .rev()
        .find(|ip| !trusted(ip))
        .copied()
        .unwrap_or(peer)
}

/// The key of an `Authorization: Bearer <key>` header.
pub(crate) fn bearer(req: &HttpRequest) -> Option<String> {
    let value = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, key) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| key.trim().to_owned())
}
