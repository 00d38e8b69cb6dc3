//! Tenant webhook signing secrets (`whsec_…`, the Standard Webhooks format). They are needed in
//! plaintext to sign, so unlike API keys they cannot be digests: each is sealed with
//! XChaCha20-Poly1305 under a key derived from the server secret, and never logged. Rotation
//! keeps the previous secret signing until its overlap ends.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use diesel::prelude::*;
use domain::TenantId;
use rand::RngCore;
use uuid::Uuid;

use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::webhook_secrets as ws;
use crate::{Store, now_millis};

const SEALING_LABEL: &str = "facegate webhook secret sealing v1";
const NONCE_LEN: usize = 24;

fn db(e: diesel::result::Error) -> StorageError {
    StorageError::from_diesel(Entity::WebhookSecret, e)
}

impl Store {
    fn cipher(&self) -> XChaCha20Poly1305 {
        XChaCha20Poly1305::new(&self.secret().derive_key(SEALING_LABEL).into())
    }

    fn seal(&self, plaintext: &str) -> StorageResult<Vec<u8>> {
        let mut nonce = [0u8; NONCE_LEN];
        rand::rng().fill_bytes(&mut nonce);
        let sealed = self
            .cipher()
            .encrypt(XNonce::from_slice(&nonce), plaintext.as_bytes())
            .map_err(|_| StorageError::Corrupt("webhook secret could not be sealed".into()))?;
        Ok(nonce.iter().copied().chain(sealed).collect())
    }

    fn open_sealed(&self, sealed: &[u8]) -> StorageResult<String> {
        let corrupt = || {
            StorageError::Corrupt("a webhook secret does not open under this server secret".into())
        };
        if sealed.len() <= NONCE_LEN {
            return Err(corrupt());
        }
        let (nonce, body) = sealed.split_at(NONCE_LEN);
        let plain = self
            .cipher()
            .decrypt(XNonce::from_slice(nonce), body)
            .map_err(|_| corrupt())?;
        String::from_utf8(plain).map_err(|_| corrupt())
    }

    /// The secrets that sign `tenant`'s webhooks now, newest first (two during a rotation's
    /// overlap, none before the first is created).
    pub fn webhook_secrets(&self, tenant: TenantId) -> StorageResult<Vec<String>> {
        let now = now_millis();
        ws::table
            .filter(ws::tenant_id.eq(tenant.0.to_string()))
            .filter(ws::retires_at.is_null().or(ws::retires_at.gt(now)))
            // the current secret (never retired) first, then the rest newest first: two
            // rotations in one millisecond share `created_at`, so it cannot order them alone
            .order((
                ws::retires_at.is_null().desc(),
                ws::created_at.desc(),
                ws::id.desc(),
            ))
            .select(ws::sealed)
            .load::<Vec<u8>>(&mut *self.conn()?)
            .map_err(db)?
            .iter()
            .map(|sealed| self.open_sealed(sealed))
            .collect()
    }

    /// The tenant's current secret, created when it has none.
    pub fn webhook_secret(&self, tenant: TenantId) -> StorageResult<String> {
        match self.webhook_secrets(tenant)?.into_iter().next() {
            Some(secret) => Ok(secret),
            None => self.rotate_webhook_secret(tenant, 0),
        }
    }

    /// A new current secret; the ones in force keep signing for `overlap_ms` more.
    pub fn rotate_webhook_secret(
        &self,
        tenant: TenantId,
        overlap_ms: i64,
    ) -> StorageResult<String> {
        let mut raw = [0u8; 24];
        rand::rng().fill_bytes(&mut raw);
        let secret = format!("whsec_{}", STANDARD.encode(raw));
        let sealed = self.seal(&secret)?;
        let now = now_millis();
        let mut conn = self.conn()?;
        conn.transaction::<_, StorageError, _>(|c| {
            diesel::update(
                ws::table
                    .filter(ws::tenant_id.eq(tenant.0.to_string()))
                    .filter(
                        ws::retires_at
                            .is_null()
                            .or(ws::retires_at.gt(now + overlap_ms)),
                    ),
            )
            .set(ws::retires_at.eq(Some(now + overlap_ms)))
            .execute(c)
            .map_err(db)?;
            diesel::insert_into(ws::table)
                .values((
                    ws::id.eq(Uuid::now_v7().to_string()),
                    ws::tenant_id.eq(tenant.0.to_string()),
                    ws::sealed.eq(sealed),
                    ws::created_at.eq(now),
                    ws::retires_at.eq(None::<i64>),
                ))
                .execute(c)
                .map_err(db)?;
            Ok(())
        })?;
        Ok(secret)
    }
}
