//! Replaying recordings through a session, for `facegate eval liveness` and the accuracy
//! tests. A recording is a folder of JPEG frames whose names sort in capture order. For active
//! mode, labelled segments (neutral, blink, turn_left, turn_right, smile) let a scripted camera
//! answer whichever challenge the engine asks, the way a person would.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use liveness_engine::layers::quantile;
use liveness_engine::{ChallengeKind, LivenessEvent, LivenessSession, VerdictReport};

use crate::error::RigError;
use crate::light_camera::LightCamera;

/// The frames of one recording, in capture order.
#[derive(Debug, Clone)]
pub struct Recording {
    pub name: String,
    pub frames: Vec<PathBuf>,
}

/// Whether `path` names a JPEG frame (`.jpg` or `.jpeg`, any case).
pub fn is_jpeg(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"))
}

impl Recording {
    /// Lists the `.jpg`/`.jpeg` files of `dir`, sorted by name.
    pub fn open(dir: &Path) -> Result<Self, RigError> {
        let unreadable = |e: std::io::Error| RigError::Recording {
            path: dir.display().to_string(),
            reason: e.to_string(),
        };
        let mut frames: Vec<PathBuf> = fs::read_dir(dir)
            .map_err(unreadable)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_jpeg(p))
            .collect();
        frames.sort();
        let name = dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Ok(Self { name, frames })
    }

    /// The recording played back and forth until it holds at least `min_frames` frames: a
    /// clip shorter than a session plays on as a person who keeps holding would (no frame
    /// repeats at a turn, so the motion reverses without a still step).
    pub fn back_and_forth(&self, min_frames: usize) -> Self {
        let mut frames = self.frames.clone();
        let mut backward = true;
        while frames.len() < min_frames && self.frames.len() > 1 {
            let next: Vec<PathBuf> = match backward {
                true => self.frames.iter().rev().skip(1).cloned().collect(),
                false => self.frames.iter().skip(1).cloned().collect(),
            };
            frames.extend(next);
            backward = !backward;
        }
        Self {
            name: self.name.clone(),
            frames,
        }
    }

    fn frame(&self, index: usize) -> Vec<u8> {
        // an unreadable frame is sent as empty bytes: the session treats it as invalid input
        fs::read(&self.frames[index]).unwrap_or_default()
    }
}

/// What one action looks like in a recording: frame range in seconds at the replay rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum SegmentKind {
    Neutral,
    Blink,
    TurnLeft,
    TurnRight,
    Smile,
}

impl From<ChallengeKind> for SegmentKind {
    fn from(kind: ChallengeKind) -> Self {
        match kind {
            ChallengeKind::Blink => SegmentKind::Blink,
            ChallengeKind::TurnLeft => SegmentKind::TurnLeft,
            ChallengeKind::TurnRight => SegmentKind::TurnRight,
            ChallengeKind::Smile => SegmentKind::Smile,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    pub kind: SegmentKind,
    pub start: f32,
    pub end: f32,
}

/// Labels of one recording (`segments.toml` in its folder, or one `[[video]]` entry of a
/// shared label file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SegmentLabels {
    #[serde(default)]
    pub video: String,
    #[serde(rename = "segment")]
    pub segments: Vec<Segment>,
}

/// A label file holding several recordings' segments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabelFile {
    pub video: Vec<SegmentLabels>,
}

impl LabelFile {
    pub fn parse(text: &str) -> Result<Self, RigError> {
        toml::from_str(text).map_err(|e| RigError::Segments(e.to_string()))
    }
}

/// The outcome of one replay.
#[derive(Debug, Clone, Serialize)]
pub struct ReplayOutcome {
    pub recording: String,
    pub report: VerdictReport,
    /// Challenges asked, in order (active mode).
    pub challenges: Vec<ChallengeKind>,
    pub frames_sent: usize,
}

