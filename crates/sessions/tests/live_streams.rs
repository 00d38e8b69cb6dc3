//! The session service without the web, on a real SQLite store and the shipped models: one
//! stream per session across replicas (the stream lease, released when a stream ends), single
//! use once a verdict is stored, the one-frame mailbox drained against a finishing session
//! (exactly one verdict, nothing after it), and seeded draws that repeat.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use domain::LivenessPath;
use facegate_sessions::create::ManagedSessionRequest;
use facegate_sessions::live::{ClientMessage, EventSink, StreamEnd};
use facegate_sessions::{SessionError, SessionRandomness, SessionService};
use parking_lot::Mutex;

/// Collects what a stream sends; with a session to watch, it reads that session from the store
/// the moment the `verdict` message arrives, as a backend told by its client would.
#[derive(Default)]
struct Recorder {
    messages: Mutex<Vec<ClientMessage>>,
    ends: Mutex<Vec<StreamEnd>>,
    watched: Option<(storage::Store, uuid::Uuid)>,
    read_at_verdict: Mutex<Option<domain::Session>>,
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
    fn verdicts(&self) -> usize {
        self.messages
            .lock()
            .iter()
            .filter(|m| matches!(m, ClientMessage::Verdict { .. }))
            .count()
    }
}

struct Fixture {
    settings: services::Settings,
    store: storage::Store,
    tenant: domain::TenantId,
    _dir: tempfile::TempDir,
}

