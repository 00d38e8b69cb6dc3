//! Plane-to-plane fits for the motion layer: the least-squares homography between two point
//! sets (normalised DLT with h33 = 1) and the residuals left after it and after a similarity.

use face_engine::geometry::{Affine, Point};

/// A 3×3 projective transform, row-major.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Homography(pub [f64; 9]);

impl Homography {
    pub fn apply(&self, p: Point) -> Point {
        let h = &self.0;
        let (x, y) = (f64::from(p.x), f64::from(p.y));
        let w = h[6] * x + h[7] * y + h[8];
        let w = if w.abs() < 1e-12 { 1e-12 } else { w };
        Point::new(
            ((h[0] * x + h[1] * y + h[2]) / w) as f32,
            ((h[3] * x + h[4] * y + h[5]) / w) as f32,
        )
    }

    /// The inverse transform; `None` when singular.
    pub fn inverse(&self) -> Option<Self> {
        let m = &self.0;
        let cof = [
            m[4] * m[8] - m[5] * m[7],
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8],
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6],
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        let det = m[0] * cof[0] + m[1] * cof[3] + m[2] * cof[6];
        (det.abs() > 1e-12).then(|| Self(cof.map(|c| c / det)))
    }

    /// Least-squares fit mapping `src` onto `dst` (at least 4 points); `None` when degenerate.
    pub fn fit(src: &[Point], dst: &[Point]) -> Option<Self> {
        if src.len() != dst.len() || src.len() < 4 {
            return None;
        }
        let (ns, ts) = normaliser(src)?;
        let (nd, td) = normaliser(dst)?;
        let s: Vec<(f64, f64)> = src.iter().map(|p| ts(*p)).collect();
        let d: Vec<(f64, f64)> = dst.iter().map(|p| td(*p)).collect();
        // normal equations of the 2n × 8 system
        let mut ata = [[0.0f64; 8]; 8];
        let mut atb = [0.0f64; 8];
        for (&(x, y), &(u, v)) in s.iter().zip(&d) {
            let rows = [
                ([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y], u),
                ([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y], v),
            ];
            for (row, rhs) in rows {
                for i in 0..8 {
                    atb[i] += row[i] * rhs;
                    for j in 0..8 {
                        ata[i][j] += row[i] * row[j];
                    }
                }
            }
        }
        let h = solve8(ata, atb)?;
        let hn = [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0];
        // undo the normalisations: H = Nd⁻¹ · Hn · Ns
        let composed = mul(&inverse_normaliser(&nd), &mul(&hn, &ns));
        composed
            .iter()
            .all(|v| v.is_finite())
            .then_some(Self(composed))
    }
}

/// RMS distance between `a` and `b` point by point.
pub fn rms_distance(a: &[Point], b: &[Point]) -> f32 {
    if a.is_empty() || a.len() != b.len() {
        return f32::NAN;
    }
    let sum: f32 = a.iter().zip(b).map(|(p, q)| p.distance(*q).powi(2)).sum();
    (sum / a.len() as f32).sqrt()
}

/// RMS residual after the best similarity (shift, rotation, uniform scale) and after the best
/// homography, both in pixels, and that homography.
pub fn residuals(src: &[Point], dst: &[Point]) -> Option<(f32, f32, Homography)> {
    let similarity = Affine::fit_similarity(src, dst)?;
    let moved: Vec<Point> = src.iter().map(|p| similarity.apply(*p)).collect();
    let homography = Homography::fit(src, dst)?;
    let warped: Vec<Point> = src.iter().map(|p| homography.apply(*p)).collect();
    Some((
        rms_distance(&moved, dst),
        rms_distance(&warped, dst),
        homography,
    ))
}

type Normalise = Box<dyn Fn(Point) -> (f64, f64)>;

