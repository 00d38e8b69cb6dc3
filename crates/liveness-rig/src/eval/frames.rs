//! Frame generators of the evaluation set (issue 15): live footage degraded the way cheap
//! cameras and bad rooms degrade it, and presentation attacks simulated from the shared photos
//! and videos. Every attack is drawn from its own seed and moves in front of a real,
//! textured backdrop (a photo of a room or of objects from `nonfaces/`, or a live room video),
//! never a flat colour. Frames are JPEGs at [`super::FPS`] unless a case says otherwise.

use face_engine::geometry::{BoundingBox, Point};
use image::imageops::{self, FilterType};
use image::{Rgb, RgbImage};
use liveness_engine::motion::homography::Homography;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{FPS, camera_sized, engine, jpeg, load_rgb, perspective, testdata};

pub const WIDTH: u32 = 640;
pub const HEIGHT: u32 = 480;

/// A textured backdrop of 640×480: a random part of a real room photo or an objects photo.
pub fn backdrop(rng: &mut StdRng) -> RgbImage {
    let dir = testdata().join("nonfaces");
    let mut sources = vec![dir.join("background.jpg"), dir.join("dogs.jpg")];
    let mut caltech: Vec<_> = std::fs::read_dir(dir.join("caltech"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    caltech.sort();
    sources.extend(caltech);
    let source = load_rgb(&sources[rng.random_range(0..sources.len())]);
    // a random window of three quarters of the photo, scaled to the camera size
    let (w, h) = (source.width(), source.height());
    let (cw, ch) = ((w * 3 / 4).max(1), (h * 3 / 4).max(1));
    let x = rng.random_range(0..=w - cw);
    let y = rng.random_range(0..=h - ch);
    let window = imageops::crop_imm(&source, x, y, cw, ch).to_image();
    imageops::resize(&window, WIDTH, HEIGHT, FilterType::Triangle)
}

/// The face box of a photo, found by the detector (only to know where to crop).
pub fn face_box(photo: &RgbImage) -> Option<BoundingBox> {
    engine()
        .primary_face(&face_engine::Image::from_rgb(photo.clone()))
        .ok()
        .map(|f| f.bbox)
}

/// The photo cropped to `factor` times its face box (square, clamped to the photo).
pub fn crop_around_face(photo: &RgbImage, factor: f32) -> Option<RgbImage> {
    let bbox = face_box(photo)?;
    let c = bbox.center();
    let side = bbox.width.max(bbox.height) * factor;
    let x0 = (c.x - side / 2.0).max(0.0) as u32;
    let y0 = (c.y - side / 2.0 * 0.9).max(0.0) as u32;
    let w = (side as u32).min(photo.width() - x0);
    let h = ((side * 1.15) as u32).min(photo.height() - y0);
    Some(imageops::crop_imm(photo, x0, y0, w.max(8), h.max(8)).to_image())
}

/// A smooth random path of a hand-held card: tilts about both axes, shifts and zoom.
#[derive(Debug, Clone, Copy)]
pub struct CardPath {
    phase: [f64; 5],
    tilt: f64,
    shift: f64,
    centre: (f64, f64),
    /// Card pixels → frame pixels at rest.
    scale: f64,
}

impl CardPath {
    /// A path for a card of `card` size shown `height_share` of the frame's height,
    /// tilting up to `tilt` radians.
    pub fn new(rng: &mut StdRng, card: &RgbImage, height_share: f64, tilt: f64) -> Self {
        Self {
            phase: std::array::from_fn(|_| rng.random_range(0.0..std::f64::consts::TAU)),
            tilt: tilt * rng.random_range(0.6..1.0),
            shift: rng.random_range(15.0..40.0),
            centre: (
                f64::from(WIDTH) / 2.0 + rng.random_range(-40.0..40.0),
                f64::from(HEIGHT) / 2.0 + rng.random_range(-20.0..20.0),
            ),
            scale: height_share * f64::from(HEIGHT) / f64::from(card.height()),
        }
    }

    /// The same path held over `point` of a frame of `original`'s size (scaled to the camera
    /// size), with the small drift of a hand holding a card still against a face.
    pub fn centred_at(mut self, point: Point, original: &RgbImage) -> Self {
        self.centre = (
            f64::from(point.x) * f64::from(WIDTH) / f64::from(original.width()),
            f64::from(point.y) * f64::from(HEIGHT) / f64::from(original.height()),
        );
        self.shift = 8.0;
        self
    }

    /// Card → frame homography at frame `i`.
    pub fn at(&self, card: &RgbImage, i: usize) -> Homography {
        let t = i as f64 / f64::from(FPS);
        let p = self.phase;
        let shift = (
            self.centre.0 - f64::from(WIDTH) / 2.0 + self.shift * (0.7 * t + p[2]).sin(),
            self.centre.1 - f64::from(HEIGHT) / 2.0 + 0.6 * self.shift * (1.1 * t + p[3]).sin(),
        );
        perspective(
            card,
            self.scale * (1.0 + 0.08 * (0.5 * t + p[4]).sin()),
            self.tilt * (1.3 * t + p[0]).sin(),
            0.7 * self.tilt * (0.9 * t + p[1]).sin(),
            shift,
            (f64::from(WIDTH), f64::from(HEIGHT)),
        )
    }
}

/// Draws `card` onto `frame` through `card_to_frame`; with `oval`, only the ellipse inscribed
/// in the card (a face cut out along its outline).
pub fn draw_card(card: &RgbImage, card_to_frame: &Homography, frame: &mut RgbImage, oval: bool) {
    let Some(inverse) = card_to_frame.inverse() else {
        return;
    };
    let (cw, ch) = (card.width() as f32, card.height() as f32);
    for (x, y, pixel) in frame.enumerate_pixels_mut() {
        let p = inverse.apply(Point::new(x as f32 + 0.5, y as f32 + 0.5));
        let (u, v) = (p.x - 0.5, p.y - 0.5);
        if u < 0.0 || v < 0.0 || u >= cw - 1.0 || v >= ch - 1.0 {
            continue;
        }
        if oval {
            let (du, dv) = ((u / cw - 0.5) * 2.0, (v / ch - 0.5) * 2.0);
            if du * du + dv * dv > 1.0 {
                continue;
            }
        }
        let (u0, v0) = (u.floor() as u32, v.floor() as u32);
        let (fu, fv) = (u - u0 as f32, v - v0 as f32);
        let at = |x: u32, y: u32, c: usize| f32::from(card.get_pixel(x, y).0[c]);
        for c in 0..3 {
            let top = at(u0, v0, c) * (1.0 - fu) + at(u0 + 1, v0, c) * fu;
            let bottom = at(u0, v0 + 1, c) * (1.0 - fu) + at(u0 + 1, v0 + 1, c) * fu;
            pixel.0[c] = (top * (1.0 - fv) + bottom * fv).round() as u8;
        }
    }
}

/// Fresh sensor noise of ±`amplitude` grey levels on every pixel.
pub fn add_noise(frame: &mut RgbImage, rng: &mut StdRng, amplitude: i16) {
    for p in frame.pixels_mut() {
        let n: i16 = rng.random_range(-amplitude..=amplitude);
        for c in &mut p.0 {
            *c = (i16::from(*c) + n).clamp(0, 255) as u8;
        }
    }
}

/// A printed photo: washed-out gamma and colours, paper grain and fibres, a white border, and
/// two fingers holding its lower corners.
pub fn printed(photo: &RgbImage, rng: &mut StdRng) -> RgbImage {
    let gamma = rng.random_range(1.15..1.5f32);
    let fade = rng.random_range(0.8..0.92f32);
    let border = (photo.width().min(photo.height()) / 14).max(4);
    let (w, h) = (photo.width() + 2 * border, photo.height() + 2 * border);
    let fibre_phase: f32 = rng.random_range(0.0..100.0);
    let mut card = RgbImage::from_pixel(w, h, Rgb([238, 236, 228]));
    for (x, y, p) in photo.enumerate_pixels() {
        let grain = rng.random_range(-7.0..7.0f32)
            + 5.0 * ((x as f32 * 0.31 + fibre_phase).sin() * (y as f32 * 0.17).cos());
        let grey = 0.3 * f32::from(p.0[0]) + 0.59 * f32::from(p.0[1]) + 0.11 * f32::from(p.0[2]);
        let out = p.0.map(|c| {
            let mixed = 0.75 * f32::from(c) + 0.25 * grey; // ink loses saturation
            let toned = 255.0 * (mixed / 255.0).powf(gamma) * fade + 255.0 * (1.0 - fade) * 0.6;
            (toned + grain).clamp(0.0, 255.0) as u8
        });
        card.put_pixel(x + border, y + border, Rgb(out));
    }
    let finger = Rgb([
        rng.random_range(170..225),
        rng.random_range(120..165),
        rng.random_range(95..135),
    ]);
    for corner_x in [w / 8, w * 7 / 8] {
        fill_ellipse(
            &mut card,
            corner_x as f32,
            h as f32,
            w as f32 / 12.0,
            h as f32 / 7.0,
            finger,
        );
    }
    card
}

fn fill_ellipse(img: &mut RgbImage, cx: f32, cy: f32, rx: f32, ry: f32, colour: Rgb<u8>) {
    for (x, y, p) in img.enumerate_pixels_mut() {
        let (dx, dy) = ((x as f32 - cx) / rx, (y as f32 - cy) / ry);
        if dx * dx + dy * dy <= 1.0 {
            *p = colour;
        }
    }
}

/// How one display looks: its bezel and its brightness.
#[derive(Debug, Clone, Copy)]
pub struct Display {
    bezel: u32,
    brightness: f32,
}

impl Display {
    pub fn draw(rng: &mut StdRng) -> Self {
        Self {
            bezel: rng.random_range(10..22),
            brightness: rng.random_range(0.85..1.1),
        }
    }
}

/// A photo on `display`: enlarged so each image pixel covers a grid of red, green and blue
/// sub-pixels with dark gaps (the grid beats with the camera's sensor as moiré once the card
/// is resampled), a black bezel.
pub fn on_screen(photo: &RgbImage, display: Display) -> RgbImage {
    let pitch = 3u32;
    let target_h = 420u32;
    let scale = target_h as f32 / photo.height() as f32;
    let (pw, ph) = (((photo.width() as f32 * scale) as u32).max(pitch), target_h);
    let shown = imageops::resize(photo, pw, ph, FilterType::Triangle);
    let Display { bezel, brightness } = display;
    let mut card = RgbImage::from_pixel(pw + 2 * bezel, ph + 2 * bezel, Rgb([12, 12, 14]));
    for (x, y, p) in shown.enumerate_pixels() {
        let sub = (x % pitch) as usize;
        let gap = y % pitch == pitch - 1;
        let out = std::array::from_fn(|c| {
            let lit = if c == sub { 1.25 } else { 0.7 };
            let v = f32::from(p.0[c]) * lit * brightness * if gap { 0.55 } else { 1.0 };
            v.clamp(0.0, 255.0) as u8
        });
        card.put_pixel(x + bezel, y + bezel, Rgb(out));
    }
    card
}

/// Per-frame screen effects in the frame: refresh banding rolling down and a glare spot.
pub fn screen_light(frame: &mut RgbImage, i: usize, glare: (f32, f32, f32), band_phase: f32) {
    let roll = i as f32 * 0.7 + band_phase;
    for (x, y, p) in frame.enumerate_pixels_mut() {
        let band = 1.0 + 0.06 * (y as f32 * 0.05 + roll).sin();
        let (dx, dy) = (x as f32 - glare.0, y as f32 - glare.1);
        let shine = 90.0 * (-(dx * dx + dy * dy) / (2.0 * glare.2 * glare.2)).exp();
        for c in &mut p.0 {
            *c = (f32::from(*c) * band + shine).clamp(0.0, 255.0) as u8;
        }
    }
}

/// `count` frames of `card` held in front of `backdrop` along `path`, with `screen` light
/// effects when it is a display, and fresh sensor noise.
pub fn card_frames(
    card: &RgbImage,
    backdrop: &RgbImage,
    path: &CardPath,
    count: usize,
    screen: bool,
    rng: &mut StdRng,
) -> Vec<Vec<u8>> {
    let glare = (
        rng.random_range(150.0..490.0f32),
        rng.random_range(100.0..380.0f32),
        rng.random_range(30.0..80.0f32),
    );
    let band_phase = rng.random_range(0.0..6.0f32);
    (0..count)
        .map(|i| {
            let mut frame = backdrop.clone();
            draw_card(card, &path.at(card, i), &mut frame, false);
            if screen {
                screen_light(&mut frame, i, glare, band_phase);
            }
            add_noise(&mut frame, rng, 3);
            jpeg(&frame)
        })
        .collect()
}

/// A still photo at camera size with fresh sensor noise in every frame: no two frames share
/// bytes, so the repeated-bytes check cannot be what stops it.
pub fn noisy_still(photo: &RgbImage, count: usize, rng: &mut StdRng) -> Vec<Vec<u8>> {
    let still = camera_sized(photo.clone());
    (0..count)
        .map(|_| {
            let mut frame = still.clone();
            add_noise(&mut frame, rng, 4);
            jpeg(&frame)
        })
        .collect()
}

/// Live frames as a cheap camera sends them: 320×240, JPEG quality 50.
pub fn degraded(frame: &RgbImage) -> Vec<u8> {
    let small = imageops::resize(frame, 320, 240, FilterType::Triangle);
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 50)
        .encode_image(&small)
        .expect("encode");
    out
}

/// A live frame in a dim room: a quarter of the light, a darker gamma and more sensor noise.
pub fn low_light(frame: &RgbImage, rng: &mut StdRng) -> Vec<u8> {
    let mut dim = frame.clone();
    for p in dim.pixels_mut() {
        for c in &mut p.0 {
            let v = 255.0 * (f32::from(*c) / 255.0).powf(1.3) * 0.28;
            *c = (v + rng.random_range(-5.0..5.0f32)).clamp(0.0, 255.0) as u8;
        }
    }
    jpeg(&dim)
}

/// Frame `i` of live footage as a hand-held phone films it: the camera, not the person,
/// moves, so face and room move together. A slow pan of up to 6% of the frame, a hand's sway
/// at about 1.3 Hz and tremor, and a crop zoom of 1.15 (`phase` makes each path its own).
pub fn hand_held(frame: &RgbImage, i: usize, phase: f32, rng: &mut StdRng) -> Vec<u8> {
    let (w, h) = (frame.width() as f32, frame.height() as f32);
    let (cw, ch) = (w / 1.15, h / 1.15);
    let t = i as f32 / super::FPS;
    let pan = 0.06 * (0.25 * t + phase).sin();
    let sway_x = 0.025 * (2.0 * std::f32::consts::PI * 1.3 * t + phase).sin();
    let sway_y = 0.02 * (2.0 * std::f32::consts::PI * 0.9 * t + 2.0 * phase).cos();
    let tremor = (
        rng.random_range(-0.004..0.004f32),
        rng.random_range(-0.004..0.004f32),
    );
    let x = ((w - cw) / 2.0 + (pan + sway_x + tremor.0) * w).clamp(0.0, w - cw);
    let y = ((h - ch) / 2.0 + (sway_y + tremor.1) * h).clamp(0.0, h - ch);
    let crop = imageops::crop_imm(frame, x as u32, y as u32, cw as u32, ch as u32).to_image();
    jpeg(&imageops::resize(
        &crop,
        frame.width(),
        frame.height(),
        FilterType::Triangle,
    ))
}

/// A seeded generator for one case: the case's name mixed with the set's seed, so every case
/// draws its own path, backdrop and effects.
pub fn case_rng(name: &str) -> StdRng {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for b in name.bytes() {
        seed = (seed ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
    }
    StdRng::seed_from_u64(seed)
}
