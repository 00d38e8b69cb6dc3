//! Measures whether the anti-spoof model can judge the frames the screen's colours light once
//! each frame's colour is brought back to a reference of the same session (issue 67: the
//! model's faces gathered while the colours show instead of after them and the camera's
//! settling). For every session of one half of the camera-family evaluation (the first
//! argument, `calibration` or `held-back`; the tests' seed, trimmed sheets included) it writes
//! one CSV row: the model's median and 25th percentile
//! over the unlit frames after the colours and the settling (what the engine judges today),
//! and over the lit frames as captured and with per-channel gains that bring each frame's
//! face box (or the model's whole view) to the session's mean over its lit frames, or to the
//! mean of its unlit frames after the settling (an oracle: not known while the colours show).
//! Simulated light and cameras on real footage.
//! `cargo run -p facegate-liveness-engine --example lit_model_probe -- calibration > probe.csv`

use face_engine::Image;
use face_engine::geometry::BoundingBox;
use facegate_liveness_engine::layers::quantile;
use facegate_liveness_engine::{CAMERA_SETTLE_MS, MIN_MODEL_FACES};
use liveness_rig::camera_model::CameraFamily;
use liveness_rig::eval::camera_family::{Job, TESTS_SALT, drawn_session, jobs, trimmed_sheet_jobs};
use liveness_rig::eval::set::{Half, Truth};
use liveness_rig::eval::{engine, in_parallel};
use liveness_rig::replay::frame_capture_ms;

/// Lit frames start this long into the session (the sequence's delay).
const LIT_FROM_MS: u64 = 600;

/// One lit frame kept for the corrections made once the session's reference is known.
struct LitFrame {
    image: Image,
    bbox: BoundingBox,
    face_means: [f64; 3],
    view_means: [f64; 3],
    raw: f32,
}

fn main() {
    let half = match std::env::args().nth(1).as_deref() {
        Some("held-back") => Half::HeldBack,
        _ => Half::Calibration,
    };
    let mut all = jobs(half);
    all.extend(trimmed_sheet_jobs(half));
    println!(
        "class,clip,truth,family,ratio,unlit_median,unlit_p25,lit_median,lit_p25,face_mean_median,face_mean_p25,view_mean_median,view_mean_p25,face_oracle_median,face_oracle_p25,lit_frames"
    );
    let rows = in_parallel(&all, probe);
    for row in rows.into_iter().flatten() {
        println!("{row}");
    }
}

