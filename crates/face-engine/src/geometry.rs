//! Plain 2-D geometry: points, boxes, affine transforms, similarity fitting and image warping.

use image::{Rgb, RgbImage};
use serde::Serialize;

/// A point in image pixel coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

impl Point {
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    pub fn distance(self, other: Point) -> f32 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2)).sqrt()
    }

    pub fn midpoint(self, other: Point) -> Point {
        Point::new((self.x + other.x) / 2.0, (self.y + other.y) / 2.0)
    }
}

/// An axis-aligned box in image pixels: top-left corner plus size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct BoundingBox {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl BoundingBox {
    pub fn from_corners(x0: f32, y0: f32, x1: f32, y1: f32) -> Self {
        Self {
            x: x0,
            y: y0,
            width: (x1 - x0).max(0.0),
            height: (y1 - y0).max(0.0),
        }
    }

    pub fn center(&self) -> Point {
        Point::new(self.x + self.width / 2.0, self.y + self.height / 2.0)
    }

    pub fn area(&self) -> f32 {
        self.width * self.height
    }

    /// Intersection over union with another box.
    pub fn iou(&self, other: &BoundingBox) -> f32 {
        let x0 = self.x.max(other.x);
        let y0 = self.y.max(other.y);
        let x1 = (self.x + self.width).min(other.x + other.width);
        let y1 = (self.y + self.height).min(other.y + other.height);
        let inter = (x1 - x0).max(0.0) * (y1 - y0).max(0.0);
        let union = self.area() + other.area() - inter;
        if union <= 0.0 { 0.0 } else { inter / union }
    }

    /// The box clipped to an image of the given size.
    pub fn clamp_to(&self, width: u32, height: u32) -> BoundingBox {
        let (w, h) = (width as f32, height as f32);
        BoundingBox::from_corners(
            self.x.clamp(0.0, w),
            self.y.clamp(0.0, h),
            (self.x + self.width).clamp(0.0, w),
            (self.y + self.height).clamp(0.0, h),
        )
    }
}

/// A 2-D affine map `(x, y) -> (a x + b y + tx, c x + d y + ty)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine {
    pub a: f32,
    pub b: f32,
    pub tx: f32,
    pub c: f32,
    pub d: f32,
    pub ty: f32,
}

impl Affine {
    /// A rotation by `angle` (radians) and uniform `scale` that maps `from` onto `to`.
    pub fn rotate_scale_about(from: Point, to: Point, angle: f32, scale: f32) -> Affine {
        let (s, c) = angle.sin_cos();
        let (a, b, cc, d) = (scale * c, -scale * s, scale * s, scale * c);
        Affine {
            a,
            b,
            tx: to.x - (a * from.x + b * from.y),
            c: cc,
            d,
            ty: to.y - (cc * from.x + d * from.y),
        }
    }

    /// Maps a `size`×`size` crop onto the axis-aligned square of side `side` centred on
    /// `center` (crop pixel → image pixel).
    pub fn square_crop(center: Point, side: f32, size: u32) -> Affine {
        let scale = side / size as f32;
        Affine {
            a: scale,
            b: 0.0,
            tx: center.x - side / 2.0,
            c: 0.0,
            d: scale,
            ty: center.y - side / 2.0,
        }
    }

    pub fn apply(&self, p: Point) -> Point {
        Point::new(
            self.a * p.x + self.b * p.y + self.tx,
            self.c * p.x + self.d * p.y + self.ty,
        )
    }

    /// The inverse map, or `None` when the map is singular.
    pub fn inverse(&self) -> Option<Affine> {
        let det = self.a * self.d - self.b * self.c;
        if det.abs() < 1e-12 {
            return None;
        }
        let (a, b, c, d) = (self.d / det, -self.b / det, -self.c / det, self.a / det);
        Some(Affine {
            a,
            b,
            tx: -(a * self.tx + b * self.ty),
            c,
            d,
            ty: -(c * self.tx + d * self.ty),
        })
    }

    /// Least-squares similarity (rotation, uniform scale, translation) mapping `src` onto `dst`
    /// (Umeyama's method in 2-D). Returns `None` for fewer than two points or degenerate input.
    pub fn fit_similarity(src: &[Point], dst: &[Point]) -> Option<Affine> {
        let n = src.len().min(dst.len());
        if n < 2 {
            return None;
        }
        let mean = |pts: &[Point]| {
            let (sx, sy) = pts[..n]
                .iter()
                .fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
            Point::new(sx / n as f32, sy / n as f32)
        };
        let (ms, md) = (mean(src), mean(dst));
        let (mut sxx, mut sxy, mut var) = (0.0f32, 0.0f32, 0.0f32);
        for i in 0..n {
            let (sx, sy) = (src[i].x - ms.x, src[i].y - ms.y);
            let (dx, dy) = (dst[i].x - md.x, dst[i].y - md.y);
            sxx += sx * dx + sy * dy;
            sxy += sx * dy - sy * dx;
            var += sx * sx + sy * sy;
        }
        if var < 1e-9 {
            return None;
        }
        let (a, c) = (sxx / var, sxy / var);
        Some(Affine {
            a,
            b: -c,
            tx: md.x - (a * ms.x - c * ms.y),
            c,
            d: a,
            ty: md.y - (c * ms.x + a * ms.y),
        })
    }
}

