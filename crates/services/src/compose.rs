//! [`Services::open`]: everything the service runs on, built from the settings in one place.
//! The binary serves it, and the route tests, the session tests and the fuzz targets build
//! the same through it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Duration;

use storage::Store;
use storage::memory_index::MemoryVectorIndex;
use storage::pgvector::PgvectorIndex;
use storage::search::{FaceSearch, SharedVectorIndex};

use crate::database::open_store;
use crate::error::ServicesError;
use crate::settings::Settings;

/// The store, and both families of use cases over it: faces (detect, compare, collections,
/// search) and liveness sessions, sharing one engine and one inference gate.
#[derive(Debug, Clone)]
pub struct Services {
    pub store: Store,
    /// Faces, collections and 1:N search (crate `app`).
    pub faces: app::FaceServices,
    /// API keys, readiness and the webhook backlog (crate `app`).
    pub operations: app::Operations,
    /// Liveness sessions (crate `sessions`).
    pub sessions: sessions::SessionService,
    /// What the webhook worker delivered, for the metrics.
    pub deliveries: Arc<webhooks::DeliveryCounters>,
    guard: webhooks::AddressGuard,
    settings: Settings,
}

impl Services {
    /// Opens and migrates the database (refusing a server secret other than the one it was
    /// set up with), rebuilds the face index, loads the models, and builds the use cases, on
    /// the system's clock.
    pub fn open(settings: &Settings) -> Result<Self, ServicesError> {
        Self::open_with_clock(settings, Arc::new(domain::SystemClock))
    }

    /// [`Services::open`] on `clock`: every stored time, expiry, lease, retention sweep and
    /// webhook retry of these services reads it (a test moves a [`domain::ManualClock`]).
    pub fn open_with_clock(
        settings: &Settings,
        clock: domain::SharedClock,
    ) -> Result<Self, ServicesError> {
        let store = open_store(settings)?.with_clock(clock);
        let applied = store.migrate()?;
        if !store.server_secret_matches()? {
            return Err(ServicesError::SecretMismatch);
        }
        // the vector index: pgvector's HNSW index where the database has the extension,
        // otherwise the exact index in this process's memory
        let index: SharedVectorIndex = if store.pgvector_enabled() {
            Arc::new(PgvectorIndex::new(
                store.clone(),
                settings.database.pgvector_ef_search,
            ))
        } else {
            Arc::new(MemoryVectorIndex::new(store.clone()))
        };
        let search = Arc::new(FaceSearch::new(store.clone(), index));
        let faces = search.prepare()?;
        tracing::info!(backend = ?store.backend(), applied, index = search.index_name(), faces, "database ready");
        let engine = Arc::new(settings.models.load_engine()?);
        tracing::info!(
            fr_feature = engine.embedder_id(face_engine::FaceModel::FrFeature),
            sface = engine.embedder_id(face_engine::FaceModel::Sface),
            "models loaded"
        );
        let guard = webhooks::AddressGuard::new(settings.webhook_allowed_networks()?);
        // one gate for HTTP inference and live-session frames alike: a place per core
        let inference = Arc::new(face_engine::gate::InferenceGate::per_core());
        let mut wired = session_settings(settings);
        wired.liveness.fitted_decision = Some(settings.liveness.fitted_decision()?);
        let sessions = sessions::SessionService::new(
            store.clone(),
            engine.clone(),
            guard.clone(),
            wired,
            settings.sessions.analysis_threads,
            inference.clone(),
        )?;
        let faces = app::FaceServices::new(
            engine,
            search,
            inference,
            app::UploadLimits {
                max_image_pixels: settings.limits.max_image_pixels,
            },
        );
        Ok(Self {
            operations: app::Operations::new(store.clone()),
            store,
            faces,
            sessions,
            deliveries: Arc::default(),
            guard,
            settings: settings.clone(),
        })
    }

