//! The storage layer's error type.

use thiserror::Error;

/// What a not-found or conflict error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    Collection,
    Face,
    Session,
    SessionAttempt,
    SessionStream,
    Tenant,
    ApiKey,
    DeploymentFact,
    RequestCounter,
    WebhookDelivery,
    WebhookSecret,
    /// A row of no more particular kind.
    Record,
}

impl std::fmt::Display for Entity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Entity::Collection => "collection",
            Entity::Face => "face",
            Entity::Session => "session",
            Entity::SessionAttempt => "session attempt",
            Entity::SessionStream => "session stream",
            Entity::Tenant => "tenant",
            Entity::ApiKey => "api key",
            Entity::DeploymentFact => "deployment fact",
            Entity::RequestCounter => "request counter",
            Entity::WebhookDelivery => "webhook delivery",
            Entity::WebhookSecret => "webhook secret",
            Entity::Record => "record",
        })
    }
}

/// Errors returned by repositories.
#[derive(Debug, Error)]
pub enum StorageError {
    /// The row does not exist (or belongs to another tenant, which is reported identically).
    #[error("{entity} not found")]
    NotFound { entity: Entity },
    /// A uniqueness rule was violated (for example a duplicate collection `external_id`).
    #[error("{entity} already exists")]
    Conflict { entity: Entity },
    /// The database cannot be reached or refused the operation for a transient reason.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// A stored value could not be read back (corruption or a schema mismatch).
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
    /// A collection holds vectors of another embedder than this process runs.
    #[error(
        "this collection holds faces embedded by {collection}, but this replica runs \
         {this_replica}; run the same models on every replica"
    )]
    EmbedderMismatch {
        collection: String,
        this_replica: String,
    },
    /// The session already has a verdict, or expired: it is not streamed or completed again.
    #[error("the session is {status}: it cannot be streamed or completed again")]
    SessionFinished { status: &'static str },
    /// A migration failed.
    #[error("migration failed: {0}")]
    Migration(String),
    /// A caller-supplied value broke a domain rule.
    #[error(transparent)]
    Domain(#[from] domain::DomainError),
}

pub type StorageResult<T> = Result<T, StorageError>;

impl domain::ErrorCode for StorageError {
    fn error_code(&self) -> domain::Code {
        use domain::Code;
        match self {
            StorageError::NotFound { entity } => match entity {
                Entity::Collection => Code::CollectionNotFound,
                Entity::Face => Code::FaceNotFound,
                Entity::Session => Code::SessionNotFound,
                Entity::SessionAttempt
                | Entity::SessionStream
                | Entity::Tenant
                | Entity::ApiKey
                | Entity::DeploymentFact
                | Entity::RequestCounter
                | Entity::WebhookDelivery
                | Entity::WebhookSecret
                | Entity::Record => Code::NotFound,
            },
            StorageError::Conflict { entity } => match entity {
                Entity::Collection => Code::CollectionAlreadyExists,
                Entity::Face
                | Entity::Session
                | Entity::SessionAttempt
                | Entity::SessionStream
                | Entity::Tenant
                | Entity::ApiKey
                | Entity::DeploymentFact
                | Entity::RequestCounter
                | Entity::WebhookDelivery
                | Entity::WebhookSecret
                | Entity::Record => Code::Conflict,
            },
            StorageError::Unavailable(_) => Code::DatabaseUnavailable,
            StorageError::EmbedderMismatch { .. } => Code::EmbedderMismatch,
            StorageError::Corrupt(_) | StorageError::Migration(_) => Code::InternalError,
            StorageError::SessionFinished { .. } => Code::InvalidState,
            StorageError::Domain(domain) => domain.error_code(),
        }
    }

    fn retry_after_seconds(&self) -> Option<u64> {
        match self {
            // a pool that timed out or a database restarting: a client retries shortly
            StorageError::Unavailable(_) => Some(2),
            StorageError::NotFound { .. }
            | StorageError::Conflict { .. }
            | StorageError::Corrupt(_)
            | StorageError::EmbedderMismatch { .. }
            | StorageError::SessionFinished { .. }
            | StorageError::Migration(_)
            | StorageError::Domain(_) => None,
        }
    }
}

impl StorageError {
    /// Maps a diesel error, naming the entity for not-found and conflict.
    pub(crate) fn from_diesel(entity: Entity, e: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error};
        match e {
            Error::NotFound => StorageError::NotFound { entity },
            Error::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                StorageError::Conflict { entity }
            }
            Error::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, _) => {
                StorageError::NotFound { entity }
            }
            Error::DeserializationError(e) => StorageError::Corrupt(e.to_string()),
            other => StorageError::Unavailable(other.to_string()),
        }
    }
}

impl From<diesel::r2d2::PoolError> for StorageError {
    fn from(e: diesel::r2d2::PoolError) -> Self {
        StorageError::Unavailable(e.to_string())
    }
}

impl From<diesel::result::Error> for StorageError {
    fn from(e: diesel::result::Error) -> Self {
        StorageError::from_diesel(Entity::Record, e)
    }
}
