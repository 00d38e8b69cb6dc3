//! The session's screen-light check: the sequence it shows (or why none), the samples it
//! keeps while the sequence is shown, and the reading over them (`crate::illumination`).

use face_engine::Image;

use crate::capture_time;
use crate::illumination::Illumination;
use crate::illumination::reading::{self as light_reading, LightFinding, LightReading};
use crate::illumination::sample::LightSample;
use crate::observation::FaceObservation;

use super::{LivenessSession, Phase};

/// Shortest capture-time gap between two light samples.
const LIGHT_SAMPLE_INTERVAL_MS: u64 = 30;
/// Most light samples a session keeps.
const MAX_LIGHT_SAMPLES: usize = 200;
/// How long after the last frame the sequence may light a camera's automatic white balance
/// and exposure take to settle back: a phone's white balance answers a coloured screen by
/// pulling the whole frame the other way, and drifts back within about a second. The
/// anti-spoof model, an RGB model trained on natural images, called a live face so tinted a
/// print (median 0.038 against 0.994 untinted, issue 39), so it skips these frames too.
pub const CAMERA_SETTLE_MS: u64 = 1_000;
/// The screen-light check of one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LightCheck {
    /// No check: the session is judged without the screen's light.
    Off,
    /// The page shows this sequence from the start of the stream.
    Sequence(Illumination),
    /// The sequence was sent on an earlier connection of the same session and is never sent
    /// again: this connection cannot be judged on light (`retry` at best).
    ShownEarlier,
}

impl LivenessSession {
    /// The sequence the page must show, from the start of the stream (none when the check is
    /// off or was shown on an earlier connection).
    pub fn illumination(&self) -> Option<&Illumination> {
        match &self.light {
            LightCheck::Sequence(sequence) => Some(sequence),
            LightCheck::Off | LightCheck::ShownEarlier => None,
        }
    }

    /// What the light check reads from the frames so far; `None` when there is no check.
    pub fn light_reading(&self) -> Option<LightReading> {
        match &self.light {
            LightCheck::Off => None,
            LightCheck::ShownEarlier => Some(LightReading::unmeasured(LightFinding::NotShown)),
            LightCheck::Sequence(sequence) => {
                // the reading (its chance level costs a few milliseconds) changes only with
                // the samples, and none are taken once the sequence's window is over
                let kept = self.light_samples.len();
                if let Some((samples, reading)) = self.light_cache.get()
                    && samples == kept
                {
                    return Some(reading);
                }
                let reading = light_reading::read(&self.light_samples, sequence);
                self.light_cache.set(Some((kept, reading)));
                Some(reading)
            }
        }
    }

    /// Reads the light as soon as a frame captured at `t` is past the sequence's window, so
    /// the reading (its chance level is about 10,000 correlations) is made while the camera
    /// settles rather than at the verdict, when every loaded session wants the cores at once
    /// (issue 42). Frames come in capture order and no sample is taken past the window, so the
    /// cached reading is the one the verdict reads; a sample that still came would be read
    /// again (the cache counts them).
    pub(super) fn read_light_once_over(&self, t: u64) {
        if self.light_check_shown() && self.light_window_over(t) && self.phase != Phase::Finished {
            let _ = self.light_reading();
        }
    }

    /// Samples the light on a frame between two analysed ones while the sequence is shown,
    /// in the last analysed face's box ([`Self::light_sample_due`]): the check wants every
    /// frame it can get, and this costs a decode, no inference. `from_backlog`: the frame was
    /// set aside by an overloaded server's mailbox.
    pub(super) fn sample_light(&mut self, jpeg: &[u8], t: u64, from_backlog: bool) {
        if !self.light_sample_due(t) {
            return;
        }
        if let Ok(image) = Image::decode_with_limit(jpeg, self.config.max_frame_pixels) {
            self.keep_light_sample(&image, jpeg, t, from_backlog);
        }
    }

