//! Facegate's liveness engine: the challenge flow, per-frame analysis, the five verification
//! layers and verdict fusion, fed one frame at a time.
//!
//! Not built yet: the liveness-engine issue fills this crate. It exposes nothing today, so no
//! caller can mistake it for a working liveness check.
