//! Tenants and API keys. Keys are stored as HMAC digests; authentication looks a key up by its
//! public id and compares digests in constant time.

use diesel::prelude::*;
use domain::{ApiKey, Tenant, TenantId};

use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::{api_keys, tenants};
use crate::{Store, parse_uuid, secrets};

#[derive(Queryable, Insertable)]
#[diesel(table_name = tenants)]
struct TenantRow {
    id: String,
    name: String,
    created_at: i64,
}

#[derive(Queryable, Insertable)]
#[diesel(table_name = api_keys)]
struct ApiKeyRow {
    id: String,
    tenant_id: String,
    digest: Vec<u8>,
    created_at: i64,
    revoked_at: Option<i64>,
}

impl TenantRow {
    fn into_domain(self) -> StorageResult<Tenant> {
        Ok(Tenant {
            id: TenantId(parse_uuid(&self.id)?),
            name: self.name,
            created_at: self.created_at,
        })
    }
}

impl ApiKeyRow {
    fn into_domain(self) -> StorageResult<ApiKey> {
        Ok(ApiKey {
            id: self.id,
            tenant_id: TenantId(parse_uuid(&self.tenant_id)?),
            created_at: self.created_at,
            revoked_at: self.revoked_at,
        })
    }
}

impl Store {
    /// Creates a tenant; a duplicate name is a conflict.
    pub fn create_tenant(&self, name: &str) -> StorageResult<Tenant> {
        let row = TenantRow {
            id: TenantId::new().0.to_string(),
            name: name.to_owned(),
            created_at: self.now_millis(),
        };
        diesel::insert_into(tenants::table)
            .values(&row)
            .execute(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel(Entity::Tenant, e))?;
        row.into_domain()
    }

    pub fn tenant_by_name(&self, name: &str) -> StorageResult<Tenant> {
        tenants::table
            .filter(tenants::name.eq(name))
            .first::<TenantRow>(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel(Entity::Tenant, e))?
            .into_domain()
    }

    /// The tenant called `name`, created if missing (safe under concurrent callers).
    pub fn ensure_tenant(&self, name: &str) -> StorageResult<Tenant> {
        match self.tenant_by_name(name) {
            Err(StorageError::NotFound { .. }) => match self.create_tenant(name) {
                Err(StorageError::Conflict { .. }) => self.tenant_by_name(name),
                other => other,
            },
            other => other,
        }
    }

    /// Issues a new API key for a tenant. The returned plaintext key is shown once and never
    /// stored.
    pub fn create_api_key(&self, tenant: TenantId) -> StorageResult<(ApiKey, String)> {
        let (id, key) = secrets::new_api_key();
        let row = ApiKeyRow {
            id,
            tenant_id: tenant.0.to_string(),
            digest: self.secret().digest(&key),
            created_at: self.now_millis(),
            revoked_at: None,
        };
        diesel::insert_into(api_keys::table)
            .values(&row)
            .execute(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel(Entity::Tenant, e))?;
        Ok((row.into_domain()?, key))
    }

    /// Every key (active and revoked) with its tenant's name, oldest first.
    pub fn list_api_keys(&self) -> StorageResult<Vec<(ApiKey, String)>> {
        let rows = api_keys::table
            .inner_join(tenants::table.on(tenants::id.eq(api_keys::tenant_id)))
            .select((api_keys::all_columns, tenants::name))
            .order((api_keys::created_at, api_keys::id))
            .load::<(ApiKeyRow, String)>(&mut *self.conn()?)
            .map_err(|e| StorageError::from_diesel(Entity::ApiKey, e))?;
        rows.into_iter()
            .map(|(k, name)| Ok((k.into_domain()?, name)))
            .collect()
    }

    /// Revokes a key by its public id; revoking twice keeps the first time.
    pub fn revoke_api_key(&self, id: &str) -> StorageResult<()> {
        let updated = diesel::update(
            api_keys::table
                .filter(api_keys::id.eq(id))
                .filter(api_keys::revoked_at.is_null()),
        )
        .set(api_keys::revoked_at.eq(Some(self.now_millis())))
        .execute(&mut *self.conn()?)
        .map_err(|e| StorageError::from_diesel(Entity::ApiKey, e))?;
        if updated == 0 {
            // distinguish "already revoked" from "unknown"
            api_keys::table
                .find(id)
                .select(api_keys::id)
                .first::<String>(&mut *self.conn()?)
                .map_err(|e| StorageError::from_diesel(Entity::ApiKey, e))?;
        }
        Ok(())
    }

    /// The tenant of a presented key, or `None` when the key is malformed, unknown, revoked or
    /// wrong. The digest comparison is constant-time.
    pub fn authenticate_api_key(&self, presented: &str) -> StorageResult<Option<TenantId>> {
        let Some(id) = secrets::api_key_id(presented) else {
            return Ok(None);
        };
        let row = api_keys::table
            .find(id)
            .first::<ApiKeyRow>(&mut *self.conn()?)
            .optional()
            .map_err(|e| StorageError::from_diesel(Entity::ApiKey, e))?;
        let Some(row) = row else {
            // the same HMAC work as a known key id, so an unknown id is not answered faster
            let _ = self.secret().verify(presented, &[0u8; 32]);
            return Ok(None);
        };
        let valid = self.secret().verify(presented, &row.digest);
        if !valid || row.revoked_at.is_some() {
            return Ok(None);
        }
        Ok(Some(TenantId(parse_uuid(&row.tenant_id)?)))
    }
}
