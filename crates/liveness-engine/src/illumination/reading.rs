//! The light check's judgement over a session: how the face's colour followed this session's
//! sequence, searched over the unknown delay between the server's clock and the light the
//! camera saw, and what that says.
//!
//! **Against the camera's own processing** (issue 39). Each sampled frame's regions are mean
//! *linear* colours (the sRGB encoding undone), turned into log-chroma (ln R − ln G,
//! ln B − ln G). An exposure change multiplies all three channels alike and cancels there. A
//! white balance multiplies each channel by its own gain, the same over the whole frame: it
//! cancels in the face's chroma *minus the room's in the same frame* (the frame's border, away
//! from the face), which is what the face's answer is measured as whenever the room is in
//! view. A tone curve other than sRGB's scales every log-change alike (exactly for a power
//! law): correlations and every ratio of two gains (relief, margin, surround) do not depend on
//! it. JPEG and sensor noise are averaged over hundreds of pixels per region. Without a room in
//! view the face is read on its own; then an answer that would be attack evidence counts only
//! when the client said its camera held exposure and white balance fixed, else it is
//! [`LightFinding::NoRoom`] (no evidence).
//!
//! **The search** (`super::search`). For each candidate start of the sequence within
//! 0..=[`MAX_OFFSET_MS`](super::MAX_OFFSET_MS) of the session's clock, the frames inside the
//! sequence give the correlation between the face's chroma and the shown colours' chroma (and
//! brightness against the room), each channel weighted by the inverse of its own noise, both
//! without their slow drift (a quadratic in time: a head turning changes the face's colour
//! over seconds, the screen every step). The best start is the delay. The face follows only
//! when that correlation beats what random sequences of the same palette reach on the same
//! face over the same search at a false-match rate of 1e-3. At the best start, least squares
//! give each region's *gain*: chroma change per unit of the shown colour's chroma.
//!
//! **The findings.**
//! - The face **follows** when the correlation is at least [`FOLLOW_CORRELATION`] and beats
//!   chance, and the gain is at least [`MIN_GAIN`].
//! - A near face answers much more strongly than the far room: a surround gain of at least
//!   [`FLAT_SURROUND`] of the face's (a frame tinted as a whole, a print filling the view), or
//!   an absolute answer (gain × brightness, the light added) of at least [`GLARE_SURROUND`] of
//!   the face's (the uniform glare on a replaying screen's glass), is a flat surface: attack.
//!   A frame tinted as a whole leaves no answer against the room; it is told by the face and
//!   the room answering alike on their own.
//! - A print is told by its paper: the margin right around the face (beyond ears and hair)
//!   answers like the face, [`PAPER_MARGIN`] of its gain or more beyond two standard errors.
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
//!
//! Flat and glare rest on how the camera rendered the light's strength across the face, and
//! another sequence's answer may be a room's own coloured light, so another layer's evidence
//! of a live face disputes them (`crate::fusion`, `LightFinding::disputable`); uniform (a
//! camera's own processing pulls the room against the face, never with it) does not.

use super::Illumination;
use super::classify::{LightMeasures, classify, trust};
use super::fit::{chroma, swing_of};
use super::regions::{Gains, Lit, contrast_with_error, median_pixels};
use super::sample::{LightSample, luminance};
use super::search::{self, MIN_FRAMES};

pub use super::finding::{LightFinding, LightReading};

pub use super::cutoffs::{
    ADDED_LIGHT_SPREAD, DECISIVE_RELIEF_ERROR, FLAT_SURROUND, FOLLOW_CORRELATION, GLARE_MARK,
    GLARE_SURROUND, MAX_ARRIVAL_TIMED_SHARE, MAX_ATTACK_EVIDENCE_GAP_MS, MAX_UNEXPLAINED_SWING,
    MIN_GAIN, MIN_MARGIN_PIXELS, MIN_RELIEF, MIN_SURROUND_PIXELS, OTHER_CORRELATION, PAPER_MARGIN,
    STRONG_SWING,
};

/// Which of the frame's regions the face's answer is measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reference {
    /// The room in the frame's border: global gains (white balance, exposure) cancel.
    Room,
    /// Nothing: no room in view.
    Frame,
}

impl Reference {
    /// The chroma `reference` subtracts from each region of `sample`.
    fn of(self, sample: &LightSample) -> [f32; 2] {
        match self {
            Self::Room => chroma(sample.surround),
            Self::Frame => [0.0; 2],
        }
    }

