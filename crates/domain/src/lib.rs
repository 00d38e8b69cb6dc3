//! Facegate's domain: identifiers, verdict rules and the errors of the domain. No I/O.

pub mod error;
pub mod ids;
pub mod verdict;

pub use error::DomainError;
pub use ids::{ExternalId, TenantId};
pub use verdict::{Verdict, VerdictThresholds};
