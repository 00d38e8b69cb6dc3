//! Fuzzes a liveness session fed arbitrary frames and timestamps, in both modes. The input is
//! a series of records: a mode bit, then per frame a 16-bit timestamp step (which may also go
//! backwards), a 16-bit length and that many bytes of "JPEG". Findings: a panic, a verdict
//! before any frame could have earned it, or a session that never ends when concluded.
#![no_main]

use std::sync::{Arc, OnceLock};

use facegate_face_engine::FaceEngine;
use facegate_liveness_engine::{LivenessConfig, LivenessSession, Opening, SessionMode};
use libfuzzer_sys::fuzz_target;

fn engine() -> Arc<FaceEngine> {
    static ENGINE: OnceLock<Arc<FaceEngine>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
            Arc::new(FaceEngine::load(&models).expect("models"))
        })
        .clone()
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode_byte, mut rest)) = data.split_first() else {
        return;
    };
    let mode = if mode_byte & 1 == 0 {
        SessionMode::Passive
    } else {
        SessionMode::Active
    };
    let Ok(mut session) = LivenessSession::new(engine(), LivenessConfig::default(), mode, &mut <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0), Opening::First) else {
        return;
    };
    let mut timestamp: u64 = 1_000;
    let mut frames = 0;
    while rest.len() >= 4 && frames < 64 {
        let step = i16::from_le_bytes([rest[0], rest[1]]);
        let len = usize::from(u16::from_le_bytes([rest[2], rest[3]])).min(rest.len() - 4);
        let frame = &rest[4..4 + len];
        rest = &rest[4 + len..];
        timestamp = timestamp.saturating_add_signed(i64::from(step));
        let _events = session.push_frame(frame, timestamp);
        frames += 1;
    }
    let report = session.conclude();
    // a session that never saw a frame long enough cannot pass
    if frames < 3 {
        assert_ne!(format!("{:?}", report.verdict), "Pass", "{report:?}");
    }
});
