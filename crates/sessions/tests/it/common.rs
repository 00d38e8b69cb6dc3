//! What the session tests share: a recording event sink, a store with the shipped models, and
//! replicas of the session service opened as the binary opens them.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use domain::LivenessPath;
use facegate_sessions::create::ManagedSessionRequest;
use facegate_sessions::live::{ClientMessage, EventSink, StreamEnd};
use facegate_sessions::{SessionError, SessionService};
use parking_lot::Mutex;

/// Collects what a stream sends; with a session to watch, it reads that session from the store
/// the moment the `verdict` message arrives, as a backend told by its client would.
#[derive(Default)]
pub(crate) struct Recorder {
    pub(crate) messages: Mutex<Vec<ClientMessage>>,
    pub(crate) ends: Mutex<Vec<StreamEnd>>,
    pub(crate) watched: Option<(storage::Store, uuid::Uuid)>,
    pub(crate) read_at_verdict: Mutex<Option<domain::Session>>,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("messages", &self.messages)
            .finish_non_exhaustive()
    }
}

impl EventSink for Recorder {
    fn send(&self, message: ClientMessage) {
        if let (ClientMessage::Verdict { .. }, Some((store, id))) = (&message, &self.watched) {
            *self.read_at_verdict.lock() = Some(store.session(*id).expect("session"));
        }
        self.messages.lock().push(message);
    }

    fn end(&self, end: StreamEnd) {
        self.ends.lock().push(end);
    }
}

impl Recorder {
    pub(crate) fn verdicts(&self) -> usize {
        self.messages
            .lock()
            .iter()
            .filter(|m| matches!(m, ClientMessage::Verdict { .. }))
            .count()
    }
}

pub(crate) struct Fixture {
    pub(crate) settings: services::Settings,
    pub(crate) store: storage::Store,
    pub(crate) tenant: domain::TenantId,
    _dir: tempfile::TempDir,
}

pub(crate) fn fixture() -> Fixture {
    let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = services::Settings::for_tests(dir.path(), &models);
    let store = services::Services::open(&settings).expect("services").store;
    let tenant = store.ensure_tenant("bank").expect("tenant").id;
    Fixture {
        settings,
        store,
        tenant,
        _dir: dir,
    }
}

/// One replica's service on the fixture's store, opened as the binary opens it; `rng_seed` is
/// `sessions.rng_seed` (none: the operating system's generator).
pub(crate) fn replica(f: &Fixture, rng_seed: Option<u64>) -> SessionService {
    let mut settings = f.settings.clone();
    settings.sessions.rng_seed = rng_seed;
    services::Services::open(&settings)
        .expect("services")
        .sessions
}

pub(crate) fn create(
    service: &SessionService,
    tenant: domain::TenantId,
    mode: &str,
) -> (uuid::Uuid, String) {
    let created = service
        .create_managed(
            tenant,
            ManagedSessionRequest {
                mode: Some(mode.into()),
                ..ManagedSessionRequest::default()
            },
        )
        .expect("created");
    (created.session.id, created.token)
}

/// Connects to session `id` on the light path with a recorder nobody reads.
pub(crate) fn connect_lit(
    service: &SessionService,
    id: uuid::Uuid,
    token: &str,
) -> Result<facegate_sessions::live::LiveStream, SessionError> {
    service.connect(
        id,
        token,
        LivenessPath::Light,
        Arc::new(Recorder::default()),
    )
}

pub(crate) fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Connects to session `id` on `service` as soon as its stream lease is free (an ended stream
/// releases it on the analysis pool).
pub(crate) fn connect_once_free(
    service: &SessionService,
    id: uuid::Uuid,
    token: &str,
    sink: Arc<Recorder>,
) -> facegate_sessions::live::LiveStream {
    let mut stream = None;
    wait_until("the lease to be released", || {
        match service.connect(id, token, LivenessPath::Light, sink.clone()) {
            Ok(connected) => {
                stream = Some(connected);
                true
            }
            Err(SessionError::AlreadyConnected) => false,
            Err(e) => panic!("{e}"),
        }
    });
    stream.expect("connected")
}
