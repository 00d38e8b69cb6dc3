//! Standard Webhooks signatures: `webhook-signature: v1,<base64 HMAC-SHA256>` over
//! `"{webhook-id}.{webhook-timestamp}.{body}"`, keyed by the base64 part of a `whsec_` secret.
//! During a rotation's overlap every secret in force signs, space-separated.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The key bytes of a `whsec_…` secret (`None` when it is not one).
pub fn secret_key(secret: &str) -> Option<Vec<u8>> {
    STANDARD.decode(secret.strip_prefix("whsec_")?).ok()
}

/// One `v1,<signature>` entry.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = secret_key(secret)?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body.as_bytes());
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

/// The `webhook-signature` header value: one entry per secret in force.
pub fn signature_header(secrets: &[String], id: &str, timestamp: i64, body: &str) -> String {
    secrets
        .iter()
        .filter_map(|s| sign(s, id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Receiver side: whether any `v1` entry of `header` is the signature under `secret`
/// (constant-time comparison of the MAC).
pub fn verify(secret: &str, id: &str, timestamp: i64, body: &str, header: &str) -> bool {
    let Some(key) = secret_key(secret) else {
        return false;
    };
    header.split(' ').any(|entry| {
        let Some(encoded) = entry.strip_prefix("v1,") else {
            return false;
        };
        let Ok(presented) = STANDARD.decode(encoded) else {
            return false;
        };
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&key) else {
            return false;
        };
        mac.update(format!("{id}.{timestamp}.").as_bytes());
        mac.update(body.as_bytes());
        mac.verify_slice(&presented).is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_webhooks_reference_vector() {
        // the example of the Standard Webhooks specification
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, id, 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
        let header = signature_header(&[secret.to_string()], id, 1614265330, body);
        assert!(verify(secret, id, 1614265330, body, &header));
        assert!(!verify(secret, id, 1614265331, body, &header));
    }
}