/// Renders a `width`×`height` image whose pixel `p` samples `src` at `dst_to_src(p)` with
/// bilinear interpolation; samples outside `src` take `fill`.
pub fn warp(
    src: &RgbImage,
    dst_to_src: &Affine,
    width: u32,
    height: u32,
    fill: [u8; 3],
) -> RgbImage {
    let mut out = RgbImage::from_pixel(width, height, Rgb(fill));
    let (sw, sh) = (src.width() as i64, src.height() as i64);
    let raw = src.as_raw();
    let pixel_at = |sx: i64, sy: i64| -> [u8; 3] {
        if sx >= 0 && sy >= 0 && sx < sw && sy < sh {
            let i = ((sy * sw + sx) * 3) as usize;
            [raw[i], raw[i + 1], raw[i + 2]]
        } else {
            fill
        }
    };
    let row_bytes = width as usize * 3;
    for (y, row) in out.chunks_exact_mut(row_bytes).enumerate() {
        for (x, dst) in row.chunks_exact_mut(3).enumerate() {
            let p = dst_to_src.apply(Point::new(x as f32 + 0.5, y as f32 + 0.5));
            let (fx, fy) = (p.x - 0.5, p.y - 0.5);
            let (x0, y0) = (floor(fx), floor(fy));
            if x0 < -1 || y0 < -1 || x0 >= sw || y0 >= sh {
                continue;
            }
            let (wx, wy) = (fx - x0 as f32, fy - y0 as f32);
            // the four neighbours; inside the image (almost every pixel) without bounds tests
            let taps = if x0 >= 0 && y0 >= 0 && x0 + 1 < sw && y0 + 1 < sh {
                let top = ((y0 * sw + x0) * 3) as usize;
                let bottom = top + sw as usize * 3;
                let at = |i: usize| [raw[i], raw[i + 1], raw[i + 2]];
                [at(top), at(top + 3), at(bottom), at(bottom + 3)]
            } else {
                [
                    pixel_at(x0, y0),
                    pixel_at(x0 + 1, y0),
                    pixel_at(x0, y0 + 1),
                    pixel_at(x0 + 1, y0 + 1),
                ]
            };
            let weights = [
                (1.0 - wx) * (1.0 - wy),
                wx * (1.0 - wy),
                (1.0 - wx) * wy,
                wx * wy,
            ];
            let mut acc = [0.0f32; 3];
            for (tap, weight) in taps.iter().zip(weights) {
                for k in 0..3 {
                    acc[k] += weight * tap[k] as f32;
                }
            }
            // the weights are non-negative, so `+ 0.5` then truncation is `round` without the
            // libm call (not inlined without SSE4.1; this loop runs per output pixel)
            for k in 0..3 {
                dst[k] = (acc[k] + 0.5).min(255.0) as u8;
            }
        }
    }
    out
}

/// `v.floor() as i64` without the libm call (`floorf` is not inlined for the baseline
/// x86-64 target, and warping calls it twice per output pixel); NaN gives 0 like the cast.
fn floor(v: f32) -> i64 {
    let truncated = v as i64;
    if (truncated as f32) > v {
        truncated - 1
    } else {
        truncated
    }
}

/// Crops the axis-aligned square of side `side` centred on `center` and resizes it to
/// `size`×`size` (content outside the image is black).
pub fn square_crop(src: &RgbImage, center: Point, side: f32, size: u32) -> RgbImage {
    warp(
        src,
        &Affine::square_crop(center, side, size),
        size,
        size,
        [0, 0, 0],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similarity_fit_recovers_known_transform() {
        let t = Affine::rotate_scale_about(Point::new(10.0, 5.0), Point::new(50.0, 60.0), 0.3, 1.7);
        let src = [
            Point::new(0.0, 0.0),
            Point::new(30.0, 4.0),
            Point::new(12.0, 40.0),
        ];
        let dst: Vec<Point> = src.iter().map(|p| t.apply(*p)).collect();
        let fit = Affine::fit_similarity(&src, &dst).expect("fit");
        for p in src {
            let (a, b) = (t.apply(p), fit.apply(p));
            assert!(a.distance(b) < 1e-3, "{a:?} vs {b:?}");
        }
        let inv = fit.inverse().expect("invertible");
        assert!(
            inv.apply(fit.apply(Point::new(7.0, 9.0)))
                .distance(Point::new(7.0, 9.0))
                < 1e-3
        );
    }

    #[test]
    fn iou_of_identical_and_disjoint_boxes() {
        let a = BoundingBox::from_corners(0.0, 0.0, 10.0, 10.0);
        let b = BoundingBox::from_corners(20.0, 20.0, 30.0, 30.0);
        assert!((a.iou(&a) - 1.0).abs() < 1e-6);
        assert_eq!(a.iou(&b), 0.0);
    }
}
