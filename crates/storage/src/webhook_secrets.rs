//! Tenant webhook signing secrets (`whsec_…`, the Standard Webhooks format). They are needed in
//! plaintext to sign, so unlike API keys they cannot be digests: each is sealed with
//! XChaCha20-Poly1305 under a key derived from the server secret, and never logged. Rotation
//! keeps the previous secret signing until its overlap ends.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use diesel::prelude::*;
use domain::TenantId;
use rand::RngCore;
use uuid::Uuid;

use crate::Store;
use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::webhook_secrets as ws;

const SEALING_LABEL: &str = "facegate webhook secret sealing v1";

fn db(e: diesel::result::Error) -> StorageError {
    StorageError::from_diesel(Entity::WebhookSecret, e)
}

impl Store {
    fn seal(&self, plaintext: &str) -> StorageResult<Vec<u8>> {
        self.secret()
            .seal(SEALING_LABEL, plaintext.as_bytes())
            .ok_or_else(|| StorageError::Corrupt("webhook secret could not be sealed".into()))
    }

    fn open_sealed(&self, sealed: &[u8]) -> StorageResult<String> {
        self.secret()
            .open(SEALING_LABEL, sealed)
            .and_then(|plain| String::from_utf8(plain).ok())
            .ok_or_else(|| {
                StorageError::Corrupt(
                    "a webhook secret does not open under this server secret".into(),
                )
            })
    }

    /// The secrets that sign `tenant`'s webhooks now, newest first (two during a rotation's
    /// overlap, none before the first is created).
    pub fn webhook_secrets(&self, tenant: TenantId) -> StorageResult<Vec<String>> {
        let now = self.now_millis();
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
        let now = self.now_millis();
        let mut conn = self.conn()?;
        crate::connection::write_transaction(&mut conn, |c| -> Result<_, StorageError> {
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
