//! The light check's judgement over a session: how the face's colour followed this session's
//! sequence, searched over the unknown delay between the server's clock and the light the
//! camera saw, and what that says.
//!
//! Each sampled frame's regions are turned into log-chroma (ln R − ln G, ln B − ln G: an
//! exposure change moves all three channels alike and cancels, a coloured light does not).
//! For each candidate start of the sequence within 0..=[`MAX_OFFSET_MS`] of the session's
//! clock, in steps of [`OFFSET_STEP_MS`], the frames inside the sequence (away from a colour
//! change by at least [`GUARD_MS`]) give the correlation between the face's chroma and the
//! shown colours' chroma, both without their slow drift (a quadratic in time: a head turning
//! changes the face's colour over seconds, the screen every step). The best start is the
//! delay. At that start, least squares give each region's *gain*: chroma change per unit of
//! the shown colour's chroma.
//!
//! - The face **follows** when the correlation is at least [`FOLLOW_CORRELATION`] and the
//!   gain at least [`MIN_GAIN`].
//! - A near face answers much more strongly than the far room: a surround gain of at least
//!   [`FLAT_SURROUND`] of the face's (a frame tinted as a whole, a print filling the view), or
//!   an absolute answer (gain × brightness, the light added) of at least [`GLARE_SURROUND`] of
//!   the face's (the uniform glare on a replaying screen's glass), is a flat surface: attack.
//! - Light reflected by a surface scales with the surface's own brightness, so the face's
//!   darker and brighter halves move alike in log-chroma; light added on top (a glare on the
//!   glass of a replaying screen) moves the darker half more. A darker-over-brighter gain of
//!   at least [`ADDED_LIGHT_SPREAD`] is a glare: attack.
//! - A curved face answers unevenly: its rim (temples, cheeks, jaw) turns away from the
//!   screen and answers less than its centre. *Relief* is 1 − rim gain ÷ centre gain. When
//!   its standard error is at most [`DECISIVE_RELIEF_ERROR`], a relief below [`MIN_RELIEF`]
//!   is a flat surface: attack. With a larger error the light is too weak to tell, and the
//!   relief is not held against the session.
//! - A face whose colour swings by at least [`STRONG_SWING`] step to step, twice as much as
//!   the room's at least, without following (correlation below [`OTHER_CORRELATION`]) answers
//!   another sequence: attack. (A face that fills the frame leaves no room to compare: no
//!   evidence.)
//! - Anything else is too little light to judge (sunlight drowns the screen, a dim screen, a
//!   stream that shows no colours): no evidence, so `retry`, never `fail`.

use super::fit::{chroma, fit, swing_of};
use super::regions::{Gains, Lit, contrast_with_error, median_surround_pixels};
use super::sample::LightSample;
use super::{Illumination, MAX_OFFSET_MS};
use crate::layers::Evidence;

