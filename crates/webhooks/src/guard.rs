//! The SSRF guard: which addresses a webhook may reach and a redirect may name. Decided on IP
//! addresses after parsing and resolving, never by matching strings: the WHATWG URL parser
//! normalises every IPv4 spelling (decimal, octal, hex, short forms) to one address first.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};

use ipnet::IpNet;
use url::{Host, Url};

/// Why a URL was refused (the message names the rule, never an internal address's owner).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlRefusal {
    #[error("not a valid absolute URL")]
    Malformed,
    #[error("the URL is longer than {max} characters")]
    TooLong { max: usize },
    #[error("the URL contains whitespace or control characters")]
    ControlCharacters,
    #[error("the URL must use https")]
    NotHttps,
    #[error("the URL must not carry a user name or password")]
    Credentials,
    #[error("the URL names a local or non-public address")]
    NonPublicAddress,
    #[error("the URL's host does not resolve")]
    Unresolvable,
}

/// Longest URL accepted for `redirect_url` and `webhook_url`.
pub const MAX_URL_LEN: usize = 2048;

/// Decides which addresses are reachable: public unicast addresses, plus the operator's
/// `webhooks.allowed_networks` (for on-premises receivers).
#[derive(Debug, Clone, Default)]
pub struct AddressGuard {
    allowed: Vec<IpNet>,
}

impl AddressGuard {
    pub fn new(allowed: Vec<IpNet>) -> Self {
        Self { allowed }
    }

    /// Whether a connection to `ip` is allowed.
    pub fn allows(&self, ip: IpAddr) -> bool {
        is_public(ip) || self.allowed.iter().any(|net| net.contains(&ip))
    }

    /// Resolves `host:port` and keeps only allowed addresses (the caller connects only to
    /// these). `Err(Unresolvable)` when the name does not resolve, `Err(NonPublicAddress)` when
    /// any address it resolves to is refused: a name that mixes public and private answers is
    /// refused whole, so DNS cannot smuggle one in.
    pub fn resolve(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, UrlRefusal> {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let addrs: Vec<SocketAddr> = (bare, port)
            .to_socket_addrs()
            .map_err(|_| UrlRefusal::Unresolvable)?
            .collect();
        if addrs.is_empty() {
            return Err(UrlRefusal::Unresolvable);
        }
        if addrs.iter().all(|a| self.allows(a.ip())) {
            Ok(addrs)
        } else {
            Err(UrlRefusal::NonPublicAddress)
        }
    }

    /// A `webhook_url`: https, no credentials, and every address it names or resolves to is
    /// allowed. Checked at creation; the deliverer resolves and checks again at connect time.
    pub fn check_webhook_url(&self, raw: &str) -> Result<Url, UrlRefusal> {
        let (url, target) = parse_target(raw)?;
        match target {
            UrlTarget::Address(ip) => self.literal(ip)?,
            UrlTarget::Name(name) => {
                self.resolve(&name, url.port_or_known_default().unwrap_or(443))?;
            }
        }
        Ok(url)
    }

    /// A `redirect_url`: https, no credentials, not `localhost` or a literal non-public address
    /// in any spelling, not a single-label name (`https://intranet/`, which resolves only
    /// inside a network), and not a name resolving to a non-public address. A dotted name that
    /// does not resolve is accepted: the user's browser resolves it, not this server.
    pub fn check_redirect_url(&self, raw: &str) -> Result<Url, UrlRefusal> {
        let (url, target) = parse_target(raw)?;
        match target {
            UrlTarget::Address(ip) => public_literal(ip)?,
            UrlTarget::Name(name) if !name.trim_end_matches('.').contains('.') => {
                return Err(UrlRefusal::NonPublicAddress);
            }
            UrlTarget::Name(name) => {
                // a redirect is for the user, so the operator's allowed networks never open it;
                // a name that does not resolve here is the browser's business
                let port = url.port_or_known_default().unwrap_or(443);
                if let Ok(addrs) = (name.as_str(), port).to_socket_addrs() {
                    for addr in addrs {
                        public_literal(addr.ip())?;
                    }
                }
            }
        }
        Ok(url)
    }

    fn literal(&self, ip: IpAddr) -> Result<(), UrlRefusal> {
        if self.allows(ip) {
            Ok(())
        } else {
            Err(UrlRefusal::NonPublicAddress)
        }
    }
}

/// Where a URL points once parsed: an address literal (in any spelling) or a name to resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlTarget {
    Address(IpAddr),
    Name(String),
}

/// Every check that needs no lookup: length, control characters, `https`, no credentials, not
/// `localhost`; then the host as an address or a name. Both URL checks start here, and the
/// fuzzer (`fuzz/fuzz_targets/url_guard.rs`) drives it with arbitrary text.
pub fn parse_target(raw: &str) -> Result<(Url, UrlTarget), UrlRefusal> {
    let url = parse_https(raw)?;
    let target = match url.host() {
        Some(Host::Ipv4(ip)) => UrlTarget::Address(IpAddr::V4(ip)),
        Some(Host::Ipv6(ip)) => UrlTarget::Address(IpAddr::V6(ip)),
        Some(Host::Domain(name)) => {
            refuse_local_name(name)?;
            UrlTarget::Name(name.to_owned())
        }
        None => return Err(UrlRefusal::Malformed),
    };
    Ok((url, target))
}