/// The capture time, in ms from the first frame, of frame `index` of footage at `fps`: how every
/// replay of recorded footage in the rig and its tests times a frame.
pub fn frame_capture_ms(index: usize, fps: f32) -> u64 {
    (index as f64 * 1000.0 / f64::from(fps.max(0.1))).round() as u64
}

fn outcome(recording: &Recording, session: &mut LivenessSession, sent: usize) -> ReplayOutcome {
    ReplayOutcome {
        recording: recording.name.clone(),
        report: session.conclude(),
        challenges: session.challenge_plan().to_vec(),
        frames_sent: sent,
    }
}

/// Feeds `frames` at `fps` (timestamps from 0) until the verdict or the last frame, then
/// concludes the session. Returns the verdict and the number of frames sent.
pub fn play(
    session: &mut LivenessSession,
    frames: impl IntoIterator<Item = Vec<u8>>,
    fps: f32,
) -> (VerdictReport, usize) {
    play_through(session, frames, fps, None)
}

/// [`play`] through a rendering camera (`crate::light_camera`): the page shows the session's
/// sequence from time 0, and the camera renders its light onto each frame.
pub fn play_through(
    session: &mut LivenessSession,
    frames: impl IntoIterator<Item = Vec<u8>>,
    fps: f32,
    mut camera: Option<&mut LightCamera>,
) -> (VerdictReport, usize) {
    show_sequence(session, camera.as_deref_mut());
    let mut sent = 0;
    for (index, frame) in frames.into_iter().enumerate() {
        let t = frame_capture_ms(index, fps);
        let frame = match camera.as_deref_mut() {
            Some(camera) => {
                // a camera slower than the footage skips the frames between its own
                if !camera.due(t) {
                    continue;
                }
                camera.capture_stamped(&frame, t)
            }
            None => frame,
        };
        session.push_frame(&frame, t);
        sent += 1;
        if session.verdict().is_some() {
            break;
        }
    }
    (session.conclude(), sent)
}

/// Tells the camera the sequence the page shows from time 0, if the session has one.
fn show_sequence(session: &LivenessSession, camera: Option<&mut LightCamera>) {
    if let (Some(camera), Some(sequence)) = (camera, session.illumination()) {
        camera.show(sequence.clone(), 0);
    }
}

/// Plays the recording in order from `start` at `fps` through `session` until the verdict or
/// the last frame, through `camera` when one is given.
pub fn replay_in_order(
    session: &mut LivenessSession,
    recording: &Recording,
    start: usize,
    fps: f32,
    camera: Option<&mut LightCamera>,
) -> ReplayOutcome {
    let frames = (start..recording.frames.len()).map(|index| recording.frame(index));
    let (report, sent) = play_through(session, frames, fps, camera);
    ReplayOutcome {
        recording: recording.name.clone(),
        report,
        challenges: session.challenge_plan().to_vec(),
        frames_sent: sent,
    }
}

