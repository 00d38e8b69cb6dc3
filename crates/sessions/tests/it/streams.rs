//! One stream per session across replicas (the stream lease, released when a stream ends),
//! single use once a verdict is stored, the one-frame mailbox drained against a finishing
//! session (exactly one verdict, nothing after it), seeded draws that repeat, the light
//! sequence sent once, and the sweeper.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use domain::LivenessPath;
use facegate_sessions::live::{ClientMessage, StreamEnd};
use facegate_sessions::{SessionError, SessionRandomness};

use crate::common::{
    Recorder, connect_lit, connect_once_free, create, fixture, replica, wait_until,
};

#[test]
fn one_stream_per_session_across_replicas_and_the_lease_is_released_when_it_ends() {
    let f = fixture();
    let (a, b) = (replica(&f, None), replica(&f, None));
    let (id, token) = create(&a, f.tenant, "passive");
    let first = connect_lit(&a, id, &token).expect("the first stream");
    for (name, service) in [("same replica", &a), ("other replica", &b)] {
        let refused = connect_lit(service, id, &token);
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
            stream.push_frame(&photo).expect("frame");
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    wait_until("the stream's end", || !recorder.ends.lock().is_empty());
    // frames after the verdict are accepted and ignored: a finished stream returns before
    // its mailbox, so nothing is queued or scheduled that could give a second verdict later
    let dropped = stream.dropped_frames();
    for _ in 0..20 {
        stream.push_frame(&photo).expect("late frame");
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
    let again = connect_lit(&service, id, &token);
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
    let stream = connect_lit(&service, id, &token).expect("stream");
    let sweeper = facegate_sessions::sweeper::RetentionSweeper::new(f.store.clone());
    let now = f.store.now_millis();
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

/// The services' one clock decides a session's lifetime everywhere: the test moves it instead
/// of waiting half an hour.
#[test]
fn past_its_lifetime_on_the_services_clock_a_session_is_refused_and_swept() {
    let f = fixture();
    let clock = Arc::new(domain::ManualClock::at(f.store.now_millis()));
    let opened = services::Services::open_with_clock(&f.settings, clock.clone()).expect("services");
    let (service, store) = (opened.sessions, opened.store);
    let (id, token) = create(&service, f.tenant, "passive");
    let lifetime_ms = f.settings.sessions.lifetime_minutes as i64 * 60_000;
    // a minute before its end the session streams; the stream's end frees it again
    clock.advance(lifetime_ms - 60_000);
    let stream = connect_lit(&service, id, &token).expect("streams within its lifetime");
    assert!(!stream.has_expired());
    clock.advance(60_000);
    assert!(stream.has_expired(), "the transport closes it now");
    drop(stream);
    let sweeper = facegate_sessions::sweeper::RetentionSweeper::new(store.clone());
    wait_until("the lease's release", || {
        matches!(
            connect_lit(&service, id, &token),
            Err(SessionError::NotFound)
        )
    });
    let swept = sweeper.tick().expect("sweep");
    assert_eq!(swept.expired_sessions, 1, "{swept:?}");
    assert_eq!(
        store.session(id).expect("session").status,
        domain::SessionStatus::Expired
    );
}
