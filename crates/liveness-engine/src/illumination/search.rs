//! The delay search, and what chance reaches in it. The light check does not know when the
//! camera saw each colour (network, display and camera delays), so it tries every start of the
//! sequence within 0..=[`MAX_OFFSET_MS`] and keeps the best correlation. Over so many starts a
//! sequence the face never answered also correlates now and then: another session's recording
//! passed once in 13 in issue 39's measurement.
//!
//! So a match must beat chance on the same face: [`null_correlation`] runs the same search
//! with [`NULL_SEQUENCES`] random sequences of the same palette and length, each with its own
//! step as another session's would have, and fits an extreme-value (Gumbel) law to their best
//! correlations (after Fisher's z, which makes a correlation's spread nearly even). The
//! correlation this session's sequence must beat is that law's quantile at a false-match rate
//! of [`FALSE_MATCH_RATE`]: a face that answers nothing, or answers another sequence, matches
//! by chance at most that often. The fit errs high: on a face answering one sequence, the bar
//! stood at 0.80 where 5,000 other sessions' sequences reached 0.79 at their 1e-3 quantile
//! (`tests::the_chance_bar_is_at_or_above_what_other_sessions_reach`).
//!
//! The series searched is three channels: the face's two log-chroma and its log brightness,
//! each against the room's (the camera's exposure cancels there; without a room the brightness
//! channel is left out).
//!
//! Cost: the frames each start keeps, and the face's series with its slow drift taken out,
//! depend on the start and the step alone, so they are computed once per start and step and
//! shared by every sequence of that step; each sequence then costs one projection and one dot
//! product per start. About 10,000 correlations of 40-80 frames, computed once a session when
//! the sequence's window closes (docs/benchmarks.md has the measured cost).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::fit::{drift_basis, without_drift};
use super::{Illumination, MAX_OFFSET_MS, MAX_STEP_MS, MIN_STEP_MS, PALETTE, ScreenColor};

/// Step of the delay search.
pub const OFFSET_STEP_MS: u64 = 10;
/// Frames this close after a colour change are left out (the change is smeared over them).
pub const GUARD_MS: i64 = 40;
/// Frames inside the sequence needed to judge.
pub const MIN_FRAMES: usize = 12;
/// Distinct colour steps those frames must cover.
pub const MIN_COLORS: usize = 5;
/// Random sequences whose best correlations estimate what chance reaches.
pub const NULL_SEQUENCES: usize = 200;
/// Grid of the steps the random sequences are drawn with.
pub const NULL_STEP_GRID_MS: u32 = 10;
/// Most often a face that did not answer this session's sequence may match it.
pub const FALSE_MATCH_RATE: f64 = 1e-3;
/// The generator of the random sequences: fixed, so a reading is reproducible (the null is a
/// property of the face's series, not a secret).
const NULL_SEED: u64 = 0x1e39_0001;

/// One start of the sequence: the frames it lights and the face's series over them.
#[derive(Debug)]
pub(super) struct Start {
    pub(super) offset_ms: u64,
    /// (sample index, step of the sequence) of each lit frame.
    pub(super) frames: Vec<(usize, usize)>,
    basis: Vec<Vec<f32>>,
    /// The face's series (both chroma channels) without its slow drift.
    face: [Vec<f32>; 3],
    face_power: f32,
}

/// The starts with enough lit frames over enough colour steps, for a sequence of `steps`
/// colours shown `step_ms` each; `series` is the face's chroma at each of `times`.
pub(super) fn starts(times: &[u64], series: &[[f32; 3]], step_ms: u32, steps: usize) -> Vec<Start> {
    let step = i64::from(step_ms.max(1));
    (0..=MAX_OFFSET_MS)
        .step_by(OFFSET_STEP_MS as usize)
        .filter_map(|offset| {
            let frames: Vec<(usize, usize)> = times
                .iter()
                .enumerate()
                .filter_map(|(i, &t)| {
                    let elapsed = t as i64 - offset as i64;
                    if elapsed < 0 || elapsed % step < GUARD_MS {
                        return None;
                    }
                    let k = (elapsed / step) as usize;
                    (k < steps).then_some((i, k))
                })
                .collect();
            let mut covered: Vec<usize> = frames.iter().map(|f| f.1).collect();
            covered.dedup();
            if frames.len() < MIN_FRAMES || covered.len() < MIN_COLORS {
                return None;
            }
            let t: Vec<f32> = frames.iter().map(|&(i, _)| times[i] as f32).collect();
            let basis = drift_basis(&t);
            let face = [0, 1, 2].map(|c| {
                let x: Vec<f32> = frames.iter().map(|&(i, _)| series[i][c]).collect();
                without_drift(&x, &basis)
            });
            let face_power = face.iter().flatten().map(|v| v * v).sum();
            Some(Start {
                offset_ms: offset,
                frames,
                basis,
                face,
                face_power,
            })
        })
        .collect()
}

