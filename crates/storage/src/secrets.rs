//! Secrets at rest: API keys and session tokens are stored only as HMAC-SHA256 digests under
//! the server secret, looked up by a non-secret id and compared in constant time.

use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// The server-side secret that keys every digest.
#[derive(Clone)]
pub struct ServerSecret(Vec<u8>);

impl std::fmt::Debug for ServerSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerSecret(..)")
    }
}

impl ServerSecret {
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        Self(bytes.into())
    }

    fn mac(&self, value: &str) -> HmacSha256 {
        let mut mac = HmacSha256::new_from_slice(&self.0)
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        mac.update(value.as_bytes());
        mac
    }

    /// HMAC-SHA256 digest of a secret value.
    pub fn digest(&self, value: &str) -> Vec<u8> {
        self.mac(value).finalize().into_bytes().to_vec()
    }

    /// A 32-byte key for one purpose (`label`), derived from the server secret.
    pub fn derive_key(&self, label: &str) -> [u8; 32] {
        self.mac(label).finalize().into_bytes().into()
    }

    /// Constant-time check of `value` against a stored digest.
    pub fn verify(&self, value: &str, stored_digest: &[u8]) -> bool {
        self.mac(value).verify_slice(stored_digest).is_ok()
    }
}

/// `n` random bytes from the operating system's CSPRNG, hex-encoded.
pub fn random_hex(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// A new API key `fg_<key id>_<secret>`: the id is public, the secret 32 random bytes.
pub fn new_api_key() -> (String, String) {
    let id = random_hex(8);
    let key = format!("fg_{id}_{}", random_hex(32));
    (id, key)
}

/// The key id of a presented API key, if it has the right shape.
pub fn api_key_id(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("fg_")?;
    let (id, secret) = rest.split_once('_')?;
    (id.len() == 16
        && secret.len() == 64
        && id
            .bytes()
            .chain(secret.bytes())
            .all(|b| b.is_ascii_hexdigit()))
    .then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_verify_only_the_same_value_under_the_same_secret() {
        let secret = ServerSecret::new(b"server secret".to_vec());
        let digest = secret.digest("token-1");
        assert!(secret.verify("token-1", &digest));
        assert!(!secret.verify("token-2", &digest));
        assert!(!ServerSecret::new(b"other".to_vec()).verify("token-1", &digest));
        assert!(!secret.verify("token-1", &digest[..16]));
    }

    #[test]
    fn api_keys_have_a_parseable_public_id() {
        let (id, key) = new_api_key();
        assert_eq!(api_key_id(&key), Some(id.as_str()));
        assert_eq!(api_key_id("fg_short_x"), None);
        assert_eq!(api_key_id("Bearer nonsense"), None);
    }
}
