//! The camera-family sessions as a loaded server reads them (issue 67): the frames go through
//! the real one-frame mailbox (`liveness_engine::mailbox::LatestFrame`), and a worker takes the
//! newest only every so often of capture time, as a server running 32 (a take every 300 ms) or
//! 64 (a take a second) lit sessions on two cores does. The session then reads the colours'
//! frames as one its server fell behind (`LivenessSession::push_taken`): key frames, light
//! samples, and the anti-spoof model in the key frame's face box about once a colour step,
//! which its one look at the colours' end reads. `examples/loaded_looks.rs` sets each look
//! beside the early pass point the in-order development set fixed.

use liveness_engine::mailbox::{LatestFrame, PendingFrame};
use liveness_engine::{LivenessConfig, LivenessSession};

use super::camera_family::{FamilyRun, Job, drawn_session_with};
use crate::camera_model::CameraFamily;

/// Capture time a loaded session is streamed for at most: the clip played forward and back
/// (a person who keeps swaying; the camera adds its own noise to every frame) until the look.
const MOST_CAPTURE_MS: u64 = 20_000;

/// One session of `job` drawn as [`super::camera_family::run`] draws it, on a server that takes
/// the session's newest frame every `take_every_ms` of capture time, streamed until its one
/// look at the colours' end (recorded in [`FamilyRun::early_look`], never acted on) or its
/// verdict; the report is what the session concluded at that moment.
pub fn run_loaded_to_the_look(
    job: &Job,
    families: &[CameraFamily],
    salt: &str,
    take_every_ms: u64,
) -> FamilyRun {
    let config = LivenessConfig {
        verdict_at_colours_end: false,
        look_when_behind: true,
        ..LivenessConfig::default()
    };
    let (mut session, mut camera, ratio) = drawn_session_with(job, families, salt, None, config);
    let mailbox = LatestFrame::for_session(&session);
    let frames = job.case.frames();
    let mut next_take = 0;
    for (i, index) in back_and_forth(frames.len()).enumerate() {
        let t = crate::replay::frame_capture_ms(i, job.case.fps);
        if t > MOST_CAPTURE_MS || looked_or_ended(&session) {
            break;
        }
        if !camera.due(t) {
            continue;
        }
        mailbox.put(PendingFrame {
            jpeg: camera.capture_stamped(&frames[index], t),
            timestamp_ms: t,
        });
        if t < next_take {
            continue;
        }
        next_take = t + take_every_ms;
        if let Some(taken) = mailbox.take() {
            session.push_taken(&taken);
        }
    }
    FamilyRun::concluded(job, &camera, ratio, &mut session)
}

fn looked_or_ended(session: &LivenessSession) -> bool {
    session.early_look().is_some() || session.verdict().is_some()
}

/// Frame indices of a clip of `count` frames played forward, then back, and so on.
fn back_and_forth(count: usize) -> impl Iterator<Item = usize> {
    let turn: Vec<usize> = (0..count)
        .chain((1..count.saturating_sub(1)).rev())
        .collect();
    turn.into_iter().cycle()
}

#[cfg(test)]
mod tests {
    use super::back_and_forth;

    #[test]
    fn a_clip_plays_forward_then_back() {
        let order: Vec<usize> = back_and_forth(4).take(9).collect();
        assert_eq!(order, [0, 1, 2, 3, 2, 1, 0, 1, 2]);
    }
}
