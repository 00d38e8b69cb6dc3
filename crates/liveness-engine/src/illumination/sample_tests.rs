//! The regions' reading against the per-pixel form it replaced (every pixel's radius and
//! colour looked up on its own): the same sample, bit for bit, on seeded noise frames with
//! boxes inside, across and partly outside the frame.

use rand::{Rng, SeedableRng};

use super::*;

/// The reading as it was before the radius was split by column and row: the radius, the
/// bounds-checked pixel and its linear colour worked out at every pixel read.
fn read_per_pixel(rgb: &RgbImage, bbox: &BoundingBox) -> LightSample {
    let c = bbox.center();
    let (a, b) = (HALF_WIDTH * bbox.width, HALF_HEIGHT * bbox.height);
    let radius = |x: u32, y: u32| {
        let (u, v) = ((x as f32 - c.x) / a.max(1.0), (y as f32 - c.y) / b.max(1.0));
        (u * u + v * v).sqrt()
    };
    let table = linear_table();
    let linear_at = |x: u32, y: u32| rgb.get_pixel(x, y).0.map(|v| table[v as usize]);
    let each = |rect: Rect, read: &mut dyn FnMut(u32, u32)| {
        let (x0, x1, y0, y1) = rect.clipped(rgb);
        for y in (y0..y1).step_by(STRIDE) {
            for x in (x0..x1).step_by(STRIDE) {
                read(x, y);
            }
        }
    };
    let face = Rect {
        x0: c.x - a,
        y0: c.y - b,
        x1: c.x + a,
        y1: c.y + b,
    };
    let (mut centre, mut rim, mut body) = (Mean::default(), Mean::default(), Mean::default());
    let mut body_pixels = Vec::new();
    each(face, &mut |x, y| {
        let (r, linear) = (radius(x, y), linear_at(x, y));
        if r < CENTRE {
            centre.add(linear);
        }
        if (RIM.0..RIM.1).contains(&r) {
            rim.add(linear);
        }
        if r < BODY {
            body.add(linear);
            body_pixels.push((linear, luminance(linear)));
        }
    });
    let split = luminance(body.finish().0);
    let (mut darker, mut brighter) = (Mean::default(), Mean::default());
    for (linear, luma) in body_pixels {
        match luma < split {
            true => darker.add(linear),
            false => brighter.add(linear),
        }
    }
    let margin_rect = Rect {
        x0: c.x - MARGIN.1 * a,
        y0: c.y - MARGIN.1 * b,
        x1: c.x + MARGIN.1 * a,
        y1: c.y + MARGIN_BELOW * b,
    };
    let (mut margin, mut outline) = (Mean::default(), Mean::default());
    let outline_bottom = c.y - OUTLINE_ABOVE * b;
    each(margin_rect, &mut |x, y| {
        let r = radius(x, y);
        if (MARGIN.0..MARGIN.1).contains(&r) {
            margin.add(linear_at(x, y));
        } else if (OUTLINE.0..OUTLINE.1).contains(&r) && (y as f32) < outline_bottom {
            outline.add(linear_at(x, y));
        }
    });
    // the border, pixel by pixel
    let (w, h) = (rgb.width() as f32, rgb.height() as f32);
    let (half_w, half_h) = (
        FACE_CLEARANCE * bbox.width / 2.0,
        FACE_CLEARANCE * bbox.height / 2.0,
    );
    let grid_from =
        |bound: f32| (bound.max(0.0).ceil() as u32).div_ceil(STRIDE as u32) * STRIDE as u32;
    let width = rgb.width();
    let left_end = grid_from(BORDER * w).min(width);
    let right_start = grid_from((1.0 - BORDER) * w).clamp(left_end, width);
    let mut surround = Mean::default();
    for y in (0..(0.6 * h).clamp(0.0, h) as u32).step_by(STRIDE) {
        let middle_end = if (y as f32) < BORDER * h {
            right_start
        } else {
            left_end
        };
        let columns = (0..left_end)
            .step_by(STRIDE)
            .chain((left_end..middle_end).step_by(STRIDE))
            .chain((right_start..width).step_by(STRIDE));
        for x in columns {
            if !((x as f32 - c.x).abs() < half_w && (y as f32 - c.y).abs() < half_h) {
                surround.add(linear_at(x, y));
            }
        }
    }
    let ((margin, margin_pixels), (outline, outline_pixels)) = (margin.finish(), outline.finish());
    let (surround, surround_pixels) = surround.finish();
    LightSample {
        centre: centre.finish().0,
        rim: rim.finish().0,
        darker: darker.finish().0,
        brighter: brighter.finish().0,
        margin,
        margin_pixels,
        outline,
        outline_pixels,
        surround,
        surround_pixels,
        ..LightSample::default()
    }
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
                read_per_pixel(frame, &bbox),
            );
            assert_eq!(
                format!("{sample:?}"),
                format!("{reference:?}"),
                "frame {f}, box {bbox:?}"
            );
            if f == 0 && bbox.x == 220.0 {
                // every region of a face well inside the frame is read
                assert!(sample.margin_pixels > 0 && sample.outline_pixels > 0);
                assert!(sample.surround_pixels > 0);
            }
        }
    }
}