    /// Starts the background workers (the retention sweeper, and the webhook worker when
    /// `webhooks.deliver`), which stop when `shutdown` is set; join them after.
    pub fn spawn_workers(
        &self,
        shutdown: &Arc<AtomicBool>,
    ) -> Result<Vec<JoinHandle<()>>, ServicesError> {
        let settings = &self.settings;
        let sweeper = sessions::sweeper::RetentionSweeper::new(self.store.clone())
            .spawn(
                shutdown.clone(),
                Duration::from_secs(settings.sessions.sweep_interval_seconds),
            )
            .map_err(|source| ServicesError::Worker {
                worker: "retention sweeper",
                source,
            })?;
        let mut workers = vec![sweeper];
        if settings.webhooks.deliver {
            let ca_file = Some(settings.webhooks.ca_file.trim())
                .filter(|f| !f.is_empty())
                .map(std::path::Path::new);
            let deliverer = webhooks::Deliverer::new(self.guard.clone(), ca_file)?;
            let worker = webhooks::WebhookWorker::new(
                self.store.clone(),
                deliverer,
                self.deliveries.clone(),
            )
            .spawn(
                shutdown.clone(),
                Duration::from_millis(settings.webhooks.poll_interval_ms.max(10)),
            )
            .map_err(|source| ServicesError::Worker {
                worker: "webhook worker",
                source,
            })?;
            workers.push(worker);
        }
        workers.push(self.spawn_record_drain(shutdown)?);
        Ok(workers)
    }

    /// A thread that, once `shutdown` is set (the listener has stopped and its sockets are
    /// closed), waits up to [`RECORD_DRAIN`] for the records of verdicts already given.
    fn spawn_record_drain(
        &self,
        shutdown: &Arc<AtomicBool>,
    ) -> Result<JoinHandle<()>, ServicesError> {
        let (sessions, shutdown) = (self.sessions.clone(), shutdown.clone());
        std::thread::Builder::new()
            .name("record-drain".into())
            .spawn(move || {
                while !shutdown.load(std::sync::atomic::Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(100));
                }
                let left = sessions.wait_for_records(RECORD_DRAIN);
                if left > 0 {
                    tracing::error!(
                        left,
                        "shutting down with verdicts whose record is not stored"
                    );
                }
            })
            .map_err(|source| ServicesError::Worker {
                worker: "record drain",
                source,
            })
    }
}

/// How long shutdown waits for the records of the verdicts already given (each waits at most
/// 3 s for the frames, then takes a portrait and a transaction).
const RECORD_DRAIN: Duration = Duration::from_secs(10);

/// The session service's settings, from the service's.
pub(crate) fn session_settings(settings: &Settings) -> sessions::SessionSettings {
    let direct = &settings.sessions.direct;
    sessions::SessionSettings {
        public_url: settings.public_url(),
        lifetime_ms: settings.sessions.lifetime_minutes as i64 * 60_000,
        direct: sessions::DirectSessionPolicy {
            enabled: direct.enabled,
            max_attempts: direct.max_attempts,
            window_seconds: direct.window_minutes * 60,
            tenant: direct.tenant.clone(),
            captcha: (!direct.captcha_verify_url.trim().is_empty()).then(|| {
                sessions::CaptchaVerifier {
                    verify_url: direct.captcha_verify_url.trim().to_owned(),
                    secret: direct.captcha_secret.clone(),
                }
            }),
        },
        liveness: liveness_engine::LivenessConfig {
            illumination_enabled: settings.liveness.illumination.enabled,
            look_when_behind: settings.liveness.look_when_behind,
            ..liveness_engine::LivenessConfig::default()
        },
        compare_threshold: app::DEFAULT_THRESHOLD,
        socket_idle_seconds: settings.sessions.socket_idle_seconds,
        randomness: match settings.sessions.rng_seed {
            Some(seed) => {
                tracing::warn!(
                    seed,
                    "sessions.rng_seed is set: every session draws the same challenges (tests only)"
                );
                sessions::SessionRandomness::Seeded(seed)
            }
            None => sessions::SessionRandomness::Os,
        },
        max_image_pixels: settings.limits.max_image_pixels,
        audit_frames: settings.sessions.audit_frames,
        allow_no_flash: settings.liveness.illumination.allow_no_flash,
    }
}
