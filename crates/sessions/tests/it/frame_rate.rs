//! A client that sends frames faster than `max_fps` (issue 67): told its rate in `ready`, told
//! `slow_down` once, its frames past the rate set aside unread and counted, and its session
//! neither ended nor failed: frames sent at the rate afterwards are taken again.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use domain::LivenessPath;
use facegate_sessions::live::{BURST_FRAMES, ClientMessage, MAX_FPS};

use crate::common::{Recorder, create, fixture, replica};

#[test]
fn a_client_flooding_frames_is_told_to_slow_down_and_its_session_goes_on() {
    let f = fixture();
    let service = replica(&f, None);
    let (id, token) = create(&service, f.tenant, "passive");
    let recorder = Arc::new(Recorder::default());
    let stream = service
        .connect(id, &token, LivenessPath::Light, recorder.clone())
        .expect("stream");
    assert!(
        matches!(
            recorder.messages.lock().first(),
            Some(ClientMessage::Ready { max_fps, .. }) if *max_fps == MAX_FPS
        ),
        "{:?}",
        recorder.messages.lock()
    );
    let face = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/testdata/identities/johns/John_Salley/000179_02159509.jpg"),
    )
    .expect("face");

    // four seconds' worth at once: a second's worth is taken, the rest set aside
    let flood = 4 * MAX_FPS as u64;
    for _ in 0..flood {
        stream
            .push_frame(&face)
            .expect("a frame past the rate is no error");
    }
    let over_rate = service.live_stats().frames_over_rate;
    let burst = BURST_FRAMES as u64;
    // a token comes back every 33 ms: pushing the flood would have to stall for seconds to
    // take many more than the burst
    assert!(
        (flood - burst - 10..=flood - burst).contains(&over_rate),
        "{over_rate} of {flood} set aside"
    );
    let told: Vec<ClientMessage> = recorder
        .messages
        .lock()
        .iter()
        .filter(|m| matches!(m, ClientMessage::SlowDown { .. }))
        .cloned()
        .collect();
    assert_eq!(told, vec![ClientMessage::SlowDown { max_fps: MAX_FPS }]);

    // a client that slowed down is taken again, and nothing ended or failed the session
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..3 {
        stream.push_frame(&face).expect("frame");
        std::thread::sleep(Duration::from_millis(70));
    }
    assert_eq!(service.live_stats().frames_over_rate, over_rate);
    assert!(
        recorder.ends.lock().is_empty(),
        "{:?}",
        recorder.ends.lock()
    );
    assert!(
        !recorder.messages.lock().iter().any(|m| matches!(
            m,
            ClientMessage::Error { .. } | ClientMessage::Verdict { .. }
        )),
        "{:?}",
        recorder.messages.lock()
    );
    assert_eq!(
        f.store.session(id).expect("session").status,
        domain::SessionStatus::InProgress
    );
}
