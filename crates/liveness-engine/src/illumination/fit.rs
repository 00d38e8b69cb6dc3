//! The light check's arithmetic: log-chroma of a region's colour, and least-squares fits of a
//! region's chroma on the shown colours' after the slow drift of both is taken out.

/// ln R − ln G, ln B − ln G of a mean linear colour.
pub(super) fn chroma(rgb: [f32; 3]) -> [f32; 2] {
    let [r, g, b] = rgb.map(|v| v.max(1e-4).ln());
    [r - g, b - g]
}

/// Least-squares gain of `x` on `e` and their correlation, after the slow drift of each
/// (a quadratic in the capture times `t`: a head turning, a cloud passing) is taken out: the
/// screen's light changes every step, the drift over seconds.
pub(super) fn fit(x: &[[f32; 2]], e: &[[f32; 2]], t: &[f32]) -> (f32, f32) {
    let basis = drift_basis(t);
    let (mut xe, mut xx, mut ee) = (0.0f32, 0.0f32, 0.0f32);
    for c in 0..2 {
        let dx = without_drift(&x.iter().map(|v| v[c]).collect::<Vec<_>>(), &basis);
        let de = without_drift(&e.iter().map(|v| v[c]).collect::<Vec<_>>(), &basis);
        for (a, b) in dx.iter().zip(&de) {
            xe += a * b;
            xx += a * a;
            ee += b * b;
        }
    }
    if ee <= f32::EPSILON || xx <= f32::EPSILON {
        return (0.0, 0.0);
    }
    (xe / ee, xe / (xx * ee).sqrt())
}

/// An orthonormal basis of constant, linear and quadratic functions of `t` over its samples
/// (Gram-Schmidt); fewer vectors when the samples cannot hold three.
pub(super) fn drift_basis(t: &[f32]) -> Vec<Vec<f32>> {
    let (lo, hi) = t
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let span = (hi - lo).max(1.0);
    let tau: Vec<f32> = t.iter().map(|&v| 2.0 * (v - lo) / span - 1.0).collect();
    let mut basis: Vec<Vec<f32>> = Vec::new();
    for power in 0..3 {
        let mut v: Vec<f32> = tau.iter().map(|x| x.powi(power)).collect();
        for q in &basis {
            let dot: f32 = v.iter().zip(q).map(|(a, b)| a * b).sum();
            v.iter_mut().zip(q).for_each(|(a, b)| *a -= dot * b);
        }
        let norm = v.iter().map(|a| a * a).sum::<f32>().sqrt();
        if norm > 1e-3 {
            basis.push(v.into_iter().map(|a| a / norm).collect());
        }
    }
    basis
}

/// `values` with their projection on `basis` removed.
pub(super) fn without_drift(values: &[f32], basis: &[Vec<f32>]) -> Vec<f32> {
    let mut out = values.to_vec();
    for q in basis {
        let dot: f32 = out.iter().zip(q).map(|(a, b)| a * b).sum();
        out.iter_mut().zip(q).for_each(|(a, b)| *a -= dot * b);
    }
    out
}

/// RMS of the series after its slow drift is taken out: how much the face's colour changes
/// from step to step.
pub(super) fn swing_of(x: &[[f32; 2]], t: &[f32]) -> f32 {
    let basis = drift_basis(t);
    let n = x.len().max(1) as f32;
    let power: f32 = (0..2)
        .map(|c| {
            without_drift(&x.iter().map(|v| v[c]).collect::<Vec<_>>(), &basis)
                .iter()
                .map(|v| v * v)
                .sum::<f32>()
        })
        .sum();
    (power / n).sqrt()
}
