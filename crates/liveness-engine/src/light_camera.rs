//! A rendering test camera for the light check (issue 29): it plays recorded footage and
//! renders the light that the colour shown on the screen throws on the scene. Shared by the
//! engine's evaluation (`facegate eval liveness --light-ratio`), the accuracy tests and the
//! black-box tests; the browser tests' canvas camera renders the same model in JavaScript
//! (`tests/browser/run.mjs`). Every figure it produces comes from simulation, and the docs say
//! so.
//!
//! The live scene: a soft elliptical face region on the engine's own face box, shaded as a
//! curved surface (the light falls off as the surface turns away from the screen), a weak
//! spill on the background, a display-to-capture delay with jitter, an auto-exposure that
//! pulls the frame's brightness back, sensor noise and JPEG. `ratio` is the screen's light
//! over the ambient light on the face: 0.05 in a bright office, 0.3 in a dim room.
//!
//! The attack scenes: a replay on a screen (its glass adds a uniform glare, whatever is
//! behind it), a print (the paper answers flat over the whole card), an injected stream that
//! does not answer, an injected stream tinted as a whole in sync, and a live face answering
//! another session's sequence.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use face_engine::geometry::BoundingBox;
use face_engine::{DetectMode, DetectOptions, FaceEngine, Image};
use image::RgbImage;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::illumination::{Illumination, ScreenColor, srgb_to_linear};

/// What stands in front of the camera.
#[derive(Debug, Clone, PartialEq)]
pub enum Scene {
    /// A live face near the screen.
    LiveFace,
    /// The footage replayed on a screen: the glass mirrors the flash as a uniform glare.
    ScreenReplay,
    /// A printed photo: the paper answers flat, face and card alike.
    Print,
    /// An injected stream: the footage as recorded, no answer to the light.
    Injected,
    /// An injected stream that tints the whole frame with the shown colour, in sync.
    TintedStream,
    /// A live face recorded under another session's sequence.
    OtherSequence(Illumination),
}

/// Background spill: the share of the face's light that reaches the room behind.
const SPILL: f32 = 0.06;
/// How much of a brightness change the auto-exposure takes back, and how fast (per frame).
const EXPOSURE_PULL: f32 = 0.7;
const EXPOSURE_SPEED: f32 = 0.35;
/// Sensor noise amplitude in grey levels.
const NOISE: i16 = 2;
const JPEG_QUALITY: u8 = 85;

/// The camera. Deterministic for a given seed.
#[derive(Debug)]
pub struct LightCamera {
    engine: Arc<FaceEngine>,
    scene: Scene,
    ratio: f32,
    delay_ms: i64,
    rng: StdRng,
    shown: Option<(Illumination, i64)>,
    exposure: f32,
    last_face: Option<BoundingBox>,
    /// Face boxes of footage frames already seen (looped footage is detected once).
    boxes: HashMap<u64, Option<BoundingBox>>,
}

impl LightCamera {
    /// A camera filming `scene` with screen-to-ambient light `ratio` and a display-to-capture
    /// delay drawn from 30..=300 ms with `seed`.
    pub fn new(engine: Arc<FaceEngine>, scene: Scene, ratio: f32, seed: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let delay_ms = rng.random_range(30..=300);
        Self {
            engine,
            scene,
            ratio,
            delay_ms,
            rng,
            shown: None,
            exposure: 1.0,
            last_face: None,
            boxes: HashMap::new(),
        }
    }

    pub fn delay_ms(&self) -> i64 {
        self.delay_ms
    }

    /// The page received `sequence` at camera time `at_ms` and shows it from then on.
    pub fn show(&mut self, sequence: Illumination, at_ms: u64) {
        let sequence = match &self.scene {
            Scene::OtherSequence(other) => other.clone(),
            _ => sequence,
        };
        self.shown = Some((sequence, at_ms as i64));
    }

    /// The colour on the screen when the frame captured at `t_ms` was exposed.
    fn shown_color(&mut self, t_ms: u64) -> Option<ScreenColor> {
        let jitter = self.rng.random_range(-20..=20);
        let (sequence, at) = self.shown.as_ref()?;
        sequence.color_at(t_ms as i64 - self.delay_ms - jitter - at)
    }

    /// The footage frame `jpeg` as this camera captures it at `t_ms` (camera time). A frame
    /// that does not decode is passed on as it is.
    pub fn capture(&mut self, jpeg: &[u8], t_ms: u64) -> Vec<u8> {
        let color = self.shown_color(t_ms);
        self.capture_under(jpeg, color)
    }

    /// [`Self::capture`], stamped with its capture time as the embedded page stamps the frames
    /// it sends (`crate::capture_time`), for drivers that hand frames straight to a session.
    pub fn capture_stamped(&mut self, jpeg: &[u8], t_ms: u64) -> Vec<u8> {
        crate::capture_time::stamp(&self.capture(jpeg, t_ms), t_ms)
    }

