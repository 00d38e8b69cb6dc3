//! Facegate's domain: identifiers, tenants and keys, collections and faces, liveness sessions,
//! webhook deliveries, verdict rules and their reason codes, the vector-search contract and the domain's errors.
//! No I/O.

pub mod clock;
pub mod codes;
pub mod collection;
pub mod error;
pub mod face_model;
pub mod ids;
pub mod reasons;
pub mod session;
pub mod tenant;
pub mod vector;
pub mod verdict;
pub mod webhook;

pub use clock::{Clock, ManualClock, SharedClock, SystemClock};
pub use codes::{Code, ErrorCode};
pub use collection::{Collection, IndexedFace};
pub use error::DomainError;
pub use face_model::FaceModel;
pub use ids::{ExternalId, TenantId};
pub use reasons::{PortraitRequirement, ReasonAction, ReasonCode};
pub use session::{
    FaceMatch, LivenessPath, Session, SessionKind, SessionMode, SessionSeed, SessionStatus,
};
pub use tenant::{ApiKey, Tenant};
pub use vector::{SearchHit, VectorIndex};
pub use verdict::{PASS_CONFIDENCE, RETRY_CONFIDENCE, Verdict, VerdictThresholds};
pub use webhook::{DeliveryStatus, WebhookAttempt, WebhookDelivery};

/// Milliseconds since the Unix epoch; every stored timestamp uses it.
pub type UnixMillis = i64;

/// The default similarity threshold of every compare (the spec's "solid match"): compare,
/// compare-faces, compare-with-session.
pub const DEFAULT_COMPARE_THRESHOLD: f32 = 0.65;
