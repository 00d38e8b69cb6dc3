//! Hostile frames: not JPEG, truncated, 10 MB, no face for 10 s, several faces, timestamps out
//! of order or going backwards, and a flood of 200 frames in one second. None may panic, and
//! work and memory stay bounded.

use liveness_rig::eval;

use domain::Verdict;
use facegate_liveness_engine::{
    EndReason, Guidance, LivenessConfig, LivenessEvent, LivenessSession, Opening, SessionMode,
};
use image::{Rgb, RgbImage};

use eval::{engine, jpeg, testdata, video};

fn session(mode: SessionMode) -> LivenessSession {
    // a fixed seed: every active session here draws the same plan
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(7);
    LivenessSession::new(
        engine(),
        LivenessConfig::default(),
        mode,
        &mut rng,
        Opening::First,
        facegate_liveness_engine::LivenessPath::Light,
    )
    .expect("session")
}

fn has_guidance(events: &[LivenessEvent], code: Guidance) -> bool {
    events
        .iter()
        .any(|e| matches!(e, LivenessEvent::Guidance { code: c } if *c == code))
}

#[test]
fn unreadable_frames_get_guidance_and_end_the_session_after_the_limit() {
    let mut s = session(SessionMode::Passive);
    let real = std::fs::read(&video("webcam-man-2").frames[0]).expect("frame");
    let inputs: Vec<Vec<u8>> = vec![
        b"GIF89a not a jpeg".to_vec(),
        Vec::new(),
        real[..real.len() / 3].to_vec(),
        vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10],
    ];
    for (i, bytes) in inputs.iter().enumerate() {
        let events = s.push_frame(bytes, 1_000 + i as u64 * 200);
        assert!(
            has_guidance(&events, Guidance::InvalidFrame),
            "input {i}: {events:?}"
        );
    }
    let mut t = 2_000;
    while s.verdict().is_none() {
        s.push_frame(b"junk", t);
        t += 200;
        assert!(
            t < 100_000,
            "the invalid-frame limit never ended the session"
        );
    }
    let verdict = s.verdict().expect("verdict");
    assert_eq!(verdict.end_reason, EndReason::TooManyInvalidFrames);
    assert_ne!(verdict.verdict, Verdict::Pass);
}

#[test]
fn a_ten_megabyte_frame_is_refused_without_decoding() {
    let mut s = session(SessionMode::Active);
    let mut huge = vec![0u8; 10 * 1024 * 1024];
    huge[..3].copy_from_slice(&[0xFF, 0xD8, 0xFF]);
    let events = s.push_frame(&huge, 0);
    assert!(has_guidance(&events, Guidance::InvalidFrame));
    assert!(s.observations().is_empty());
}

#[test]
fn ten_seconds_without_a_face_end_in_retry() {
    let mut s = session(SessionMode::Active);
    let blank = jpeg(&RgbImage::from_pixel(320, 240, Rgb([30, 120, 40])));
    let mut t = 0;
    while s.verdict().is_none() {
        s.push_frame(&blank, t);
        t += 100;
        assert!(t <= 12_000, "no verdict after {t} ms without a face");
    }
    let verdict = s.verdict().expect("verdict");
    assert_eq!(verdict.end_reason, EndReason::NoFace);
    assert_eq!(verdict.verdict, Verdict::Retry);
}

#[test]
fn several_faces_get_guidance_and_never_pass() {
    let group = std::fs::read(testdata().join("groups/couple.jpg")).expect("a group photo");
    let mut s = session(SessionMode::Passive);
    let mut guided = false;
    let mut t = 0;
    while s.verdict().is_none() && t < 20_000 {
        guided |= has_guidance(&s.push_frame(&group, t), Guidance::OneFaceOnly);
        t += 100;
    }
    if s.verdict().is_none() {
        s.close();
    }
    assert!(guided, "no one_face_only guidance");
    assert_ne!(s.verdict().expect("verdict").verdict, Verdict::Pass);
}

#[test]
fn timestamps_going_backwards_are_ignored_and_counted() {
    let recording = video("webcam-man-2");
    let frame = |i: usize| std::fs::read(&recording.frames[i]).expect("frame");
    let mut s = session(SessionMode::Passive);
    s.push_frame(&frame(0), 5_000);
    for (i, t) in [(1, 5_000), (2, 4_000), (3, 0)] {
        let events = s.push_frame(&frame(i), t);
        assert!(
            has_guidance(&events, Guidance::FrameOutOfOrder),
            "{t}: {events:?}"
        );
    }
    assert_eq!(
        s.observations().len(),
        1,
        "out-of-order frames were analysed"
    );
    // the stream goes on normally afterwards, through to a completed passive hold
    let mut t = 5_100;
    for i in 4..120 {
        s.push_frame(&frame(i), t);
        t += 67;
    }
    let verdict = s.verdict().expect("the hold completed");
    assert_eq!(verdict.end_reason, EndReason::Completed);
    assert!(s.observations().len() > 20, "{}", s.observations().len());
}

#[test]
fn a_flood_of_two_hundred_frames_in_one_second_is_sampled_down() {
    let recording = video("webcam-man-1");
    let frames: Vec<Vec<u8>> = (0..200)
        .map(|i| std::fs::read(&recording.frames[i % recording.frames.len()]).expect("frame"))
        .collect();
    let mut s = session(SessionMode::Active);
    let started = std::time::Instant::now();
    for (i, bytes) in frames.iter().enumerate() {
        s.push_frame(bytes, i as u64 * 5); // 200 frames within 1 s of capture time
    }
    // one analysed frame per 90 ms (10 fps with jitter tolerance) over 995 ms: 0, 90, …, 990
    let analysed = s.observations().len();
    assert!(analysed <= 12, "{analysed} of 200 frames analysed");
    println!("200 frames in {:?}, {analysed} analysed", started.elapsed());
}

#[test]
fn a_verdict_ends_the_session_for_good() {
    let mut s = session(SessionMode::Passive);
    let events = s.close();
    assert!(matches!(events.last(), Some(LivenessEvent::Verdict(_))));
    assert!(s.push_frame(b"anything", 1).is_empty());
    assert!(s.close().is_empty());
}
