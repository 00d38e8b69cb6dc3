//! Layered configuration: built-in defaults (`defaults.toml`, the one place they live), then
//! `facegate.toml` (or `--config FILE`), then `FACEGATE__SECTION__KEY` environment variables.
//! Validated at start-up (`validation.rs`); errors name the key.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use config::{Config, Environment, File, FileFormat};
use ipnet::IpNet;
use serde::Deserialize;
use thiserror::Error;

/// Everything the service can be configured with.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub server: ServerSettings,
    pub database: DatabaseSettings,
    pub models: ModelSettings,
    pub limits: LimitSettings,
    pub security: SecuritySettings,
    pub sessions: SessionSettings,
    pub rate_limit: RateLimitSettings,
    pub webhooks: WebhookSettings,
    pub ui: UiSettings,
    pub log: LogSettings,
    pub liveness: LivenessSettings,
}

/// How liveness sessions judge.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LivenessSettings {
    pub illumination: IlluminationSettings,
    /// A file of the fitted liveness decision's coefficients (issue 66) to use instead of the
    /// bundled ones; empty: the bundled. A file that reads an input the engine does not export
    /// stops start-up, naming it.
    pub fitted_decision_file: String,
    /// Whether a server behind a session while the colours show judges faces under them for
    /// the look at the colours' end (`liveness_engine::LivenessConfig::look_when_behind`).
    pub look_when_behind: bool,
}

impl LivenessSettings {
    /// The fitted decision's coefficients: the bundled ones, or `fitted_decision_file`'s;
    /// refused, naming the key and the difference, when they do not fit the engine's inputs.
    pub fn fitted_decision(
        &self,
    ) -> Result<Arc<liveness_engine::fitted::FittedDecision>, SettingsError> {
        use liveness_engine::fitted::FittedDecision;
        let path = self.fitted_decision_file.trim();
        let refused = |reason: String| SettingsError::Invalid {
            key: "liveness.fitted_decision_file",
            reason,
        };
        let decision = if path.is_empty() {
            // the engine's shared copy (its sessions' default): parsed once per process
            FittedDecision::shared_bundled()
                .map_or_else(|| FittedDecision::bundled().map(Arc::new), Ok)
        } else {
            let text =
                std::fs::read_to_string(path).map_err(|e| refused(format!("{path}: {e}")))?;
            FittedDecision::parse(&text).map(Arc::new)
        };
        decision.map_err(|e| refused(e.to_string()))
    }
}

/// The screen-light check (docs/liveness.md).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IlluminationSettings {
    /// Whether the page flashes a random colour sequence whose reflection on the face is
    /// checked. Off, passive mode rests on motion and the anti-spoof model alone, which
    /// replays and deepfakes pass far more often (docs/liveness.md).
    pub enabled: bool,
    /// Whether a person may choose the no-flash path (head turns, no colours) instead; a
    /// managed session may turn it off for itself (`allow_no_flash: false`).
    pub allow_no_flash: bool,
}

/// How log lines are written (to standard error; the level comes from `RUST_LOG`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSettings {
    /// `text` (for people; colours only when standard error is a terminal) or `json` (one
    /// JSON object a line, for log shippers).
    pub format: LogFormat,
}

