//! Facegate liveness sessions, free of the web: what `http` (and tests) call.
//!
//! - [`create`]: managed and direct sessions (URL guard, attempts, captcha).
//! - [`read`]: results (spec fields for a token, more for the tenant's key), portraits,
//!   compare-with-session and the webhook attempt log.
//! - [`live`]: a client's stream: frames into the engine's drop-the-stale-frame mailbox,
//!   analysed on one bounded pool shared by every session, then completion (result, portrait
//!   and webhook outbox in one transaction), the verdict event, and a normal close.
//! - [`page`]: the verification page's start-up state (link valid, mode, end state).
//! - [`verify`]: liveness with verify (a reference image at creation, its match after a `pass`).
//! - [`outcome`]: what a verdict leaves: portrait and its requirement checks, reason codes,
//!   match, webhook payload; [`audit`]: the opt-in audit frames.

pub mod audit;
pub mod create;
mod error;
mod hub;
pub mod live;
pub mod messages;
pub mod outcome;
pub mod page;
mod pool;
pub mod read;
pub mod records;
pub mod stats;
pub mod sweeper;
pub mod verify;

use std::sync::Arc;

use domain::SessionSeed;
use face_engine::FaceEngine;
use liveness_engine::LivenessConfig;
use storage::Store;
use webhooks::AddressGuard;

pub use error::{SessionError, SessionResult};

/// Largest accepted token; anything longer is not a token of ours (answered as not found).
pub const MAX_TOKEN_LEN: usize = 128;

/// Direct (key-less) session policy.
#[derive(Debug, Clone)]
pub struct DirectSessionPolicy {
    pub enabled: bool,
    /// Attempts per fingerprint and client address within `window_seconds`.
    pub max_attempts: u32,
    pub window_seconds: u64,
    /// The tenant that owns direct sessions.
    pub tenant: String,
    /// A siteverify endpoint (Turnstile, hCaptcha, reCAPTCHA) and its secret; `None` = no
    /// captcha required.
    pub captcha: Option<CaptchaVerifier>,
}

/// A captcha siteverify endpoint and its secret.
#[derive(Clone)]
pub struct CaptchaVerifier {
    pub verify_url: String,
    pub secret: String,
}

impl std::fmt::Debug for CaptchaVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptchaVerifier")
            .field("verify_url", &self.verify_url)
            .finish_non_exhaustive()
    }
}

/// Session settings.
#[derive(Debug, Clone)]
pub struct SessionSettings {
    /// Base of `session_url` (`{public_url}/verify/<id>?token=<token>`), no trailing slash.
    pub public_url: String,
    pub lifetime_ms: i64,
    pub direct: DirectSessionPolicy,
    pub liveness: LivenessConfig,
    /// Default threshold of compare-with-session (the same as compare-faces).
    pub compare_threshold: f32,
    /// A socket with no frame (or no pong) for this long is closed.
    pub socket_idle_seconds: u64,
    /// Where each session's random draws (challenge count and plan) come from.
    pub randomness: SessionRandomness,
    /// Uploaded images (compare-with-session's probe) declaring more pixels are refused.
    pub max_image_pixels: u64,
    /// Frames kept per session for audit (0, the default, keeps none; at most
    /// [`audit::MAX_AUDIT_FRAMES`]).
    pub audit_frames: usize,
    /// Whether a person may choose the no-flash path (`liveness.illumination.allow_no_flash`);
    /// a managed session may turn it off for itself.
    pub allow_no_flash: bool,
}

/// Where each session's seed comes from (`domain::SessionSeed`: drawn at creation, kept with
/// the session, the one source of its challenge count, challenges and light sequence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SessionRandomness {
    /// A seed from the operating system's CSPRNG for every session (production).
    #[default]
    Os,
    /// Every session draws from a generator seeded with this value, so every session of the
    /// process draws the same: for tests that must run one known session. Never in production:
    /// a client who knows the seed knows the challenges.
    Seeded(u64),
}