fn fixture() -> Fixture {
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
fn replica(f: &Fixture, rng_seed: Option<u64>) -> SessionService {
    let mut settings = f.settings.clone();
    settings.sessions.rng_seed = rng_seed;
    services::Services::open(&settings)
        .expect("services")
        .sessions
}

fn create(service: &SessionService, tenant: domain::TenantId, mode: &str) -> (uuid::Uuid, String) {
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

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Connects to session `id` on `service` as soon as its stream lease is free (an ended stream
/// releases it on the analysis pool).
fn connect_once_free(
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

#[test]
fn one_stream_per_session_across_replicas_and_the_lease_is_released_when_it_ends() {
    let f = fixture();
    let (a, b) = (replica(&f, None), replica(&f, None));
    let (id, token) = create(&a, f.tenant, "passive");
    let first = a
        .connect(
            id,
            &token,
            LivenessPath::Light,
            Arc::new(Recorder::default()),
        )
        .expect("the first stream");
    for (name, service) in [("same replica", &a), ("other replica", &b)] {
        let refused = service.connect(
            id,
            &token,
            LivenessPath::Light,
            Arc::new(Recorder::default()),
        );
        assert!(
            matches!(refused, Err(SessionError::AlreadyConnected)),
            "{name}: {refused:?}"
        );
    }
    assert_eq!(a.live_sessions(), 1);
    drop(first);
    assert_eq!(a.live_sessions(), 0);
    // the release runs on the analysis pool; the other replica sees the lease free then
    let _second = connect_once_free(&b, id, &token, Arc::new(Recorder::default()));
    assert_eq!(b.live_sessions(), 1);
    let wrong = b.connect(
        id,
        "wrong-token",
        LivenessPath::Light,
        Arc::new(Recorder::default()),
    );
    assert!(matches!(wrong, Err(SessionError::NotFound)), "{wrong:?}");
}

#[test]
fn a_finishing_session_gives_one_verdict_and_is_single_use() {
    let f = fixture();
    let service = replica(&f, None);
    let (id, token) = create(&service, f.tenant, "passive");
    let recorder = Arc::new(Recorder {
        watched: Some((f.store.clone(), id)),
        ..Recorder::default()
    });
    let stream = service
        .connect(id, &token, LivenessPath::Light, recorder.clone())
        .expect("stream");
    // a still photo, held before the camera, in bursts of three frames: the mailbox replaces
    // frames not yet analysed, also while the session finishes
    let photo = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/testdata/identities/johns/John_Salley/000179_02159509.jpg"),
    )
    .expect("photo");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !stream.is_finished() {
        assert!(Instant::now() < deadline, "no verdict in 60 s");
        for _ in 0..3 {
            stream.push_frame(photo.clone()).expect("frame");
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    wait_until("the stream's end", || !recorder.ends.lock().is_empty());
    // frames after the verdict are accepted and ignored: a finished stream returns before
    // its mailbox, so nothing is queued or scheduled that could give a second verdict later
    let dropped = stream.dropped_frames();
    for _ in 0..20 {
        stream.push_frame(photo.clone()).expect("late frame");
    }
    assert_eq!(
        stream.dropped_frames(),
        dropped,
        "no late frame reached the mailbox"
    );
    assert_eq!(recorder.verdicts(), 1, "{:?}", recorder.messages.lock());
    assert_eq!(*recorder.ends.lock(), vec![StreamEnd::Completed]);
    assert!(stream.dropped_frames() > 0, "the mailbox replaced frames");
    drop(stream);
    // the record is stored before the verdict goes out: read at the verdict, it is there
    let stored = recorder
        .read_at_verdict
        .lock()
        .clone()
        .expect("read when the verdict arrived");
    assert_eq!(stored.status, domain::SessionStatus::Completed);
    assert_eq!(service.live_stats().records_pending, 0);
    let sent = recorder.messages.lock().iter().find_map(|m| match m {
        ClientMessage::Verdict { verdict, .. } => Some(*verdict),
        _ => None,
    });
    assert_eq!(sent, stored.verdict, "the verdict sent is the one stored");
    assert_ne!(
        sent,
        Some(domain::Verdict::Pass),
        "a still photo never passes"
    );
    let again = service.connect(
        id,
        &token,
        LivenessPath::Light,
        Arc::new(Recorder::default()),
    );
    assert!(
        matches!(again, Err(SessionError::AlreadyCompleted)),
        "{again:?}"
    );
}

#[test]
fn seeded_sessions_draw_the_same_challenges_and_os_seeded_ones_vary() {
    let f = fixture();
    let seeded = replica(&f, Some(7));
    let counts: Vec<u32> = (0..4)
        .map(|_| {
            let (id, _) = create(&seeded, f.tenant, "active");
            f.store.session(id).expect("session").challenge_count
        })
        .collect();
    assert!(counts.iter().all(|c| *c == counts[0]), "{counts:?}");
    assert!((3..=6).contains(&counts[0]), "{counts:?}");
    let plan = |randomness: SessionRandomness| {
        let seed = randomness.new_seed();
        liveness_engine::challenge::draw_challenges(
            &mut facegate_sessions::session_rng(&seed),
            3,
            6,
        )
    };
    assert_eq!(
        plan(SessionRandomness::Seeded(7)),
        plan(SessionRandomness::Seeded(7))
    );
    let os_plans: std::collections::HashSet<_> =
        (0..32).map(|_| plan(SessionRandomness::Os)).collect();
    assert!(os_plans.len() > 1, "32 OS-seeded plans were all equal");
}

/// The `illumination` messages a recorder saw: (colours, step).
fn illuminations(recorder: &Recorder) -> Vec<(Vec<String>, u32)> {
    recorder
        .messages
        .lock()
        .iter()
        .filter_map(|m| match m {
            ClientMessage::Illumination { colors, step_ms } => Some((colors.clone(), *step_ms)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_light_sequence_is_sent_once_per_session_and_never_redrawn_on_reconnect() {
    let f = fixture();
    let (a, b) = (replica(&f, None), replica(&f, None));
    let (id, token) = create(&a, f.tenant, "passive");
    let first = Arc::new(Recorder::default());
    let stream = a
        .connect(id, &token, LivenessPath::Light, first.clone())
        .expect("stream");
    let sent = illuminations(&first);
    assert_eq!(sent.len(), 1, "{:?}", first.messages.lock());
    let (colors, step_ms) = &sent[0];
    assert!(colors.len() >= 6, "{colors:?}");
    assert!((200..=400).contains(step_ms), "{step_ms}");
    assert!(colors.iter().all(|c| c.len() == 7 && c.starts_with('#')));
    assert!(
        matches!(first.messages.lock()[0], ClientMessage::Ready { .. }),
        "ready comes first"
    );
    drop(stream);
    // a reconnect, on this replica or another, gets no sequence: it cannot fish for one
    let again = Arc::new(Recorder::default());
    let _reconnected = connect_once_free(&b, id, &token, again.clone());
    assert!(
        illuminations(&again).is_empty(),
        "{:?}",
        again.messages.lock()
    );
    // a new session draws its own sequence
    let (other, other_token) = create(&a, f.tenant, "passive");
    let third = Arc::new(Recorder::default());
    let _stream = a
        .connect(other, &other_token, LivenessPath::Light, third.clone())
        .expect("stream");
    assert_ne!(
        illuminations(&third),
        sent,
        "a new session draws a new sequence"
    );
    // seeded replicas (tests only) draw the same sequence every time
    let seeded = replica(&f, Some(6));
    let draws: Vec<_> = (0..2)
        .map(|_| {
            let (id, token) = create(&seeded, f.tenant, "passive");
            let recorder = Arc::new(Recorder::default());
            let _stream = seeded
                .connect(id, &token, LivenessPath::Light, recorder.clone())
                .expect("stream");
            illuminations(&recorder)
        })
        .collect();
    assert_eq!(draws[0], draws[1]);
}

#[test]
fn the_sweeper_expires_sessions_past_their_lifetime_and_frees_their_leases() {
    let f = fixture();
    let service = replica(&f, None);
    let (id, token) = create(&service, f.tenant, "passive");
    let stream = service
        .connect(
            id,
            &token,
            LivenessPath::Light,
            Arc::new(Recorder::default()),
        )
        .expect("stream");
    let sweeper = facegate_sessions::sweeper::RetentionSweeper::new(f.store.clone());
    let now = storage::now_millis();
    let quiet = sweeper.tick_at(now).expect("sweep");
    assert_eq!((quiet.expired_sessions, quiet.stream_leases), (0, 0));
    // a day later: the session's lifetime and its stream lease have both run out
    let later = sweeper.tick_at(now + 86_400_000).expect("sweep");
    assert_eq!(later.expired_sessions, 1, "{later:?}");
    assert_eq!(later.stream_leases, 1, "{later:?}");
    assert_eq!(
        f.store.session(id).expect("session").status,
        domain::SessionStatus::Expired
    );
    drop(stream);
    assert_eq!(
        sweeper.tick_at(now + 86_400_000).expect("sweep"),
        Default::default()
    );
}

#[test]
fn the_no_flash_path_asks_head_turns_without_colours_only_where_the_session_allows_it() {
    let f = fixture();
    let service = replica(&f, Some(11));
    let (id, token) = create(&service, f.tenant, "passive");
    let recorder = Arc::new(Recorder::default());
    let stream = service
        .connect(id, &token, LivenessPath::NoFlash, recorder.clone())
        .expect("stream");
    let messages = recorder.messages.lock().clone();
    assert_eq!(
        messages,
        vec![ClientMessage::Ready {
            mode: "passive",
            challenge_count: 3,
            liveness_path: LivenessPath::NoFlash,
        }],
        "no illumination message on the no-flash path"
    );
    drop(stream);

    let refused_session = service
        .create_managed(
            f.tenant,
            ManagedSessionRequest {
                mode: Some("passive".into()),
                allow_no_flash: Some(false),
                ..ManagedSessionRequest::default()
            },
        )
        .expect("created");
    assert!(!refused_session.session.allow_no_flash);
    let refused = service.connect(
        refused_session.session.id,
        &refused_session.token,
        LivenessPath::NoFlash,
        Arc::new(Recorder::default()),
    );
    assert!(
        matches!(refused, Err(SessionError::NoFlashNotAllowed)),
        "{refused:?}"
    );
    // the same session on the light path streams, with its colours
    let lit = Arc::new(Recorder::default());
    let _stream = service
        .connect(
            refused_session.session.id,
            &refused_session.token,
            LivenessPath::Light,
            lit.clone(),
        )
        .expect("the light path");
    assert!(matches!(
        lit.messages.lock().as_slice(),
        [
            ClientMessage::Ready {
                challenge_count: 0,
                liveness_path: LivenessPath::Light,
                ..
            },
            ClientMessage::Illumination { .. }
        ]
    ));
}

#[test]
fn a_managed_session_cannot_allow_the_no_flash_path_a_deployment_turned_off() {
    let f = fixture();
    let mut settings = f.settings.clone();
    settings.liveness.illumination.allow_no_flash = false;
    let service = services::Services::open(&settings)
        .expect("services")
        .sessions;
    let asked = service.create_managed(
        f.tenant,
        ManagedSessionRequest {
            allow_no_flash: Some(true),
            ..ManagedSessionRequest::default()
        },
    );
    assert!(
        matches!(asked, Err(SessionError::NoFlashDisabled)),
        "{asked:?}"
    );
    let created = service
        .create_managed(f.tenant, ManagedSessionRequest::default())
        .expect("created with the deployment's default");
    assert!(!created.session.allow_no_flash);
}