fn probe(job: &Job) -> Option<String> {
    let (session, mut camera, ratio) = drawn_session(job, &CameraFamily::ALL, TESTS_SALT, None);
    let window_end = session.illumination()?.window_end_ms();
    let engine = engine();
    let (mut lit_frames, mut unlit, mut unlit_face_means) = (Vec::new(), Vec::new(), Vec::new());
    for (i, frame) in job.case.frames().into_iter().enumerate() {
        let t = frame_capture_ms(i, job.case.fps);
        if !camera.due(t) || t < LIT_FROM_MS {
            continue;
        }
        let Ok(image) = Image::decode(&camera.capture_stamped(&frame, t)) else {
            continue;
        };
        let Ok(face) = engine.primary_face(&image) else {
            continue;
        };
        let Ok(raw) = engine.anti_spoof_in_box(&image, &face.bbox) else {
            continue;
        };
        if t <= window_end {
            lit_frames.push(LitFrame {
                face_means: means(&image, &scaled_box(&face.bbox, 0.6)),
                view_means: means(&image, &scaled_box(&face.bbox, 2.7)),
                bbox: face.bbox,
                image,
                raw,
            });
        } else if t >= window_end + CAMERA_SETTLE_MS {
            unlit.push(raw);
            unlit_face_means.push(means(&image, &scaled_box(&face.bbox, 0.6)));
            if unlit.len() >= MIN_MODEL_FACES {
                break;
            }
        }
    }
    if lit_frames.is_empty() {
        return None;
    }
    let face_mean = average(lit_frames.iter().map(|f| f.face_means));
    let view_mean = average(lit_frames.iter().map(|f| f.view_means));
    let oracle = average(unlit_face_means.iter().copied());
    let corrected = |reference: [f64; 3], own: fn(&LitFrame) -> [f64; 3]| -> Vec<f32> {
        lit_frames
            .iter()
            .filter_map(|f| {
                let gains = gains(reference, own(f));
                let image = Image::from_rgb(with_gains(&f.image, gains));
                engine.anti_spoof_in_box(&image, &f.bbox).ok()
            })
            .collect()
    };
    let raw: Vec<f32> = lit_frames.iter().map(|f| f.raw).collect();
    let columns = [
        unlit,
        raw,
        corrected(face_mean, |f| f.face_means),
        corrected(view_mean, |f| f.view_means),
        match unlit_face_means.is_empty() {
            true => Vec::new(),
            false => corrected(oracle, |f| f.face_means),
        },
    ];
    let truth = match job.case.truth {
        Truth::Live => "live",
        Truth::Attack => "attack",
    };
    let mut row = vec![
        job.label.replace(',', ";"),
        job.case.name.replace(',', ";"),
        truth.to_string(),
        camera.model().family.name().replace(',', ";"),
        ratio.to_string(),
    ];
    for mut scores in columns {
        row.push(format!("{:.4}", quantile(&mut scores, 0.5)));
        row.push(format!("{:.4}", quantile(&mut scores, 0.25)));
    }
    row.push(lit_frames.len().to_string());
    Some(row.join(","))
}

/// `bbox` scaled by `factor` about its centre.
fn scaled_box(bbox: &BoundingBox, factor: f32) -> BoundingBox {
    let c = bbox.center();
    let (w, h) = (bbox.width * factor / 2.0, bbox.height * factor / 2.0);
    BoundingBox::from_corners(c.x - w, c.y - h, c.x + w, c.y + h)
}

/// Mean red, green and blue of `image` inside `region` (clamped to the image).
fn means(image: &Image, region: &BoundingBox) -> [f64; 3] {
    let rgb = image.rgb();
    let r = region.clamp_to(rgb.width(), rgb.height());
    let (x0, y0) = (r.x.max(0.0) as u32, r.y.max(0.0) as u32);
    let (x1, y1) = (
        ((r.x + r.width) as u32).min(rgb.width()),
        ((r.y + r.height) as u32).min(rgb.height()),
    );
    let (mut sums, mut n) = ([0.0f64; 3], 0.0f64);
    for y in y0..y1 {
        for x in x0..x1 {
            for (s, v) in sums.iter_mut().zip(rgb.get_pixel(x, y).0) {
                *s += f64::from(v);
            }
            n += 1.0;
        }
    }
    sums.map(|s| s / n.max(1.0))
}

/// The mean of `values`, channel by channel.
fn average(values: impl Iterator<Item = [f64; 3]>) -> [f64; 3] {
    let (mut sums, mut n) = ([0.0f64; 3], 0.0f64);
    for v in values {
        for (s, x) in sums.iter_mut().zip(v) {
            *s += x;
        }
        n += 1.0;
    }
    sums.map(|s| s / n.max(1.0))
}

/// Per-channel gains that bring `own` to `reference`, held to 0.5–2.
fn gains(reference: [f64; 3], own: [f64; 3]) -> [f32; 3] {
    std::array::from_fn(|c| match own[c] > 1.0 {
        true => (reference[c] / own[c]).clamp(0.5, 2.0) as f32,
        false => 1.0,
    })
}

/// `image` with each channel multiplied by its gain.
fn with_gains(image: &Image, gains: [f32; 3]) -> image::RgbImage {
    let mut rgb = image.rgb().clone();
    for pixel in rgb.pixels_mut() {
        for (value, gain) in pixel.0.iter_mut().zip(gains) {
            *value = (f32::from(*value) * gain).round().clamp(0.0, 255.0) as u8;
        }
    }
    rgb
}