fn public_literal(ip: IpAddr) -> Result<(), UrlRefusal> {
    if is_public(ip) {
        Ok(())
    } else {
        Err(UrlRefusal::NonPublicAddress)
    }
}

fn refuse_local_name(name: &str) -> Result<(), UrlRefusal> {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name == "localhost" || name.ends_with(".localhost") || name.is_empty() {
        return Err(UrlRefusal::NonPublicAddress);
    }
    Ok(())
}

fn parse_https(raw: &str) -> Result<Url, UrlRefusal> {
    if raw.len() > MAX_URL_LEN {
        return Err(UrlRefusal::TooLong { max: MAX_URL_LEN });
    }
    // the URL parser silently drops tabs and newlines; refuse them (header injection) first
    if raw.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(UrlRefusal::ControlCharacters);
    }
    let url = Url::parse(raw).map_err(|_| UrlRefusal::Malformed)?;
    if url.scheme() != "https" {
        return Err(UrlRefusal::NotHttps);
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(UrlRefusal::Credentials);
    }
    Ok(url)
}

/// Whether `ip` is a public unicast address: not loopback, private (RFC 1918), shared CGNAT,
/// link-local (with the 169.254.169.254 metadata address), unspecified, broadcast, multicast,
/// documentation, benchmarking, reserved, unique-local or site-local; IPv4 embedded in IPv6
/// (mapped, compatible, NAT64, 6to4) is judged as the IPv4 address it carries.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b))
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 192 && b == 0 && c == 2)
        || (a == 192 && b == 88 && c == 99)
        || (a == 192 && b == 168)
        || (a == 198 && (18..20).contains(&b))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 224)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    let embedded_v4 =
        || Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    if s[..6] == [0, 0, 0, 0, 0, 0] {
        // ::, ::1 and the deprecated IPv4-compatible form
        return false;
    }
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        return is_public_v4(embedded_v4());
    }
    if s[0] == 0x2002 {
        // 6to4 carries its IPv4 address in the second and third segments
        let v4 = Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8);
        return is_public_v4(v4);
    }
    !((s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
        || (s[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
        || (s[0] & 0xffc0) == 0xfec0 // site-local fec0::/10
        || (s[0] & 0xff00) == 0xff00 // multicast
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x2001 && s[1] < 0x0200) // IETF protocol assignments, Teredo
        || (s[0] == 0x0100 && s[1..4] == [0, 0, 0]) // discard-only
        || s[0] == 0x3fff && s[1] < 0x1000) // documentation 3fff::/20
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_private_address_is_refused() {
        let guard = AddressGuard::default();
        for url in [
            "https://127.0.0.1/",
            "https://2130706433/",
            "https://0x7f000001/",
            "https://0177.0.0.1/",
            "https://127.1/",
            "https://0/",
            "https://[::1]/",
            "https://[::ffff:127.0.0.1]/",
            "https://[::ffff:7f00:1]/",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/",
            "https://[fc00::1]/",
            "https://[fe80::1]/",
            "https://localhost/",
            "https://LOCALHOST./",
            "https://a.localhost/",
            "https://intranet/",
            "https://intranet./",
            "https:///x",
            "https://10.0.0.1/",
            "https://192.168.1.1/",
            "https://172.16.0.1/",
            "https://255.255.255.255/",
            "https://224.0.0.1/",
            "https://198.51.100.7/",
            "https://[64:ff9b::7f00:1]/",
            "https://[2002:7f00:1::]/",
        ] {
            assert_eq!(
                guard.check_redirect_url(url).err(),
                Some(UrlRefusal::NonPublicAddress),
                "{url}"
            );
        }
    }

    #[test]
    fn schemes_credentials_and_control_characters_are_refused() {
        let guard = AddressGuard::default();
        assert_eq!(
            guard.check_webhook_url("http://93.184.215.14/").err(),
            Some(UrlRefusal::NotHttps)
        );
        assert_eq!(
            guard.check_redirect_url("javascript:alert(1)").err(),
            Some(UrlRefusal::NotHttps)
        );
        assert_eq!(
            guard.check_redirect_url("//evil.example/").err(),
            Some(UrlRefusal::Malformed)
        );
        assert_eq!(
            guard.check_redirect_url("https://u:p@93.184.215.14/").err(),
            Some(UrlRefusal::Credentials)
        );
        assert_eq!(
            guard
                .check_redirect_url("https://93.184.215.14/\r\nSet-Cookie:x")
                .err(),
            Some(UrlRefusal::ControlCharacters)
        );
        assert!(
            guard
                .check_redirect_url("https://93.184.215.14/back?x=1")
                .is_ok()
        );
        assert!(
            guard
                .check_redirect_url("https://does-not-resolve.invalid/back")
                .is_ok()
        );
        assert_eq!(
            guard
                .check_webhook_url("https://does-not-resolve.invalid/hook")
                .err(),
            Some(UrlRefusal::Unresolvable)
        );
    }

    #[test]
    fn allowed_networks_open_only_themselves() {
        let guard = AddressGuard::new(vec!["127.0.0.0/8".parse().expect("cidr")]);
        assert!(
            guard
                .check_webhook_url("https://127.0.0.1:9443/hook")
                .is_ok()
        );
        assert!(guard.check_webhook_url("https://10.0.0.1/hook").is_err());
        // a redirect is for the user's browser: allowed networks never open it
        assert!(guard.check_redirect_url("https://127.0.0.1/").is_err());
    }
}