impl SessionRandomness {
    /// The seed of a new session.
    pub fn new_seed(self) -> SessionSeed {
        use rand::{Rng, SeedableRng};
        match self {
            SessionRandomness::Os => {
                SessionSeed::from_bytes(rand::rngs::StdRng::from_os_rng().random())
            }
            SessionRandomness::Seeded(seed) => {
                SessionSeed::from_bytes(ExpandedSeed::seed_from_u64(seed).0)
            }
        }
    }
}

/// The generator a session's draws come from: a CSPRNG (ChaCha) seeded with its seed.
pub fn session_rng(seed: &SessionSeed) -> rand::rngs::StdRng {
    rand::SeedableRng::from_seed(*seed.as_bytes())
}

/// The 32 bytes `StdRng::seed_from_u64` expands a number into (rand's documented expansion),
/// so a seeded process draws exactly what `StdRng::seed_from_u64(seed)` does.
struct ExpandedSeed([u8; 32]);

impl rand::SeedableRng for ExpandedSeed {
    type Seed = [u8; 32];

    fn from_seed(seed: [u8; 32]) -> Self {
        Self(seed)
    }
}

impl SessionSettings {
    /// The shipped defaults (30-minute lifetime, direct sessions open with 3 attempts an hour,
    /// no captcha, the default liveness configuration, compare threshold 0.65) for `public_url`.
    pub fn defaults(public_url: &str) -> Self {
        Self {
            public_url: public_url.trim_end_matches('/').to_owned(),
            lifetime_ms: 30 * 60_000,
            direct: DirectSessionPolicy {
                enabled: true,
                max_attempts: 3,
                window_seconds: 3600,
                tenant: "direct".into(),
                captcha: None,
            },
            liveness: LivenessConfig::default(),
            compare_threshold: domain::DEFAULT_COMPARE_THRESHOLD,
            socket_idle_seconds: 30,
            randomness: SessionRandomness::Os,
            max_image_pixels: face_engine::DEFAULT_MAX_PIXELS,
            audit_frames: 0,
            allow_no_flash: true,
        }
    }
}

/// The session use cases over one store and one engine.
#[derive(Debug, Clone)]
pub struct SessionService {
    store: Store,
    engine: Arc<FaceEngine>,
    guard: AddressGuard,
    settings: Arc<SessionSettings>,
    live: Arc<live::LiveHub>,
    /// The process's one inference gate (frames here, HTTP requests in the web layer).
    inference: Arc<face_engine::gate::InferenceGate>,
}

impl SessionService {
    /// `analysis_threads` bounds the frames analysed at once across every session; every
    /// frame's analysis also passes `inference`, the process's one inference gate, which the
    /// composition root (`services::Services::open`) makes and shares with the Face Services.
    pub fn new(
        store: Store,
        engine: Arc<FaceEngine>,
        guard: AddressGuard,
        settings: SessionSettings,
        analysis_threads: usize,
        inference: Arc<face_engine::gate::InferenceGate>,
    ) -> SessionResult<Self> {
        settings.liveness.validate()?;
        Ok(Self {
            store,
            engine,
            guard,
            settings: Arc::new(settings),
            live: Arc::new(live::LiveHub::new(analysis_threads)),
            inference,
        })
    }

    pub fn settings(&self) -> &SessionSettings {
        &self.settings
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;

    #[test]
    fn a_seeded_process_draws_what_its_seed_number_draws() {
        for n in [0, 6, 7, 29, 41, u64::MAX] {
            let mut ours = session_rng(&SessionRandomness::Seeded(n).new_seed());
            let mut plain = rand::rngs::StdRng::seed_from_u64(n);
            assert_eq!(ours.random::<[u64; 8]>(), plain.random::<[u64; 8]>(), "{n}");
        }
    }

    #[test]
    fn every_session_of_the_os_gets_its_own_seed() {
        let os = SessionRandomness::Os;
        assert_ne!(os.new_seed(), os.new_seed());
    }
}
