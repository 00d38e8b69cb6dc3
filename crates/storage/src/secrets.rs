//! Secrets at rest: API keys and session tokens are stored only as HMAC-SHA256 digests under
//! the server secret, looked up by a non-secret id and compared in constant time. What must be
//! read back (webhook signing secrets, audit frames) is sealed with XChaCha20-Poly1305 under a
//! key derived from the server secret for its purpose.

use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
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
        let mut mac = <HmacSha256 as Mac>::new_from_slice(&self.0)
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

    fn cipher(&self, label: &str) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(&self.derive_key(label).into())
    }

    /// `plaintext` sealed under the key for `label`: a random 24-byte nonce, then the
    /// ciphertext with its tag. `None` only if the cipher refuses (it does not for our sizes).
    pub fn seal(&self, label: &str, plaintext: &[u8]) -> Option<Vec<u8>> {
        let mut nonce = [0u8; SEAL_NONCE_LEN];
        rand::rng().fill_bytes(&mut nonce);
        let sealed = self
            .cipher(label)
            .encrypt(XNonce::from_slice(&nonce), plaintext)
            .ok()?;
        Some(nonce.iter().copied().chain(sealed).collect())
    }

    /// What [`ServerSecret::seal`] sealed under `label`; `None` when it does not open (another
    /// server secret, another label, or altered bytes).
    pub fn open(&self, label: &str, sealed: &[u8]) -> Option<Vec<u8>> {
        if sealed.len() <= SEAL_NONCE_LEN {
            return None;
        }
        let (nonce, body) = sealed.split_at(SEAL_NONCE_LEN);
        self.cipher(label)
            .decrypt(XNonce::from_slice(nonce), body)
            .ok()
    }
}

const SEAL_NONCE_LEN: usize = 24;

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
    fn sealed_bytes_open_only_under_their_secret_and_label() {
        let secret = ServerSecret::new(b"server secret".to_vec());
        let sealed = secret.seal("purpose", b"frame bytes").expect("sealed");
        assert!(!sealed.windows(11).any(|w| w == b"frame bytes"));
        assert_eq!(
            secret.open("purpose", &sealed),
            Some(b"frame bytes".to_vec())
        );
        assert_eq!(secret.open("another purpose", &sealed), None);
        assert_eq!(
            ServerSecret::new(b"other".to_vec()).open("purpose", &sealed),
            None
        );
        let mut altered = sealed.clone();
        altered[30] ^= 1;
        assert_eq!(secret.open("purpose", &altered), None);
    }

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