    /// Whether a light sample of the frame at `t` is wanted: the sequence is shown, a face box
    /// is known, `t` lies in the sequence's window, and no kept sample is closer to it than
    /// [`LIGHT_SAMPLE_INTERVAL_MS`].
    pub(super) fn light_sample_due(&self, t: u64) -> bool {
        let (LightCheck::Sequence(sequence), Some(_)) = (&self.light, self.last_face_box) else {
            return false;
        };
        let at = self.light_samples.partition_point(|(kept, _)| *kept <= t);
        let near = |i: usize| {
            self.light_samples
                .get(i)
                .is_some_and(|(kept, _)| kept.abs_diff(t) < LIGHT_SAMPLE_INTERVAL_MS)
        };
        let due = !near(at) && (at == 0 || !near(at - 1));
        due && t <= sequence.window_end_ms() && self.light_samples.len() < MAX_LIGHT_SAMPLES
    }

    /// Keeps the light sample of `image` (the frame `jpeg` at `t`, due by
    /// [`Self::light_sample_due`]) in the last analysed face's box; the samples stay in
    /// capture order.
    pub(super) fn keep_light_sample(
        &mut self,
        image: &Image,
        jpeg: &[u8],
        t: u64,
        from_backlog: bool,
    ) {
        let Some(face_box) = self.last_face_box else {
            return;
        };
        let at = self.light_samples.partition_point(|(kept, _)| *kept <= t);
        let sample = LightSample {
            from_backlog,
            timed_by_arrival: capture_time::read_stamp(jpeg).is_none(),
            camera_locked: capture_time::read_camera_lock(jpeg),
            ..LightSample::read(image.rgb(), &face_box)
        };
        self.light_samples.insert(at, (t, sample));
    }

    /// Keeps an analysed face's light sample and box for the light check; `jpeg` is the
    /// frame's bytes (whether it carried a capture time).
    pub(super) fn keep_light(&mut self, jpeg: &[u8], t: u64, face: Option<&FaceObservation>) {
        let LightCheck::Sequence(sequence) = &self.light else {
            return;
        };
        self.last_face_box = face.map(|f| f.bbox);
        if let Some(face) = face
            && t <= sequence.window_end_ms()
            && self.light_samples.len() < MAX_LIGHT_SAMPLES
        {
            let sample = LightSample {
                timed_by_arrival: capture_time::read_stamp(jpeg).is_none(),
                camera_locked: capture_time::read_camera_lock(jpeg),
                ..face.light
            };
            self.light_samples.push((t, sample));
        }
    }

    /// Whether the frame captured at session time `t` may be coloured by the sequence: lit by
    /// it, or pushed the other way by a camera whose white balance and exposure are still
    /// settling back after it ([`CAMERA_SETTLE_MS`]). The anti-spoof model never judges such
    /// a frame.
    pub(super) fn coloured_by_sequence(&self, t: u64) -> bool {
        self.model_window_start_ms().is_some_and(|start| t < start)
    }

    /// The session time from which the anti-spoof model may judge frames: the end of the
    /// sequence's window and of the camera's settling after it (`CAMERA_SETTLE_MS`); `None`
    /// when the session shows no sequence (the model judges every frame).
    pub fn model_window_start_ms(&self) -> Option<u64> {
        match &self.light {
            LightCheck::Sequence(sequence) => Some(sequence.window_end_ms() + CAMERA_SETTLE_MS),
            LightCheck::Off | LightCheck::ShownEarlier => None,
        }
    }

    /// Whether this session showed a sequence.
    pub(super) fn light_check_shown(&self) -> bool {
        matches!(self.light, LightCheck::Sequence(_))
    }

    /// Whether the frames lit by the whole sequence have all arrived by session time `t`.
    pub(crate) fn light_window_over(&self, t: u64) -> bool {
        match &self.light {
            LightCheck::Sequence(sequence) => t >= sequence.window_end_ms(),
            LightCheck::Off | LightCheck::ShownEarlier => true,
        }
    }
}