/// `log.format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookSettings {
    /// Whether this process delivers webhooks (every process can; leases keep them apart).
    pub deliver: bool,
    /// Networks a webhook may reach besides public addresses (on-premises receivers).
    pub allowed_networks: Vec<String>,
    /// Extra trusted root certificates (PEM) for receivers, beside the system's.
    pub ca_file: String,
    /// Pause between outbox polls when nothing was due.
    pub poll_interval_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DirectSessionSettings {
    /// Whether `POST /api/v1/session` (no API key) is open.
    pub enabled: bool,
    /// Attempts per fingerprint and client address within `window_minutes`.
    pub max_attempts: u32,
    pub window_minutes: u64,
    /// The tenant that owns direct sessions.
    pub tenant: String,
    /// A siteverify URL (Turnstile, hCaptcha, reCAPTCHA); empty = no captcha.
    pub captcha_verify_url: String,
    pub captcha_secret: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateLimitSettings {
    /// Requests per second per API key (0 = unlimited).
    pub per_second: u32,
    /// Requests per minute per API key (0 = unlimited).
    pub per_minute: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecuritySettings {
    /// Key of every HMAC digest (API keys, session tokens). Empty with SQLite: generated once and
    /// kept in `<database>.secret`. Required with PostgreSQL (all replicas must share it).
    pub server_secret: String,
    /// Refused credentials (API keys, session tokens) per client address and minute before the
    /// address gets 429 `too_many_failed_attempts` for the rest of that minute; 0 = off.
    pub failed_credentials_per_minute: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionSettings {
    /// Lifetime of a session; its photo is deleted when it expires.
    pub lifetime_minutes: u64,
    /// How often the retention sweeper runs.
    pub sweep_interval_seconds: u64,
    /// Threads analysing liveness frames for every session (0 = one per core).
    pub analysis_threads: usize,
    /// A socket with no frame, or no answer to pings, for this long is closed (4000 / 1001).
    pub socket_idle_seconds: u64,
    /// Tests only: every session draws its challenges from a generator with this seed instead
    /// of the operating system's CSPRNG (unset in production; start-up warns when set).
    #[serde(default)]
    pub rng_seed: Option<u64>,
    /// Frames of each session kept for audit, sealed, readable with the API key and deleted
    /// with the session's retention (0 keeps none, the default; at most 4).
    #[serde(default)]
    pub audit_frames: usize,
    pub direct: DirectSessionSettings,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiSettings {
    /// Origins (`https://shop.example`) whose pages may frame the verification page through
    /// the SDK's modal; none by default (`frame-ancestors 'self'`).
    pub embed_origins: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSettings {
    /// Address to listen on.
    pub bind: String,
    /// HTTP worker threads; 0 means one per core.
    pub workers: usize,
    /// The public base URL of `session_url` (empty: `http://<bind>`).
    pub public_url: String,
    /// Balancers (CIDRs) whose `X-Forwarded-For` is believed for the client address.
    pub trusted_proxies: Vec<String>,
    /// Longest a request body may take to arrive, whole (408 `body_timeout` after).
    pub body_timeout_seconds: u64,
    /// Longest a request body may pause between two chunks.
    pub body_idle_seconds: u64,
    /// A client that leaves sent bytes unacknowledged or unread (a zero receive window) for
    /// this long is disconnected by the kernel (`TCP_USER_TIMEOUT` on every connection).
    pub stalled_client_seconds: u64,
    /// Built-in TLS (so `wss://` works without a proxy); both files or neither.
    pub tls: TlsSettings,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlsSettings {
    /// PEM certificate chain, leaf first.
    pub cert_file: String,
    /// PEM private key (PKCS#8, PKCS#1 or SEC1).
    pub key_file: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseSettings {
    /// A SQLite file path or a `postgres://` URL.
    pub url: String,
    /// pgvector's HNSW candidate list (`hnsw.ef_search`) for 1:N search on PostgreSQL with
    /// the extension: larger finds the enrolled person more often in large collections and
    /// costs time (docs/operations.md's table).
    pub pgvector_ef_search: usize,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelSettings {
    /// Folder holding `manifest.toml` and the ONNX files; empty (the default) means the models
    /// compiled into the binary.
    pub dir: PathBuf,
}

impl ModelSettings {
    /// The face engine on the embedded models, or on `models.dir` when it is set; either way
    /// every model's sha256 is checked against its manifest first.
    pub fn load_engine(&self) -> face_engine::EngineResult<face_engine::FaceEngine> {
        if self.dir.as_os_str().is_empty() {
            tracing::info!(models = "embedded", "loading models");
            face_engine::FaceEngine::load_embedded()
        } else {
            tracing::info!(models = %self.dir.display(), "loading models");
            face_engine::FaceEngine::load(&self.dir)
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitSettings {
    /// Largest decoded image, in pixels (decompression-bomb guard).
    pub max_image_pixels: u64,
}

/// A configuration problem, naming the offending key.
#[derive(Debug, Error)]
pub enum SettingsError {
    #[error("configuration: {0}")]
    Load(#[from] config::ConfigError),
    #[error("configuration key `{key}`: {reason}")]
    Invalid { key: &'static str, reason: String },
}

/// The built-in defaults of every setting: the one place a default lives.
pub const DEFAULTS: &str = include_str!("defaults.toml");

impl Settings {
    /// The built-in settings alone: no `facegate.toml`, no environment (tests, and the
    /// readers held to the defaults).
    pub fn built_in() -> Self {
        Config::builder()
            .add_source(File::from_str(DEFAULTS, FileFormat::Toml))
            .build()
            .and_then(Config::try_deserialize)
            .expect("the built-in defaults.toml deserialises (held by a test)")
    }

    /// The built-in settings over a SQLite database in `folder`, the models in `models_dir`,
    /// a fixed server secret and one analysis thread: what the route tests, the session tests
    /// and the fuzz targets open with [`crate::Services::open`].
    pub fn for_tests(folder: &Path, models_dir: &Path) -> Self {
        let mut settings = Self::built_in();
        settings.database.url = folder.join("facegate.db").to_string_lossy().into_owned();
        settings.models.dir = models_dir.to_path_buf();
        settings.security.server_secret = "facegate-test-secret-0123456789abcdef".into();
        settings.server.public_url = "https://facegate.test".into();
        settings.sessions.analysis_threads = 1;
        settings
    }

    /// No per-key rate limit and no lock-out: for the route tests and fuzz targets, which send
    /// many requests from one address and key.
    pub fn request_limits_off(&mut self) {
        self.rate_limit.per_second = 0;
        self.rate_limit.per_minute = 0;
        self.security.failed_credentials_per_minute = 0;
    }

    /// Loads defaults, then `config_file` (or `./facegate.toml` when present), then the
    /// environment, and validates the result.
    pub fn load(config_file: Option<&Path>) -> Result<Self, SettingsError> {
        let mut builder = Config::builder().add_source(File::from_str(DEFAULTS, FileFormat::Toml));
        builder = match config_file {
            Some(path) => builder.add_source(File::from(path).required(true)),
            None => builder.add_source(File::with_name("facegate.toml").required(false)),
        };
        let settings: Settings = builder
            .add_source(
                Environment::with_prefix("FACEGATE")
                    .prefix_separator("__")
                    .separator("__")
                    .try_parsing(true)
                    .list_separator(",")
                    .with_list_parse_key("webhooks.allowed_networks")
                    .with_list_parse_key("server.trusted_proxies")
                    .with_list_parse_key("ui.embed_origins"),
            )
            .build()?
            .try_deserialize()?;
        settings.validate()?;
        Ok(settings)
    }

    pub fn is_postgres(&self) -> bool {
        let url = self.database.url.trim();
        url.starts_with("postgres://") || url.starts_with("postgresql://")
    }

    /// `server.public_url` without a trailing slash (`http://<bind>` when empty).
    pub fn public_url(&self) -> String {
        let url = self.server.public_url.trim().trim_end_matches('/');
        if url.is_empty() {
            let scheme = if self.tls_enabled() { "https" } else { "http" };
            format!("{scheme}://{}", self.server.bind)
        } else {
            url.to_owned()
        }
    }

    /// Whether the service terminates TLS itself.
    pub fn tls_enabled(&self) -> bool {
        !self.server.tls.cert_file.trim().is_empty()
    }

    /// `webhooks.allowed_networks`: the non-public networks webhooks may reach.
    pub fn webhook_allowed_networks(&self) -> Result<Vec<IpNet>, SettingsError> {
        parse_networks("webhooks.allowed_networks", &self.webhooks.allowed_networks)
    }

    /// `server.trusted_proxies`: the balancers whose `X-Forwarded-For` is believed.
    pub fn trusted_proxies(&self) -> Result<Vec<IpNet>, SettingsError> {
        parse_networks("server.trusted_proxies", &self.server.trusted_proxies)
    }

    /// The parsed listen address.
    pub fn bind_address(&self) -> Result<SocketAddr, SettingsError> {
        self.server
            .bind
            .parse()
            .map_err(|e| SettingsError::Invalid {
                key: "server.bind",
                reason: format!("`{}` is not a socket address: {e}", self.server.bind),
            })
    }
}

/// Parses the CIDR networks (`127.0.0.0/8`, `::1/128`) of the setting `key`; blank entries are
/// skipped.
fn parse_networks(key: &'static str, cidrs: &[String]) -> Result<Vec<IpNet>, SettingsError> {
    cidrs
        .iter()
        .filter(|c| !c.trim().is_empty())
        .map(|c| {
            c.trim()
                .parse::<IpNet>()
                .map_err(|e| SettingsError::Invalid {
                    key,
                    reason: format!("`{c}` is not a CIDR network: {e}"),
                })
        })
        .collect()
}

/// The origins (`scheme://host[:port]`) of `ui.embed_origins`, each as the browser serialises
/// it; the entry that is not a bare origin is named in the error.
pub fn parse_embed_origins(origins: &[String]) -> Result<Vec<String>, String> {
    origins
        .iter()
        .map(|raw| {
            let url = url::Url::parse(raw).map_err(|e| format!("{raw}: {e}"))?;
            let origin = url.origin().ascii_serialization();
            let bare = url.path() == "/" && url.query().is_none() && url.fragment().is_none();
            if !matches!(url.scheme(), "https" | "http") || !bare || origin == "null" {
                return Err(format!("{raw}: an origin is scheme://host[:port]"));
            }
            Ok(origin)
        })
        .collect()
}