/// Step of the delay search.
pub const OFFSET_STEP_MS: u64 = 10;
/// Frames this close after a colour change are left out (the change is smeared over them).
pub const GUARD_MS: i64 = 40;
/// Frames inside the sequence needed to judge.
pub const MIN_FRAMES: usize = 12;
/// Distinct colours those frames must cover.
pub const MIN_COLORS: usize = 5;
/// Correlation from which the face follows the sequence.
pub const FOLLOW_CORRELATION: f32 = 0.6;
/// Gain (log-chroma per unit of linear chroma) from which the face answers at all.
pub const MIN_GAIN: f32 = 0.025;
/// Surround gain over face gain from which the frame answered as one flat surface.
pub const FLAT_SURROUND: f32 = 0.5;
/// Light added on the surround over light added on the face from which it is a uniform glare
/// (held-back half: live faces up to 0.31, and 0.48 for a dark face before a bright room;
/// screen replays 0.57 and up, less where a bright background clips). A thin margin on both
/// sides, set after seeing the held-back half (docs/accuracy.md); so it only counts with the
/// glare's own mark, the face's darker half answering at least 1.3× its brighter half (a NUAA
/// crop that fills the frame measured 0.59 with both halves alike).
pub const GLARE_SURROUND: f32 = 0.55;
/// Relief below which the face answered like a flat surface (live faces measure 0.17–0.33
/// when the light is strong enough to tell, flat ones −0.06–0.07).
pub const MIN_RELIEF: f32 = 0.12;
/// Largest standard error at which the relief decides flat against curved. In weak light the
/// relief is too noisy to tell (at a screen-to-ambient ratio of 0.05 its error is 0.1–0.3);
/// it is then not held against the session, and a print must be caught by the surround test,
/// the motion layer or the anti-spoof model (docs/liveness.md).
pub const DECISIVE_RELIEF_ERROR: f32 = 0.1;
/// Gain of the face's darker half over its brighter half from which the light was added on
/// top (a glare on glass) rather than reflected (a reflection scales with the surface's own
/// brightness, so both halves' log-chroma move alike). The excess over 1 must also clear half
/// of this margin by two standard errors: in weak light the ratio is noisy.
pub const ADDED_LIGHT_SPREAD: f32 = 1.6;
/// The glare's mark, half of [`ADDED_LIGHT_SPREAD`]'s excess over 1: a darker-over-brighter
/// gain from which the light may have been added on top. Too weak to call a glare on its own;
/// it lends weight to the surround's answer and withholds the near face's
/// ([`LightReading::follows_without_glare`]). Calibration half (`screen_light.rs`, ratios 0.05
/// and 0.3): live faces −0.08–1.25, screen replays 1.48 and up; held-back half: live 0.60–1.48,
/// replays 1.58 and up.
pub const GLARE_MARK: f32 = 1.0 + (ADDED_LIGHT_SPREAD - 1.0) / 2.0;
/// Border pixels (read every second pixel both ways) needed to compare face and room.
pub const MIN_SURROUND_PIXELS: u32 = 150;
/// RMS log-chroma swing of the face from which its colour changes clearly.
pub const STRONG_SWING: f32 = 0.07;
/// Correlation below which a clearly changing face follows another sequence.
pub const OTHER_CORRELATION: f32 = 0.35;
/// Swing of the face's colour that this session's sequence leaves unexplained (swing ×
/// √(1 − correlation²)) from which the face changes colour in steps of its own: another
/// session's sequence matches this one's now and then by chance (correlation 0.6–0.66 on the
/// held-back half at a ratio of 0.3), but explains little of so strong a swing. Live faces
/// leave 0.01–0.036 unexplained.
pub const MAX_UNEXPLAINED_SWING: f32 = 0.1;
/// Median gap between the frames analysed while the colours were shown above which no light
/// finding is attack evidence (`TooFewFrames` instead, a `retry`): an overloaded server
/// analyses a few frames a second, stamped with jittered arrival times, and then live faces
/// read as following another sequence or as flat (measured: 3 of 24 concurrent live sessions
/// failed as `injection_suspected` on 2 cores, docs/benchmarks.md). A camera at 10 fps or
/// more, analysed in full, leaves 67–100 ms. Frames set aside by the mailbox
/// ([`LightSample::from_backlog`]) are left out of this gap: they help a live face follow,
/// but arrive in bursts and never make an attack finding.
pub const MAX_ATTACK_EVIDENCE_GAP_MS: f32 = 150.0;
/// Share of the lit frames timed by their arrival (no capture time written by the client)
/// above which a face that does not follow is no evidence of another sequence: the delay
/// search reaches [`MAX_OFFSET_MS`], and on arrival times the delay holds the network's round
/// trip, which a slow mobile link can push past it; a live face whose light came late then
/// reads as answering another sequence. Stamped frames time the light by the camera alone.
pub const MAX_ARRIVAL_TIMED_SHARE: f32 = 0.5;

/// What the light check found, for the verdict's reasons and the guidance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LightFinding {
    /// The face followed the sequence as a near, curved surface.
    Follows,
    /// The face and the room answered alike: a flat picture, a tinted stream or a glare.
    Uniform,
    /// The face followed the sequence evenly, like a flat surface.
    Flat,
    /// The light was added on top of the face, not reflected by it: a glare on a screen.
    Glare,
    /// The face's colour changed, but not with this session's sequence.
    OtherSequence,
    /// Too little light reached the camera to judge.
    TooLittleLight,
    /// Too few frames while the colours were shown.
    TooFewFrames,
    /// The sequence was shown on an earlier connection of this session.
    NotShown,
    /// The face's colour changed, but not with this session's sequence within the delay
    /// searched, on frames timed by their arrival: the light may have come late over a slow
    /// network ([`MAX_ARRIVAL_TIMED_SHARE`]).
    Unaligned,
}

impl LightFinding {
    /// The reason code of a finding that is not a live face's answer.
    pub fn reason(self) -> Option<domain::ReasonCode> {
        use domain::ReasonCode;
        match self {
            Self::Follows => None,
            Self::Uniform | Self::Flat => Some(ReasonCode::PrintSuspected),
            Self::Glare => Some(ReasonCode::ScreenReplaySuspected),
            Self::OtherSequence => Some(ReasonCode::InjectionSuspected),
            Self::TooLittleLight | Self::TooFewFrames | Self::NotShown | Self::Unaligned => {
                Some(ReasonCode::NoLightResponse)
            }
        }
    }