    /// The footage frame `jpeg` as this camera captures it while the screen shows `color`
    /// (for load scripts that render every palette colour once, ahead of time).
    pub fn capture_under(&mut self, jpeg: &[u8], color: Option<ScreenColor>) -> Vec<u8> {
        let Ok(decoded) = Image::decode(jpeg) else {
            return jpeg.to_vec();
        };
        let mut hasher = DefaultHasher::new();
        jpeg.hash(&mut hasher);
        let engine = &self.engine;
        let face = *self.boxes.entry(hasher.finish()).or_insert_with(|| {
            let options = DetectOptions {
                mode: DetectMode::Selfie,
                max_faces: 1,
                ..DetectOptions::default()
            };
            let faces = engine.detect(&decoded, &options).ok()?;
            faces.into_iter().next().map(|f| f.bbox)
        });
        if face.is_some() {
            self.last_face = face;
        }
        let mut frame = decoded.rgb().clone();
        let light = color.map_or([0.0; 3], |c| c.linear());
        self.render(&mut frame, light);
        add_noise(&mut frame, &mut self.rng);
        encode(&frame).unwrap_or_else(|| jpeg.to_vec())
    }

    fn render(&mut self, frame: &mut RgbImage, light: [f32; 3]) {
        let ratio = self.ratio;
        let face = self.last_face;
        let (w, h) = (frame.width(), frame.height());
        // the share of the screen's light each pixel gets, and whether it is reflected
        // (multiplied by the surface) or added (a glare on glass)
        let weight = |x: u32, y: u32| -> f32 {
            match face {
                Some(b) => {
                    let c = b.center();
                    let u = (x as f32 - c.x) / (0.5 * b.width);
                    let v = (y as f32 - c.y) / (0.6 * b.height);
                    let r2 = u * u + v * v;
                    // soft edge: 1 inside, falling to 0 by 1.3 radii
                    let soft = (1.0 - (r2.sqrt() - 1.0) / 0.3).clamp(0.0, 1.0);
                    // a rounded surface: the cosine of its turn away from the screen, from 1
                    // at the centre to about 0.4 at the face's outline
                    let facing = (1.0 - 0.85 * r2).max(0.0).sqrt();
                    SPILL + (facing - SPILL).max(0.0) * soft
                }
                None => SPILL,
            }
        };
        let card = face.map(|b| {
            let c = b.center();
            (c, 1.1 * b.width, 1.3 * b.height)
        });
        let lut: Vec<f32> = (0..=255u8).map(srgb_to_linear).collect();
        let mut mean_before = 0.0f64;
        let mut mean_after = 0.0f64;
        let mut out = vec![[0.0f32; 3]; (w * h) as usize];
        for (x, y, pixel) in frame.enumerate_pixels() {
            let base = pixel.0.map(|v| lut[v as usize]);
            let lit: [f32; 3] = match &self.scene {
                Scene::LiveFace | Scene::OtherSequence(_) => {
                    let k = ratio * weight(x, y);
                    [0, 1, 2].map(|i| base[i] * (1.0 + k * light[i]))
                }
                Scene::Print => {
                    let on_card = card.is_some_and(|(c, cw, ch)| {
                        (x as f32 - c.x).abs() < cw && (y as f32 - c.y).abs() < ch
                    });
                    let k = ratio * if on_card { 0.8 } else { SPILL };
                    [0, 1, 2].map(|i| base[i] * (1.0 + k * light[i]))
                }
                Scene::TintedStream => [0, 1, 2].map(|i| base[i] * (1.0 + ratio * light[i])),
                Scene::ScreenReplay => [0, 1, 2].map(|i| base[i] + 0.5 * ratio * 0.2 * light[i]),
                Scene::Injected => base,
            };
            mean_before += f64::from(base[1]);
            mean_after += f64::from(lit[1]);
            out[(y * w + x) as usize] = lit;
        }
        // auto-exposure: pulls part of the brightness change back, with some lag
        let change = (mean_after / mean_before.max(1e-6)) as f32;
        let target = 1.0 / (1.0 + EXPOSURE_PULL * (change - 1.0));
        self.exposure += EXPOSURE_SPEED * (target - self.exposure);
        let gain = if matches!(self.scene, Scene::Injected) {
            1.0
        } else {
            self.exposure
        };
        for (pixel, lit) in frame.pixels_mut().zip(out) {
            pixel.0 = lit.map(|v| linear_to_srgb(v * gain));
        }
    }
}

fn linear_to_srgb(v: f32) -> u8 {
    let v = v.clamp(0.0, 1.0);
    let c = if v <= 0.003_130_8 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    };
    (c * 255.0).round() as u8
}

fn add_noise(frame: &mut RgbImage, rng: &mut StdRng) {
    for pixel in frame.pixels_mut() {
        let n = rng.random_range(-NOISE..=NOISE);
        for c in &mut pixel.0 {
            *c = (i16::from(*c) + n).clamp(0, 255) as u8;
        }
    }
}

fn encode(frame: &RgbImage) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
        .encode_image(frame)
        .ok()?;
    Some(out)
}
