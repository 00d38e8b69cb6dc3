//! What runs around the handlers: the API-key extractor (`auth`), per-key rate limits
//! (`ratelimit`), the lock-out of addresses that guess credentials (`guessing`), request-body
//! deadlines (`deadline`), and the request log and metrics (`observability`, `ops_metrics`).

pub(crate) mod auth;
pub mod deadline;
pub mod guessing;
pub mod observability;
pub(crate) mod ops_metrics;
pub mod ratelimit;