    /// The face's log brightness against the room's (the exposure cancels); none (0) without
    /// a room, where the exposure would not cancel.
    fn brightness(self, sample: &LightSample) -> f32 {
        match self {
            Self::Room => {
                luminance(sample.centre).max(1e-4).ln() - luminance(sample.surround).max(1e-4).ln()
            }
            Self::Frame => 0.0,
        }
    }
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

/// What the delay search found: the best correlation, the (sample, step) frames its start
/// lights, the start, and what chance reaches.
type DelayFound = (f32, Vec<(usize, usize)>, u64, f32);

/// The face's best correlation with `sequence` over the delay search on `series`, the start it
/// was found at, and what chance reaches; `None` when no start has enough frames.
fn search_delay(
    samples: &[(u64, LightSample)],
    series: &[[f32; 3]],
    sequence: &Illumination,
) -> Option<DelayFound> {
    let times: Vec<u64> = samples.iter().map(|(t, _)| *t).collect();
    let steps = sequence.colors().len();
    let starts = search::starts(&times, series, sequence.step_ms(), steps);
    let (correlation, best) = search::best(&starts, &search::shown_chroma(sequence))?;
    let chance = search::null_correlation(&times, series, steps);
    let start = starts.into_iter().nth(best)?;
    Some((correlation, start.frames, start.offset_ms, chance))
}

/// Whether the face and the room, each read on its own, followed `sequence` alike (a frame
/// tinted as a whole, a print filling the view): what is left when the face's answer against
/// the room is nothing.
fn answered_as_one_surface(samples: &[(u64, LightSample)], sequence: &Illumination) -> bool {
    let face: Vec<[f32; 3]> = samples
        .iter()
        .map(|(_, s)| {
            let [x, y] = chroma(s.centre);
            [x, y, 0.0]
        })
        .collect();
    let Some((correlation, frames, _, chance)) = search_delay(samples, &face, sequence) else {
        return false;
    };
    let lit = lit_frames(samples, sequence, &frames, Reference::Frame);
    let gains = Gains::of(&lit);
    correlation >= FOLLOW_CORRELATION
        && correlation > chance
        && gains.absolute_centre() >= MIN_GAIN
        && gains.surround_ratio() >= FLAT_SURROUND
}

fn lit_frames<'a>(
    samples: &'a [(u64, LightSample)],
    sequence: &Illumination,
    frames: &[(usize, usize)],
    reference: Reference,
) -> Vec<Lit<'a>> {
    frames
        .iter()
        .map(|&(i, step)| Lit {
            sample: &samples[i].1,
            shown: sequence.colors()[step].chroma(),
            step,
            t: samples[i].0 as f32,
            reference: reference.of(&samples[i].1),
        })
        .collect()
}

/// Judges the samples (capture time in the session's clock, regions) against `sequence`:
/// measures them, classifies the measurements and keeps the finding the frames can carry
/// (`super::classify`).
pub fn read(samples: &[(u64, LightSample)], sequence: &Illumination) -> LightReading {
    let Some(measures) = measure(samples, sequence) else {
        return LightReading::unmeasured(LightFinding::TooFewFrames);
    };
    let found = classify(&measures, || answered_as_one_surface(samples, sequence));
    measures.reading(trust(found, &measures))
}

/// What the samples show at the delay the search finds; `None` when no start has enough
/// frames.
fn measure(samples: &[(u64, LightSample)], sequence: &Illumination) -> Option<LightMeasures> {
    let all_surround: Vec<u32> = samples.iter().map(|(_, s)| s.surround_pixels).collect();
    let reference = match median_pixels(all_surround) >= MIN_SURROUND_PIXELS {
        true => Reference::Room,
        false => Reference::Frame,
    };
    let face: Vec<[f32; 3]> = samples
        .iter()
        .map(|(_, s)| {
            let (x, r) = (chroma(s.centre), reference.of(s));
            [x[0] - r[0], x[1] - r[1], reference.brightness(s)]
        })
        .collect();
    let (correlation, frames, offset_ms, chance) = search_delay(samples, &face, sequence)?;
    let lit = lit_frames(samples, sequence, &frames, reference);
    let gains = Gains::of(&lit);
    let centre: super::regions::Region = |s| s.centre;
    let (relief, relief_error) = contrast_with_error(&lit, centre, |s| s.rim, centre);
    let (added, added_error) =
        contrast_with_error(&lit, |s| s.darker, |s| s.brighter, |s| s.brighter);
    let (margin_excess, margin_error) = contrast_with_error(&lit, |s| s.margin, centre, centre);
    let (outline_excess, outline_error) = contrast_with_error(&lit, |s| s.outline, centre, centre);
    let against_room = reference == Reference::Room;
    let times: Vec<f32> = lit.iter().map(|l| l.t).collect();
    let face_series: Vec<[f32; 2]> = lit.iter().map(|l| l.chroma(centre)).collect();
    let swing = swing_of(&face_series, &times);
    let surround: Vec<[f32; 2]> = lit.iter().map(|l| chroma(l.sample.surround)).collect();
    let absolute_face: Vec<[f32; 2]> = lit.iter().map(|l| chroma(l.sample.centre)).collect();
    let paced: Vec<f32> = lit
        .iter()
        .filter(|l| !l.sample.from_backlog)
        .map(|l| l.t)
        .collect();
    let share = |keep: fn(&LightSample) -> bool| {
        lit.iter().filter(|l| keep(l.sample)).count() as f32 / lit.len().max(1) as f32
    };
    Some(LightMeasures {
        against_room,
        frames: lit.len(),
        offset_ms,
        correlation,
        chance,
        face_gain: gains.centre,
        surround_ratio: gains.surround_ratio(),
        glare_ratio: gains.glare_ratio(),
        relief,
        relief_error,
        added,
        added_error,
        margin_ratio: 1.0 + margin_excess,
        margin_error,
        margin_judged: against_room
            && median_pixels(lit.iter().map(|l| l.sample.margin_pixels).collect())
                >= MIN_MARGIN_PIXELS,
        outline_ratio: 1.0 + outline_excess,
        outline_error,
        outline_judged: against_room
            && median_pixels(lit.iter().map(|l| l.sample.outline_pixels).collect())
                >= MIN_MARGIN_PIXELS,
        swing,
        face_alone: against_room
            && swing_of(&surround, &times) <= 0.5 * swing_of(&absolute_face, &times).max(swing),
        kept_up: paced.len() >= MIN_FRAMES / 2
            && median_gap_ms(&paced) <= MAX_ATTACK_EVIDENCE_GAP_MS,
        arrival_timed: share(|s| s.timed_by_arrival) > MAX_ARRIVAL_TIMED_SHARE,
        camera_locked: share(|s| s.camera_locked) > 0.5,
    })
}

#[cfg(test)]
#[path = "reading_tests.rs"]
mod tests;
