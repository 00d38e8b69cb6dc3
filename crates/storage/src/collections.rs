//! Collections and their indexed faces, always scoped to a tenant. Every write to a
//! collection's faces bumps its `version`, so each process can tell when its in-memory search
//! index is stale (several processes may share one PostgreSQL).

use diesel::prelude::*;
use domain::{Collection, ExternalId, FaceModel, IndexedFace, TenantId};
use uuid::Uuid;

use crate::error::{Entity, StorageError, StorageResult};
use crate::schema::{collections, faces};
use crate::{Store, embedding_from_blob, embedding_to_blob, parse_uuid};

#[derive(Queryable, Insertable)]
#[diesel(table_name = collections)]
pub(crate) struct CollectionRow {
    pub(crate) id: String,
    tenant_id: String,
    external_id: String,
    description: String,
    created_at: i64,
    version: i64,
    face_model: String,
}

#[derive(Queryable, Insertable)]
#[diesel(table_name = faces)]
struct FaceRow {
    id: String,
    tenant_id: String,
    collection_id: String,
    external_face_id: String,
    model_id: String,
    embedding: Vec<u8>,
    detail: String,
    created_at: i64,
}

impl CollectionRow {
    fn face_model(&self) -> StorageResult<FaceModel> {
        FaceModel::parse(&self.face_model).ok_or_else(|| {
            StorageError::Corrupt(format!("collection face_model `{}`", self.face_model))
        })
    }

    fn into_domain(self, face_count: Option<u64>) -> StorageResult<Collection> {
        Ok(Collection {
            id: parse_uuid(&self.id)?,
            tenant_id: TenantId(parse_uuid(&self.tenant_id)?),
            external_id: ExternalId::parse("external_id", &self.external_id)?,
            face_model: self.face_model()?,
            description: self.description,
            created_at: self.created_at,
            face_count,
        })
    }
}

impl FaceRow {
    fn into_domain(self) -> StorageResult<IndexedFace> {
        Ok(IndexedFace {
            id: parse_uuid(&self.id)?,
            tenant_id: TenantId(parse_uuid(&self.tenant_id)?),
            collection_id: parse_uuid(&self.collection_id)?,
            external_face_id: ExternalId::parse("external_face_id", &self.external_face_id)?,
            model_id: self.model_id,
            embedding: embedding_from_blob(&self.embedding)?,
            detail: self.detail,
            created_at: self.created_at,
        })
    }
}

/// A face id with its embedding.
pub type FaceVector = (Uuid, Vec<f32>);

/// A page of results and the token for the next page (`None` on the last page).
#[derive(Debug, Clone)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_token: Option<String>,
}

fn db(entity: Entity) -> impl Fn(diesel::result::Error) -> StorageError {
    move |e| StorageError::from_diesel(entity, e)
}

impl Store {
    pub fn create_collection(
        &self,
        tenant: TenantId,
        external_id: &ExternalId,
        description: &str,
        face_model: FaceModel,
    ) -> StorageResult<Collection> {
        let row = CollectionRow {
            id: Uuid::now_v7().to_string(),
            tenant_id: tenant.0.to_string(),
            external_id: external_id.as_str().to_owned(),
            description: description.to_owned(),
            created_at: self.now_millis(),
            version: 0,
            face_model: face_model.as_str().to_owned(),
        };
        diesel::insert_into(collections::table)
            .values(&row)
            .execute(&mut *self.conn()?)
            .map_err(db(Entity::Collection))?;
        row.into_domain(Some(0))
    }

    pub(crate) fn collection_row(
        &self,
        tenant: TenantId,
        external_id: &ExternalId,
    ) -> StorageResult<CollectionRow> {
        collections::table
            .filter(collections::tenant_id.eq(tenant.0.to_string()))
            .filter(collections::external_id.eq(external_id.as_str()))
            .first::<CollectionRow>(&mut *self.conn()?)
            .map_err(db(Entity::Collection))
    }

    /// The internal id of a tenant's collection (`NotFound` otherwise), without counting faces.
    pub fn collection_id(&self, tenant: TenantId, external_id: &ExternalId) -> StorageResult<Uuid> {
        parse_uuid(&self.collection_row(tenant, external_id)?.id)
    }

    /// The internal id of a tenant's collection and its face model (`NotFound` otherwise),
    /// without counting faces.
    pub fn collection_id_and_model(
        &self,
        tenant: TenantId,
        external_id: &ExternalId,
    ) -> StorageResult<(Uuid, FaceModel)> {
        let row = self.collection_row(tenant, external_id)?;
        Ok((parse_uuid(&row.id)?, row.face_model()?))
    }

    /// A collection with its face count.
    pub fn collection(
        &self,
        tenant: TenantId,
        external_id: &ExternalId,
    ) -> StorageResult<Collection> {
        let row = self.collection_row(tenant, external_id)?;
        let count: i64 = faces::table
            .filter(faces::collection_id.eq(&row.id))
            .count()
            .get_result(&mut *self.conn()?)
            .map_err(db(Entity::Collection))?;
        row.into_domain(Some(count.max(0) as u64))
    }