/// Active mode with a scripted camera: it plays the neutral segments until a challenge is
/// asked, then the labelled segment of that action, then neutral again, like a cooperative
/// person. Gives up after `max_frames`. Through `camera` when one is given.
pub fn replay_scripted(
    session: &mut LivenessSession,
    recording: &Recording,
    labels: &SegmentLabels,
    fps: f32,
    max_frames: usize,
    mut camera: Option<&mut LightCamera>,
) -> Result<ReplayOutcome, RigError> {
    show_sequence(session, camera.as_deref_mut());
    let frames_of = |kind: SegmentKind| -> Vec<usize> {
        labels
            .segments
            .iter()
            .filter(|s| s.kind == kind)
            .flat_map(|s| {
                let first = (s.start * fps).round() as usize;
                let last = ((s.end * fps).round() as usize).min(recording.frames.len());
                first..last
            })
            .collect()
    };
    let neutral = frames_of(SegmentKind::Neutral);
    if neutral.is_empty() {
        return Err(RigError::Segments(format!(
            "`{}` has no neutral segment",
            recording.name
        )));
    }
    let mut queue: Vec<usize> = Vec::new();
    let mut neutral_cursor = 0;
    let mut sent = 0;
    let mut served = std::collections::HashSet::new();
    while sent < max_frames && session.verdict().is_none() {
        let index = if queue.is_empty() {
            neutral_cursor += 1;
            neutral[neutral_cursor % neutral.len()]
        } else {
            queue.remove(0)
        };
        let mut bytes = recording.frame(index);
        if !served.insert(index) {
            // a person holding still is not a frozen stream: a camera never repeats its bytes
            bytes = with_sensor_noise(&bytes, sent as u64);
        }
        let t = frame_capture_ms(sent, fps);
        if let Some(camera) = camera.as_deref_mut() {
            bytes = camera.capture_stamped(&bytes, t);
        }
        let events = session.push_frame(&bytes, t);
        sent += 1;
        for event in events {
            if let LivenessEvent::Challenge { kind, .. } = event {
                // a person needs a moment to react
                queue = neutral.iter().take(3).copied().collect();
                queue.extend(frames_of(kind.into()));
            }
        }
    }
    Ok(outcome(recording, session, sent))
}

/// The frame re-encoded with ±2 grey levels of pseudo-random noise (a camera's sensor noise),
/// for footage that a scripted camera has to show more than once.
fn with_sensor_noise(jpeg: &[u8], seed: u64) -> Vec<u8> {
    let Ok(image) = face_engine::Image::decode(jpeg) else {
        return jpeg.to_vec();
    };
    let mut rgb = image.into_rgb();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for pixel in rgb.pixels_mut() {
        // xorshift: cheap, deterministic, good enough for noise
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let noise = (state % 5) as i16 - 2;
        for c in &mut pixel.0 {
            *c = (i16::from(*c) + noise).clamp(0, 255) as u8;
        }
    }
    let mut out = Vec::new();
    match image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90).encode_image(&rgb) {
        Ok(()) => out,
        Err(_) => jpeg.to_vec(),
    }
}

/// One row of the evaluation table: how often a class of recordings got each verdict.
#[derive(Debug, Clone, Serialize)]
pub struct ClassSummary {
    pub class: String,
    pub sessions: usize,
    pub pass: usize,
    pub retry: usize,
    pub fail: usize,
    pub confidence_min: f32,
    pub confidence_median: f32,
    pub confidence_max: f32,
}

impl ClassSummary {
    /// The row of `class` over its sessions' outcomes (borrowed: nothing is copied).
    pub fn of<'a>(class: &str, outcomes: impl IntoIterator<Item = &'a ReplayOutcome>) -> Self {
        use domain::Verdict;
        let (verdicts, mut conf): (Vec<Verdict>, Vec<f32>) = outcomes
            .into_iter()
            .map(|o| (o.report.verdict, o.report.confidence))
            .unzip();
        let count = |v: Verdict| verdicts.iter().filter(|&&seen| seen == v).count();
        let median = quantile(&mut conf, 0.5);
        Self {
            class: class.to_string(),
            sessions: verdicts.len(),
            pass: count(Verdict::Pass),
            retry: count(Verdict::Retry),
            fail: count(Verdict::Fail),
            confidence_min: conf.first().copied().unwrap_or(f32::NAN),
            confidence_median: median,
            confidence_max: conf.last().copied().unwrap_or(f32::NAN),
        }
    }

    /// Share of sessions that did not pass (BPCER when the class is live).
    pub fn not_passed_rate(&self) -> f32 {
        (self.sessions - self.pass) as f32 / self.sessions.max(1) as f32
    }

    /// Share of sessions that passed (APCER when the class is an attack).
    pub fn pass_rate(&self) -> f32 {
        self.pass as f32 / self.sessions.max(1) as f32
    }
}