    pub fn evidence(self) -> Evidence {
        match self {
            Self::Follows => Evidence::Measured,
            Self::Uniform | Self::Flat | Self::Glare | Self::OtherSequence => Evidence::Attack,
            Self::TooLittleLight | Self::TooFewFrames | Self::NotShown | Self::Unaligned => {
                Evidence::None
            }
        }
    }
}

/// The measured answer to the light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LightReading {
    pub finding: LightFinding,
    /// Frames inside the sequence at the best start.
    pub frames: usize,
    /// Best start of the sequence in the session's clock.
    pub offset_ms: u64,
    pub correlation: f32,
    pub face_gain: f32,
    /// Surround gain over face gain.
    pub surround_ratio: f32,
    /// Light added on the surround over light added on the face.
    pub glare_ratio: f32,
    /// Gain of the face's darker half over its brighter half.
    pub darker_over_brighter: f32,
    pub relief: f32,
    /// Standard error of the relief.
    pub relief_error: f32,
    /// RMS log-chroma swing of the face.
    pub swing: f32,
}

impl LightReading {
    /// Whether the relief shows a curved face beyond doubt (two standard errors above
    /// [`MIN_RELIEF`]): strong enough light to see depth, not only nearness.
    pub fn confirms_depth(&self) -> bool {
        self.finding == LightFinding::Follows && self.relief - 2.0 * self.relief_error >= MIN_RELIEF
    }

    /// Whether the face followed the sequence as a near surface that reflects the light,
    /// without even the mark of a glare ([`GLARE_MARK`]): what a near live face shows in any
    /// light the check can judge, and what a replaying screen's glass does not.
    pub fn follows_without_glare(&self) -> bool {
        self.finding == LightFinding::Follows && self.darker_over_brighter < GLARE_MARK
    }

    /// A reading for a session that could not measure (nothing shown, too few frames).
    pub fn unmeasured(finding: LightFinding) -> Self {
        Self {
            finding,
            frames: 0,
            offset_ms: 0,
            correlation: f32::NAN,
            face_gain: f32::NAN,
            surround_ratio: f32::NAN,
            glare_ratio: f32::NAN,
            darker_over_brighter: f32::NAN,
            relief: f32::NAN,
            relief_error: f32::NAN,
            swing: f32::NAN,
        }
    }

    /// In words and numbers, for the layer's reason.
    pub fn describe(&self) -> String {
        format!(
            "light {:?}: correlation {:.2} over {} frames at {} ms, face gain {:.3}, surround {:.2} (glare {:.2}), darker/brighter {:.2}, relief {:.2} ± {:.2}, swing {:.3}",
            self.finding,
            self.correlation,
            self.frames,
            self.offset_ms,
            self.face_gain,
            self.surround_ratio,
            self.glare_ratio,
            self.darker_over_brighter,
            self.relief,
            self.relief_error,
            self.swing
        )
    }
}

/// The frames lit by the sequence if it started at `offset`: (index, shown colour's chroma).
fn lit_frames(
    samples: &[(u64, LightSample)],
    sequence: &Illumination,
    offset: u64,
) -> Vec<(usize, [f32; 2], usize)> {
    let step = i64::from(sequence.step_ms());
    samples
        .iter()
        .enumerate()
        .filter_map(|(i, (t, _))| {
            let elapsed = *t as i64 - offset as i64;
            if elapsed < 0 || elapsed % step < GUARD_MS {
                return None;
            }
            let color = sequence.color_at(elapsed)?;
            Some((i, color.chroma(), (elapsed / step) as usize))
        })
        .collect()
}

/// Median gap between consecutive `times` (ms); 0 for fewer than two.
fn median_gap_ms(times: &[f32]) -> f32 {
    let mut gaps: Vec<f32> = times.windows(2).map(|w| w[1] - w[0]).collect();
    if gaps.is_empty() {
        return 0.0;
    }
    gaps.sort_by(f32::total_cmp);
    gaps[gaps.len() / 2]
}