    /// Collections ordered by `external_id`; `after` is the previous page's `next_token`.
    pub fn list_collections(
        &self,
        tenant: TenantId,
        limit: usize,
        after: Option<&str>,
    ) -> StorageResult<Page<Collection>> {
        let mut query = collections::table
            .filter(collections::tenant_id.eq(tenant.0.to_string()))
            .into_boxed();
        if let Some(after) = after {
            query = query.filter(collections::external_id.gt(after.to_owned()));
        }
        let rows = query
            .order(collections::external_id)
            .limit(limit as i64 + 1)
            .load::<CollectionRow>(&mut *self.conn()?)
            .map_err(db(Entity::Collection))?;
        let more = rows.len() > limit;
        let items = rows
            .into_iter()
            .take(limit)
            .map(|r| r.into_domain(None))
            .collect::<StorageResult<Vec<_>>>()?;
        let next_token = more
            .then(|| items.last().map(|c| c.external_id.as_str().to_owned()))
            .flatten();
        Ok(Page { items, next_token })
    }

    /// Deletes a collection and its faces; returns its internal id.
    pub fn delete_collection(
        &self,
        tenant: TenantId,
        external_id: &ExternalId,
    ) -> StorageResult<Uuid> {
        let row = self.collection_row(tenant, external_id)?;
        let mut conn = self.conn()?;
        crate::connection::write_transaction(&mut conn, |c| -> Result<_, diesel::result::Error> {
            diesel::delete(faces::table.filter(faces::collection_id.eq(&row.id))).execute(c)?;
            diesel::delete(collections::table.find(&row.id)).execute(c)?;
            Ok(())
        })
        .map_err(db(Entity::Collection))?;
        parse_uuid(&row.id)
    }

    /// Stores a face in a collection (by `external_id`) and bumps the collection's version;
    /// returns the face and the collection's version after the write.
    pub fn insert_face(
        &self,
        tenant: TenantId,
        collection_external_id: &ExternalId,
        external_face_id: &ExternalId,
        model_id: &str,
        embedding: &[f32],
        detail: &str,
    ) -> StorageResult<(IndexedFace, i64)> {
        let collection = self.collection_row(tenant, collection_external_id)?;
        let row = FaceRow {
            id: Uuid::now_v7().to_string(),
            tenant_id: tenant.0.to_string(),
            collection_id: collection.id.clone(),
            external_face_id: external_face_id.as_str().to_owned(),
            model_id: model_id.to_owned(),
            embedding: embedding_to_blob(embedding),
            detail: detail.to_owned(),
            created_at: self.now_millis(),
        };
        let mut conn = self.conn()?;
        // a collection holds vectors of one embedder: a replica running other models must not
        // mix its vectors in (their distances would mean nothing)
        let existing_model = faces::table
            .filter(faces::collection_id.eq(&collection.id))
            .select(faces::model_id)
            .first::<String>(&mut *conn)
            .optional()
            .map_err(db(Entity::Face))?;
        if let Some(existing) = existing_model.filter(|m| m != model_id) {
            return Err(StorageError::EmbedderMismatch {
                collection: existing,
                this_replica: model_id.to_owned(),
            });
        }
        let version = crate::connection::write_transaction(
            &mut conn,
            |c| -> Result<_, diesel::result::Error> {
                diesel::insert_into(faces::table).values(&row).execute(c)?;
                if self.pgvector_enabled() {
                    crate::dialect::store_search_vector(c, &row.id, embedding)?;
                }
                bump_version(c, &collection.id)
            },
        )
        .map_err(db(Entity::Face))?;
        Ok((row.into_domain()?, version))
    }

    /// One face of a tenant's collection.
    pub fn face(
        &self,
        tenant: TenantId,
        collection_external_id: &ExternalId,
        face_id: Uuid,
    ) -> StorageResult<IndexedFace> {
        let collection = self.collection_row(tenant, collection_external_id)?;
        faces::table
            .filter(faces::id.eq(face_id.to_string()))
            .filter(faces::collection_id.eq(&collection.id))
            .filter(faces::tenant_id.eq(tenant.0.to_string()))
            .first::<FaceRow>(&mut *self.conn()?)
            .map_err(db(Entity::Face))?
            .into_domain()
    }

