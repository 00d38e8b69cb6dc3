//! The regions' reading against the per-pixel forms it replaced: the ellipse's regions with
//! every pixel's radius and colour looked up on its own, the border as a predicate on every
//! grid pixel. The same sample, bit for bit, on seeded noise frames with boxes inside, across
//! and partly outside the frame.

use rand::{Rng, SeedableRng};

use super::*;

/// The visit before the radius was split by column and row: the radius and the bounds-checked
/// pixel worked out at every pixel read.
struct PerPixel;

impl VisitRect for PerPixel {
    fn visit(
        rect: Rect,
        rgb: &RgbImage,
        ellipse: &Ellipse,
        mut read: impl FnMut(u32, f32, [u8; 3]),
    ) {
        let ((cx, cy), (a, b)) = (ellipse.centre, ellipse.half_axes);
        let (x0, x1, y0, y1) = rect.clipped(rgb);
        for y in (y0..y1).step_by(STRIDE) {
            for x in (x0..x1).step_by(STRIDE) {
                let (u, v) = ((x as f32 - cx) / a, (y as f32 - cy) / b);
                read(y, (u * u + v * v).sqrt(), rgb.get_pixel(x, y).0);
            }
        }
    }
}

/// The border as its definition reads: of the [`STRIDE`] grid's pixels in the upper 60% of the
/// frame, those in the top border or a side border, away from the face's neighbourhood, each
/// through the bounds-checked pixel.
fn surround_per_pixel(rgb: &RgbImage, bbox: &BoundingBox) -> ([f32; 3], u32) {
    let (w, h) = (rgb.width() as f32, rgb.height() as f32);
    let c = bbox.center();
    let (half_w, half_h) = (
        FACE_CLEARANCE * bbox.width / 2.0,
        FACE_CLEARANCE * bbox.height / 2.0,
    );
    let mut mean = Mean::default();
    // the upper 60%, in whole rows
    let upper_rows = (0.6 * h) as u32;
    for y in (0..rgb.height()).step_by(STRIDE) {
        for x in (0..rgb.width()).step_by(STRIDE) {
            let (fx, fy) = (x as f32, y as f32);
            let in_border =
                y < upper_rows && (fy < BORDER * h || fx < BORDER * w || fx >= (1.0 - BORDER) * w);
            let near_face = (fx - c.x).abs() < half_w && (fy - c.y).abs() < half_h;
            if in_border && !near_face {
                mean.add(linear(linear_table(), rgb.get_pixel(x, y).0));
            }
        }
    }
    mean.finish()
}

/// A frame of seeded noise, so every pixel's place in the regions shows in the means.
fn noise_frame(width: u32, height: u32, seed: u64) -> RgbImage {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    RgbImage::from_fn(width, height, |_, _| image::Rgb(rng.random::<[u8; 3]>()))
}

#[test]
fn the_sample_is_the_per_pixel_readings_bit_for_bit() {
    let frames = [
        noise_frame(640, 480, 1),
        noise_frame(480, 640, 2),
        noise_frame(97, 61, 3),
    ];
    // inside, across the top-left corner, across the bottom-right corner, larger than the
    // frame, a sub-pixel box, and at fractional places
    let boxes = [
        (220.0, 140.0, 200.0, 240.0),
        (-60.0, -80.0, 180.0, 220.0),
        (500.0, 380.0, 260.0, 300.0),
        (-100.0, -100.0, 900.0, 900.0),
        (30.2, 20.7, 0.6, 0.9),
        (101.37, 77.91, 151.3, 187.55),
    ];
    for (f, frame) in frames.iter().enumerate() {
        for &(x, y, width, height) in &boxes {
            let bbox = BoundingBox {
                x,
                y,
                width,
                height,
            };
            let (sample, reference) = (
                LightSample::read(frame, &bbox),
                LightSample::read_visiting::<PerPixel>(frame, &bbox),
            );
            assert_eq!(
                format!("{sample:?}"),
                format!("{reference:?}"),
                "frame {f}, box {bbox:?}"
            );
            let (surround, reference) = (
                surround_mean(frame, &bbox),
                surround_per_pixel(frame, &bbox),
            );
            assert_eq!(
                format!("{surround:?}"),
                format!("{reference:?}"),
                "border, frame {f}, box {bbox:?}"
            );
            if f == 0 && bbox.x == 220.0 {
                // every region of a face well inside the frame is read
                assert!(sample.margin_pixels > 0 && sample.outline_pixels > 0);
                assert!(sample.surround_pixels > 0);
            }
        }
    }
}