/// Hartley normalisation: centroid to the origin, mean distance √2.
fn normaliser(points: &[Point]) -> Option<([f64; 9], Normalise)> {
    let n = points.len() as f64;
    let cx = points.iter().map(|p| f64::from(p.x)).sum::<f64>() / n;
    let cy = points.iter().map(|p| f64::from(p.y)).sum::<f64>() / n;
    let mean_dist = points
        .iter()
        .map(|p| ((f64::from(p.x) - cx).powi(2) + (f64::from(p.y) - cy).powi(2)).sqrt())
        .sum::<f64>()
        / n;
    if mean_dist.is_nan() || mean_dist <= 1e-9 {
        return None;
    }
    let s = std::f64::consts::SQRT_2 / mean_dist;
    let matrix = [s, 0.0, -s * cx, 0.0, s, -s * cy, 0.0, 0.0, 1.0];
    Some((
        matrix,
        Box::new(move |p| ((f64::from(p.x) - cx) * s, (f64::from(p.y) - cy) * s)),
    ))
}

fn inverse_normaliser(m: &[f64; 9]) -> [f64; 9] {
    let s = m[0];
    [
        1.0 / s,
        0.0,
        -m[2] / s,
        0.0,
        1.0 / s,
        -m[5] / s,
        0.0,
        0.0,
        1.0,
    ]
}

fn mul(a: &[f64; 9], b: &[f64; 9]) -> [f64; 9] {
    let mut out = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            out[r * 3 + c] = (0..3).map(|k| a[r * 3 + k] * b[k * 3 + c]).sum();
        }
    }
    out
}

/// Gaussian elimination with partial pivoting.
fn solve8(mut a: [[f64; 8]; 8], mut b: [f64; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let pivot = (col..8).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..8 {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (value, pivot) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *value -= f * pivot;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; 8];
    for row in (0..8).rev() {
        let s: f64 = (row + 1..8).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Vec<Point> {
        (0..25)
            .map(|i| Point::new(100.0 + (i % 5) as f32 * 20.0, 80.0 + (i / 5) as f32 * 25.0))
            .collect()
    }

    #[test]
    fn a_perspective_warp_is_recovered_exactly() {
        let truth = Homography([1.1, 0.08, 12.0, -0.05, 0.95, -7.0, 0.0004, -0.0003, 1.0]);
        let src = grid();
        let dst: Vec<Point> = src.iter().map(|p| truth.apply(*p)).collect();
        let (similarity, homography, _) = residuals(&src, &dst).expect("fit");
        assert!(homography < 0.01, "homography residual {homography}");
        assert!(
            similarity > 1.0,
            "a perspective warp is not a similarity: {similarity}"
        );
    }

    #[test]
    fn depth_parallax_is_not_a_homography() {
        // points at two depths, rotated about the vertical axis and projected
        let project = |x: f32, y: f32, z: f32, angle: f32| {
            let (s, c) = angle.sin_cos();
            let (xr, zr) = (c * x + s * z, -s * x + c * z);
            let f = 500.0 / (500.0 + zr);
            Point::new(200.0 + xr * f, 200.0 + y * f)
        };
        let points: Vec<(f32, f32, f32)> = (0..25)
            .map(|i| {
                let (x, y) = ((i % 5) as f32 * 20.0 - 40.0, (i / 5) as f32 * 20.0 - 40.0);
                (x, y, if i % 3 == 0 { -30.0 } else { 0.0 })
            })
            .collect();
        let src: Vec<Point> = points
            .iter()
            .map(|&(x, y, z)| project(x, y, z, 0.0))
            .collect();
        let dst: Vec<Point> = points
            .iter()
            .map(|&(x, y, z)| project(x, y, z, 0.3))
            .collect();
        let (_, homography, _) = residuals(&src, &dst).expect("fit");
        assert!(homography > 1.0, "parallax left {homography} px");
    }

    #[test]
    fn inverse_undoes_the_transform() {
        let h = Homography([1.1, 0.08, 12.0, -0.05, 0.95, -7.0, 0.0004, -0.0003, 1.0]);
        let inv = h.inverse().expect("invertible");
        let p = Point::new(123.0, 45.0);
        assert!(inv.apply(h.apply(p)).distance(p) < 1e-3);
    }

    #[test]
    fn degenerate_input_gives_none() {
        let same = vec![Point::new(1.0, 1.0); 6];
        assert!(Homography::fit(&same, &same).is_none());
        assert!(Homography::fit(&grid()[..3], &grid()[..3]).is_none());
    }
}