    /// Faces in insertion order; `after` is the previous page's `next_token` (a face id).
    pub fn list_faces(
        &self,
        tenant: TenantId,
        collection_external_id: &ExternalId,
        limit: usize,
        after: Option<&str>,
    ) -> StorageResult<Page<IndexedFace>> {
        let collection = self.collection_row(tenant, collection_external_id)?;
        let mut query = faces::table
            .filter(faces::collection_id.eq(collection.id.clone()))
            .filter(faces::tenant_id.eq(tenant.0.to_string()))
            .into_boxed();
        if let Some(after) = after {
            // face ids are UUIDv7: ordered by creation time
            query = query.filter(faces::id.gt(after.to_owned()));
        }
        let rows = query
            .order(faces::id)
            .limit(limit as i64 + 1)
            .load::<FaceRow>(&mut *self.conn()?)
            .map_err(db(Entity::Face))?;
        let more = rows.len() > limit;
        let items = rows
            .into_iter()
            .take(limit)
            .map(FaceRow::into_domain)
            .collect::<StorageResult<Vec<_>>>()?;
        let next_token = more
            .then(|| items.last().map(|f| f.id.to_string()))
            .flatten();
        Ok(Page { items, next_token })
    }

    /// Deletes one face and bumps the collection's version; returns the collection id and its
    /// version after the write.
    pub fn delete_face(
        &self,
        tenant: TenantId,
        collection_external_id: &ExternalId,
        face_id: Uuid,
    ) -> StorageResult<(Uuid, i64)> {
        let collection = self.collection_row(tenant, collection_external_id)?;
        let mut conn = self.conn()?;
        let outcome = crate::connection::write_transaction(
            &mut conn,
            |c| -> Result<_, diesel::result::Error> {
                let n = diesel::delete(
                    faces::table
                        .filter(faces::id.eq(face_id.to_string()))
                        .filter(faces::collection_id.eq(&collection.id)),
                )
                .execute(c)?;
                if n == 0 {
                    return Err(diesel::result::Error::NotFound);
                }
                bump_version(c, &collection.id)
            },
        )
        .map_err(db(Entity::Face))?;
        Ok((parse_uuid(&collection.id)?, outcome))
    }

    /// `external_face_id` of each listed face that still exists in the tenant's collection.
    pub(crate) fn external_face_ids(
        &self,
        tenant: TenantId,
        collection_id: Uuid,
        ids: &[Uuid],
    ) -> StorageResult<std::collections::HashMap<Uuid, String>> {
        let collection_id = collection_id.to_string();
        let wanted: Vec<String> = ids.iter().map(Uuid::to_string).collect();
        // Look rows up by primary key only and check ownership here: with the collection in
        // the WHERE clause SQLite chose the collection index and scanned every face (13 ms at
        // 100k faces instead of well under 1 ms).
        let rows = faces::table
            .filter(faces::id.eq_any(wanted))
            .select((
                faces::id,
                faces::external_face_id,
                faces::collection_id,
                faces::tenant_id,
            ))
            .load::<(String, String, String, String)>(&mut *self.conn()?)
            .map_err(db(Entity::Face))?;
        let tenant_id = tenant.0.to_string();
        rows.into_iter()
            .filter(|(_, _, c, t)| *c == collection_id && *t == tenant_id)
            .map(|(id, ext, _, _)| Ok((parse_uuid(&id)?, ext)))
            .collect()
    }

    /// Every (face id, embedding) of a collection with the collection's current version, for
    /// building the search index.
    pub fn collection_vectors(&self, collection_id: Uuid) -> StorageResult<(i64, Vec<FaceVector>)> {
        let mut conn = self.conn()?;
        conn.transaction::<_, StorageError, _>(|c| {
            let version = collections::table
                .find(collection_id.to_string())
                .select(collections::version)
                .first::<i64>(c)
                .map_err(db(Entity::Collection))?;
            let rows = faces::table
                .filter(faces::collection_id.eq(collection_id.to_string()))
                .select((faces::id, faces::embedding))
                .load::<(String, Vec<u8>)>(c)
                .map_err(db(Entity::Face))?;
            let vectors = rows
                .into_iter()
                .map(|(id, blob)| Ok((parse_uuid(&id)?, embedding_from_blob(&blob)?)))
                .collect::<StorageResult<Vec<_>>>()?;
            Ok((version, vectors))
        })
    }

    /// The current version of a collection (changes on every face write).
    pub fn collection_version(&self, collection_id: Uuid) -> StorageResult<i64> {
        collections::table
            .find(collection_id.to_string())
            .select(collections::version)
            .first::<i64>(&mut *self.conn()?)
            .map_err(db(Entity::Collection))
    }

    /// Ids of every collection (all tenants), for rebuilding indexes at start-up.
    pub fn all_collection_ids(&self) -> StorageResult<Vec<Uuid>> {
        collections::table
            .select(collections::id)
            .load::<String>(&mut *self.conn()?)
            .map_err(db(Entity::Collection))?
            .iter()
            .map(|id| parse_uuid(id))
            .collect()
    }
}

/// Increments a collection's version inside the caller's transaction and returns the new value.
fn bump_version(
    conn: &mut crate::AnyConnection,
    collection_id: &str,
) -> Result<i64, diesel::result::Error> {
    diesel::update(collections::table.find(collection_id))
        .set(collections::version.eq(collections::version + 1))
        .execute(conn)?;
    collections::table
        .find(collection_id)
        .select(collections::version)
        .first::<i64>(conn)
}