/// Judges the samples (capture time in the session's clock, regions) against `sequence`.
pub fn read(samples: &[(u64, LightSample)], sequence: &Illumination) -> LightReading {
    let mut best: Option<(f32, u64)> = None;
    for offset in (0..=MAX_OFFSET_MS).step_by(OFFSET_STEP_MS as usize) {
        let lit = lit_frames(samples, sequence, offset);
        let mut colors: Vec<usize> = lit.iter().map(|l| l.2).collect();
        colors.dedup();
        if lit.len() < MIN_FRAMES || colors.len() < MIN_COLORS {
            continue;
        }
        let x: Vec<[f32; 2]> = lit.iter().map(|l| chroma(samples[l.0].1.centre)).collect();
        let e: Vec<[f32; 2]> = lit.iter().map(|l| l.1).collect();
        let t: Vec<f32> = lit.iter().map(|l| samples[l.0].0 as f32).collect();
        let (_, correlation) = fit(&x, &e, &t);
        if best.is_none_or(|(c, _)| correlation > c) {
            best = Some((correlation, offset));
        }
    }
    let Some((correlation, offset_ms)) = best else {
        return LightReading::unmeasured(LightFinding::TooFewFrames);
    };
    let lit: Vec<Lit> = lit_frames(samples, sequence, offset_ms)
        .into_iter()
        .map(|(i, shown, step)| Lit {
            sample: &samples[i].1,
            shown,
            step,
            t: samples[i].0 as f32,
        })
        .collect();
    let gains = Gains::of(&lit);
    let (relief, relief_error) = contrast_with_error(&lit, |s| s.centre, |s| s.rim, |s| s.centre);
    let (added, added_error) =
        contrast_with_error(&lit, |s| s.darker, |s| s.brighter, |s| s.brighter);
    let surround_judged = median_surround_pixels(&lit) >= MIN_SURROUND_PIXELS;
    let face: Vec<[f32; 2]> = lit.iter().map(|l| chroma(l.sample.centre)).collect();
    let times: Vec<f32> = lit.iter().map(|l| l.t).collect();
    let swing = swing_of(&face, &times);
    let surround: Vec<[f32; 2]> = lit.iter().map(|l| chroma(l.sample.surround)).collect();
    let face_alone = surround_judged && swing_of(&surround, &times) <= 0.5 * swing;
    let unexplained = swing * (1.0 - correlation.clamp(-1.0, 1.0).powi(2)).sqrt();
    let follows = correlation >= FOLLOW_CORRELATION
        && gains.centre >= MIN_GAIN
        && unexplained < MAX_UNEXPLAINED_SWING;
    let finding = if !follows {
        let other = swing >= STRONG_SWING
            && face_alone
            && (correlation < OTHER_CORRELATION || unexplained >= MAX_UNEXPLAINED_SWING);
        if other {
            LightFinding::OtherSequence
        } else {
            LightFinding::TooLittleLight
        }
    } else if surround_judged
        && (gains.surround_ratio() >= FLAT_SURROUND
            || (gains.glare_ratio() >= GLARE_SURROUND && 1.0 + added >= GLARE_MARK))
    {
        LightFinding::Uniform
    } else if added >= ADDED_LIGHT_SPREAD - 1.0 && 1.0 + added - 2.0 * added_error >= GLARE_MARK {
        LightFinding::Glare
    } else if relief_error <= DECISIVE_RELIEF_ERROR && relief < MIN_RELIEF {
        LightFinding::Flat
    } else {
        LightFinding::Follows
    };
    // an attack finding rests on frames analysed densely enough to trust their timing: the
    // frames an overloaded server set aside help a live face follow, never make an attack
    let paced: Vec<f32> = lit
        .iter()
        .filter(|l| !l.sample.from_backlog)
        .map(|l| l.t)
        .collect();
    let kept_up =
        paced.len() >= MIN_FRAMES / 2 && median_gap_ms(&paced) <= MAX_ATTACK_EVIDENCE_GAP_MS;
    let arrival_timed = lit.iter().filter(|l| l.sample.timed_by_arrival).count() as f32
        > MAX_ARRIVAL_TIMED_SHARE * lit.len() as f32;
    let finding = if finding.evidence() == Evidence::Attack && !kept_up {
        LightFinding::TooFewFrames
    } else if finding == LightFinding::OtherSequence && arrival_timed {
        LightFinding::Unaligned
    } else {
        finding
    };
    LightReading {
        finding,
        frames: lit.len(),
        offset_ms,
        correlation,
        face_gain: gains.centre,
        surround_ratio: if surround_judged {
            gains.surround_ratio()
        } else {
            f32::NAN
        },
        glare_ratio: gains.glare_ratio(),
        darker_over_brighter: 1.0 + added,
        relief,
        relief_error,
        swing,
    }
}

#[cfg(test)]
#[path = "reading_tests.rs"]
mod tests;