/// Correlation of the face's series with the chroma `shown[k]` of each step, at `start`.
fn correlation(start: &Start, shown: &[[f32; 3]]) -> f32 {
    let (mut xe, mut ee) = (0.0f32, 0.0f32);
    // a channel the face's series does not carry (no room to read brightness against) is left
    // out of both sides
    for c in (0..3).filter(|&c| start.face[c].iter().any(|v| *v != 0.0)) {
        let e: Vec<f32> = start.frames.iter().map(|&(_, k)| shown[k][c]).collect();
        let de = without_drift(&e, &start.basis);
        for (x, e) in start.face[c].iter().zip(&de) {
            xe += x * e;
            ee += e * e;
        }
    }
    if ee <= f32::EPSILON || start.face_power <= f32::EPSILON {
        return 0.0;
    }
    xe / (start.face_power * ee).sqrt()
}

/// The best correlation over `starts` for the step colours `shown`, and its start's index.
pub(super) fn best(starts: &[Start], shown: &[[f32; 3]]) -> Option<(f32, usize)> {
    starts
        .iter()
        .enumerate()
        .map(|(i, s)| (correlation(s, shown), i))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// The chroma of each colour of `sequence`.
pub(super) fn shown_chroma(sequence: &Illumination) -> Vec<[f32; 3]> {
    sequence.colors().iter().map(|c| c.answer()).collect()
}

/// The correlation another session's sequence reaches on this face over the delay search no
/// more often than [`FALSE_MATCH_RATE`]: the Gumbel quantile of the best correlations (as
/// Fisher's z) of [`NULL_SEQUENCES`] random sequences of `steps` colours, each with a step
/// drawn as a session draws it ([`MIN_STEP_MS`]..=[`MAX_STEP_MS`], in [`NULL_STEP_GRID_MS`]
/// steps: another session's recording carries its own step), searched over the face's
/// `times` and `series`; NaN when no start has enough frames.
pub(super) fn null_correlation(times: &[u64], series: &[[f32; 3]], steps: usize) -> f32 {
    let mut rng = StdRng::seed_from_u64(NULL_SEED);
    let step_choices: Vec<u32> = (MIN_STEP_MS..=MAX_STEP_MS)
        .step_by(NULL_STEP_GRID_MS as usize)
        .collect();
    let per_step = NULL_SEQUENCES.div_ceil(step_choices.len());
    let mut maxima: Vec<f64> = Vec::with_capacity(NULL_SEQUENCES);
    for step_ms in step_choices {
        let starts = starts(times, series, step_ms, steps);
        if starts.is_empty() {
            continue;
        }
        for _ in 0..per_step {
            if let Some((r, _)) = best(&starts, &random_steps(&mut rng, steps)) {
                maxima.push(f64::from(r.clamp(-0.999_999, 0.999_999)).atanh());
            }
        }
    }
    if maxima.len() < 2 {
        return f32::NAN;
    }
    let n = maxima.len().max(2) as f64;
    let mean = maxima.iter().sum::<f64>() / n;
    let sd = (maxima.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    // Gumbel by moments: scale β = sd·√6/π, location μ = mean − γβ; quantile 1 − p is
    // μ − β·ln(−ln(1 − p))
    let beta = sd * 6f64.sqrt() / std::f64::consts::PI;
    let mu = mean - 0.577_215_7 * beta;
    let z = mu - beta * (-(1.0 - FALSE_MATCH_RATE).ln()).ln();
    z.tanh() as f32
}

/// The chroma of `steps` colours drawn as [`Illumination::draw`] draws them (the palette, no
/// colour twice in a row).
fn random_steps(rng: &mut StdRng, steps: usize) -> Vec<[f32; 3]> {
    let mut colors: Vec<ScreenColor> = Vec::with_capacity(steps);
    while colors.len() < steps {
        let color = ScreenColor(PALETTE[rng.random_range(0..PALETTE.len())]);
        if colors.last() != Some(&color) {
            colors.push(color);
        }
    }
    colors.iter().map(|c| c.answer()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A face series answering `sequence` (gain `gain`) from 150 ms on, with deterministic
    /// noise of amplitude `noise`, sampled every 66 ms for 5.3 s.
    fn answering(sequence: &Illumination, gain: f32, noise: f32) -> (Vec<u64>, Vec<[f32; 3]>) {
        let mut rng = StdRng::seed_from_u64(7);
        (0..80u64)
            .map(|i| {
                let t = i * 66;
                let e = sequence
                    .color_at(t as i64 - 150)
                    .map_or([0.0; 3], ScreenColor::answer);
                let x = [0, 1, 2].map(|c| gain * e[c] + noise * rng.random_range(-1.0f32..1.0));
                (t, x)
            })
            .unzip()
    }

    #[test]
    fn this_sessions_answer_beats_chance_and_another_sessions_does_not() {
        let mut rng = StdRng::seed_from_u64(39);
        let sequence = Illumination::draw(&mut rng);
        let steps = sequence.colors().len();
        let (times, face) = answering(&sequence, 0.1, 0.01);
        let found = starts(&times, &face, sequence.step_ms(), steps);
        let chance = null_correlation(&times, &face, steps);
        let (r, start) = best(&found, &shown_chroma(&sequence)).expect("starts");
        println!("this session's answer {r:.3}, chance {chance:.3}");
        assert!(r > chance, "{r} against {chance}");
        assert!((100..=200).contains(&found[start].offset_ms));
        // chance reaches well into what a weak answer correlates
        assert!(chance > 0.5 && chance < 0.95, "{chance}");
        // other sessions' sequences, answered as strongly: none beats chance on this
        // session's sequence in 200 draws (the rate is at most 1e-3)
        let mut matched = 0;
        for _ in 0..200 {
            let other = Illumination::draw(&mut rng);
            let (times, face) = answering(&other, 0.1, 0.01);
            let found = starts(&times, &face, sequence.step_ms(), steps);
            let chance = null_correlation(&times, &face, steps);
            let (r, _) = best(&found, &shown_chroma(&sequence)).expect("starts");
            matched += usize::from(r > chance && other.colors() != sequence.colors());
        }
        assert_eq!(matched, 0);
    }

    #[test]
    fn the_chance_bar_is_at_or_above_what_other_sessions_reach() {
        // the Gumbel bar against the empirical 1e-3 quantile of 5,000 other sessions'
        // sequences on the same face: the fit must not understate chance
        let mut rng = StdRng::seed_from_u64(3_939);
        let sequence = Illumination::draw(&mut rng);
        let steps = sequence.colors().len();
        let (times, face) = answering(&sequence, 0.1, 0.01);
        let bar = null_correlation(&times, &face, steps);
        let mut maxima: Vec<f32> = (0..5_000)
            .filter_map(|_| {
                let other = Illumination::draw(&mut rng);
                let found = starts(&times, &face, other.step_ms(), steps);
                best(&found, &shown_chroma(&other)).map(|(r, _)| r)
            })
            .collect();
        maxima.sort_by(f32::total_cmp);
        let empirical = maxima[maxima.len() * 999 / 1000];
        println!("chance bar {bar:.3}, empirical 1e-3 quantile {empirical:.3}");
        assert!(bar >= empirical, "{bar} below {empirical}");
        assert!(
            bar < 0.9,
            "{bar}: an {steps}-colour sequence should leave room below"
        );
    }
}
