//! The frames the sequence lit, and what the light check measures on their regions: each
//! region's gain (against the frame's reference, the room, where there is one), the room's
//! own answer against the face's, and the contrast of two regions' answers (relief, added
//! light, the margin) with its standard error.

use super::fit::{chroma, drift_basis, fit, without_drift};
use super::sample::{LightSample, luminance};

/// A frame lit by the sequence at the best start.
pub(super) struct Lit<'a> {
    pub(super) sample: &'a LightSample,
    /// The shown colour's chroma.
    pub(super) shown: [f32; 2],
    /// Which colour of the sequence.
    pub(super) step: usize,
    /// Capture time.
    pub(super) t: f32,
    /// The chroma each region's is measured against in this frame (the room's, or zero).
    pub(super) reference: [f32; 2],
}

impl Lit<'_> {
    /// The chroma of `region` against the frame's reference.
    pub(super) fn chroma(&self, region: Region) -> [f32; 2] {
        let x = chroma(region(self.sample));
        [x[0] - self.reference[0], x[1] - self.reference[1]]
    }
}

/// The face's gain against the frame's reference, each region's own gain (camera-dependent:
/// for the room's answer against the face's), and the regions' mean brightness.
pub(super) struct Gains {
    pub(super) centre: f32,
    absolute_centre: f32,
    surround: f32,
    centre_brightness: f32,
    surround_brightness: f32,
}

impl Gains {
    pub(super) fn of(lit: &[Lit]) -> Self {
        let e: Vec<[f32; 2]> = lit.iter().map(|l| l.shown).collect();
        let t: Vec<f32> = lit.iter().map(|l| l.t).collect();
        let gain = |x: Vec<[f32; 2]>| fit(&x, &e, &t).0;
        let absolute =
            |region: Region| gain(lit.iter().map(|l| chroma(region(l.sample))).collect());
        let brightness = |region: Region| {
            lit.iter().map(|l| luminance(region(l.sample))).sum::<f32>() / lit.len().max(1) as f32
        };
        Self {
            centre: gain(lit.iter().map(|l| l.chroma(|s| s.centre)).collect()),
            absolute_centre: absolute(|s| s.centre),
            surround: absolute(|s| s.surround),
            centre_brightness: brightness(|s| s.centre),
            surround_brightness: brightness(|s| s.surround),
        }
    }

    /// The face's own gain, not against the room.
    pub(super) fn absolute_centre(&self) -> f32 {
        self.absolute_centre
    }

    /// The room's own gain over the face's own gain.
    pub(super) fn surround_ratio(&self) -> f32 {
        self.surround / self.absolute_centre
    }

    /// Light added on the surround over light added on the face (gain × brightness).
    pub(super) fn glare_ratio(&self) -> f32 {
        self.surround_ratio() * self.surround_brightness / self.centre_brightness.max(1e-4)
    }
}

/// The contrast of two regions' answers, (gain of `a` − gain of `b`) ÷ gain of `base`, and
/// its standard error. The difference of the two regions' chroma (which cancels what changes
/// both alike) is fitted on the shown colours; its residual gives the error, inflated by the
/// frames per colour step (frames of one step share their light and much of their noise, so
/// they count as one).
pub(super) fn contrast_with_error(lit: &[Lit], a: Region, b: Region, base: Region) -> (f32, f32) {
    let e: Vec<[f32; 2]> = lit.iter().map(|l| l.shown).collect();
    let t: Vec<f32> = lit.iter().map(|l| l.t).collect();
    let base_series: Vec<[f32; 2]> = lit.iter().map(|l| l.chroma(base)).collect();
    let difference: Vec<[f32; 2]> = lit
        .iter()
        .map(|l| {
            let (x, y) = (chroma(a(l.sample)), chroma(b(l.sample)));
            [x[0] - y[0], x[1] - y[1]]
        })
        .collect();
    let (base_gain, _) = fit(&base_series, &e, &t);
    let (difference_gain, _) = fit(&difference, &e, &t);
    let contrast = difference_gain / base_gain;
    let basis = drift_basis(&t);
    let (mut residual, mut shown_power) = (0.0f32, 0.0f32);
    for c in 0..2 {
        let x = without_drift(&difference.iter().map(|v| v[c]).collect::<Vec<_>>(), &basis);
        let s = without_drift(&e.iter().map(|v| v[c]).collect::<Vec<_>>(), &basis);
        for (x, s) in x.iter().zip(&s) {
            residual += (x - difference_gain * s).powi(2);
            shown_power += s * s;
        }
    }
    let mut steps: Vec<usize> = lit.iter().map(|l| l.step).collect();
    steps.dedup();
    let frames_per_step = lit.len() as f32 / steps.len().max(1) as f32;
    let dof = (2 * lit.len()).saturating_sub(2 * basis.len() + 1).max(1) as f32;
    let error = (residual / dof / shown_power.max(f32::EPSILON) * frames_per_step).sqrt()
        / base_gain.abs().max(f32::EPSILON);
    (
        contrast,
        if error.is_finite() {
            error
        } else {
            f32::INFINITY
        },
    )
}

/// One region of a light sample.
pub(super) type Region = fn(&LightSample) -> [f32; 3];

/// The median of pixel counts; 0 for none.
pub(super) fn median_pixels(mut pixels: Vec<u32>) -> u32 {
    pixels.sort_unstable();
    pixels.get(pixels.len() / 2).copied().unwrap_or(0)
}
