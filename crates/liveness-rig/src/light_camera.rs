//! A rendering test camera for the light check (issue 29): it plays recorded footage and
//! renders the light that the colour shown on the screen throws on the scene. Shared by the
//! engine's evaluation (`facegate eval liveness --light-ratio`), the accuracy tests and the
//! black-box tests; the browser tests' canvas camera renders the same model in JavaScript
//! (`tests/browser/run.mjs`). Every figure it produces comes from simulation, and the docs say
//! so.
//!
//! The live scene: a soft elliptical face region on the engine's own face box, shaded as a
//! curved surface (the light falls off as the surface turns away from the screen), the top of
//! the head above it, the neck and chest below it lit too, a weak spill on the background.
//! `ratio` is the screen's light over the ambient light on the face: 0.05 in a bright office,
//! 0.3 in a dim room. What the camera then does on its own is its [`CameraModel`]
//! (`crate::camera_model`): a display-to-capture delay with jitter, its frame rate,
//! auto-exposure, white balance, tone curve, channel gains, resolution, sensor noise and JPEG. [`LightCamera::new`] is the single reference
//! camera of issue 29; [`LightCamera::with_model`] films through any camera of the family.
//!
//! The attack scenes: a replay on a screen (its glass adds a uniform glare, whatever is
//! behind it), a print as a sheet (the paper answers like the face over the whole sheet,
//! tilted or bent a little), an injected stream that does not answer, an injected stream
//! tinted as a whole in sync, and a live face answering another session's sequence.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use face_engine::geometry::BoundingBox;
use face_engine::{DetectMode, DetectOptions, FaceEngine, Image};
use image::RgbImage;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::camera_model::{CameraModel, WhiteBalance};
use liveness_engine::capture_time;
use liveness_engine::illumination::{Illumination, ScreenColor, srgb_to_linear};

/// What stands in front of the camera.
#[derive(Debug, Clone, PartialEq)]
pub enum Scene {
    /// A live face near the screen.
    LiveFace,
    /// The footage replayed on a screen: the glass mirrors the flash as a uniform glare.
    ScreenReplay,
    /// A printed photo: the paper answers flat, face and card alike.
    Print,
    /// A printed photo trimmed close to the face (`TRIMMED_SHEET`): the paper around the
    /// face ends before the light check's margin ring, which then reads the room.
    TrimmedPrint,
    /// An injected stream: the footage as recorded, no answer to the light.
    Injected,
    /// An injected stream that tints the whole frame with the shown colour, in sync.
    TintedStream,
    /// A live face recorded under another session's sequence.
    OtherSequence(Illumination),
}

/// Background spill: the share of the face's light that reaches the room behind.
const SPILL: f32 = 0.06;
/// The share of the face's light on the neck and on the chest.
const NECK: f32 = 0.55;
const CHEST: f32 = 0.4;
/// The top of the head above the face, lit as a rounded surface like the face: its height above
/// the face's centre in the face ellipse's half-heights (the crown 0.9 face boxes above the
/// box's centre). It puts the screen's light on the hairline and the crown, where the light
/// check's outline ring lies (issue 66), as a head's top would catch it.
const CROWN: f32 = 1.5;
/// How much of the screen's light the face's outline takes (the rounded face's shading at its
/// ellipse, √(1 − 0.85)), the most the top of the head above it takes.
const OUTLINE_FACING: f32 = 0.387;
/// A print's sheet: its half-width and half-height in face boxes, and the share of the light
/// it takes (less than a face's centre: it is held a little farther than a face would be).
const SHEET: (f32, f32) = (1.1, 1.3);
const SHEET_LIGHT: f32 = 0.8;
/// A print trimmed close to the face: paper to 0.75 face boxes either side of its centre and
/// 0.85 above and below (a photo cut round the head, or a tight crop printed small).
const TRIMMED_SHEET: (f32, f32) = (0.75, 0.85);
/// Share of the brightest pixels a white-patch balance takes for white.
const WHITE_PATCH_SHARE: f32 = 0.02;

/// The camera. Deterministic for a given seed.
#[derive(Debug)]
pub struct LightCamera {
    engine: Arc<FaceEngine>,
    scene: Scene,
    ratio: f32,
    model: CameraModel,
    rng: StdRng,
    shown: Option<(Illumination, i64)>,
    exposure: f32,
    /// The white balance's current gains of red, green and blue.
    balance: [f32; 3],
    /// A print's tilt (light from one side of the sheet to the other, ±) and bend (its edges
    /// turned away), drawn with the camera.
    sheet_tilt: f32,
    sheet_bend: f32,
    last_capture_ms: Option<u64>,
    last_face: Option<BoundingBox>,
    /// Face boxes of footage frames already seen (looped footage is detected once).
    boxes: HashMap<u64, Option<BoundingBox>>,
}

impl LightCamera {
    /// A camera filming `scene` with screen-to-ambient light `ratio` and a display-to-capture
    /// delay drawn from 30..=300 ms with `seed`.
    pub fn new(engine: Arc<FaceEngine>, scene: Scene, ratio: f32, seed: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let model = CameraModel::reference(&mut rng);
        Self::filming(engine, scene, ratio, model, rng, seed)
    }

    /// A camera of the family ([`CameraModel`]) filming `scene` at `ratio`, its noise and the
    /// sheet of a print drawn with `seed`.
    pub fn with_model(
        engine: Arc<FaceEngine>,
        scene: Scene,
        ratio: f32,
        model: CameraModel,
        seed: u64,
    ) -> Self {
        Self::filming(
            engine,
            scene,
            ratio,
            model,
            StdRng::seed_from_u64(seed),
            seed,
        )
    }

    fn filming(
        engine: Arc<FaceEngine>,
        scene: Scene,
        ratio: f32,
        model: CameraModel,
        rng: StdRng,
        seed: u64,
    ) -> Self {
        let mut sheet = StdRng::seed_from_u64(seed ^ 0x0005_4ee7);
        Self {
            engine,
            scene,
            ratio,
            model,
            rng,
            shown: None,
            exposure: 1.0,
            balance: [1.0; 3],
            sheet_tilt: sheet.random_range(-0.25..0.25),
            sheet_bend: sheet.random_range(0.0..0.3),
            last_capture_ms: None,
            last_face: None,
            boxes: HashMap::new(),
        }
    }

    pub fn delay_ms(&self) -> i64 {
        self.model.delay_ms
    }

    pub fn model(&self) -> &CameraModel {
        &self.model
    }

    /// Whether the camera delivers a frame at `t_ms` at its own frame rate (a driver playing
    /// faster footage skips the frames it does not); notes the capture when it does.
    pub fn due(&mut self, t_ms: u64) -> bool {
        let interval = 1000 / u64::from(self.model.fps.max(1));
        // a few milliseconds early still counts: footage frames fall on their own grid
        let due = self
            .last_capture_ms
            .is_none_or(|last| t_ms + 5 >= last + interval);
        if due {
            self.last_capture_ms = Some(t_ms);
        }
        due
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
        let jitter = self
            .rng
            .random_range(-self.model.jitter_ms..=self.model.jitter_ms);
        let (sequence, at) = self.shown.as_ref()?;
        sequence.color_at(t_ms as i64 - self.model.delay_ms - jitter - at)
    }

    /// The footage frame `jpeg` as this camera captures it at `t_ms` (camera time). A frame
    /// that does not decode is passed on as it is.
    pub fn capture(&mut self, jpeg: &[u8], t_ms: u64) -> Vec<u8> {
        let color = self.shown_color(t_ms);
        self.capture_under(jpeg, color)
    }

    /// [`Self::capture`], stamped with its capture time as the embedded page stamps the frames
    /// it sends (`liveness_engine::capture_time`), for drivers that hand frames straight to a session.
    /// The stamp says the camera held its white balance when its model does (the page asked
    /// for it and the camera took it).
    pub fn capture_stamped(&mut self, jpeg: &[u8], t_ms: u64) -> Vec<u8> {
        let frame = self.capture(jpeg, t_ms);
        match self.model.white_balance {
            WhiteBalance::Locked => capture_time::stamp(&frame, t_ms),
            WhiteBalance::GreyWorld { .. } | WhiteBalance::WhitePatch { .. } => {
                capture_time::stamp_with_lock(&frame, t_ms, false)
            }
        }
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
        if self.model.scale < 0.99 {
            let (w, h) = (frame.width() as f32, frame.height() as f32);
            frame = image::imageops::resize(
                &frame,
                (w * self.model.scale).round().max(1.0) as u32,
                (h * self.model.scale).round().max(1.0) as u32,
                image::imageops::FilterType::Triangle,
            );
        }
        add_noise(&mut frame, &mut self.rng, self.model.noise);
        encode(&frame, self.model.jpeg_quality).unwrap_or_else(|| jpeg.to_vec())
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
                    // the neck below the chin, the chest below that
                    let body = if v > 0.9 && v < 2.0 && u.abs() < 0.7 {
                        NECK
                    } else if v >= 2.0 && u.abs() < 2.2 {
                        CHEST
                    } else {
                        0.0
                    };
                    // the top of the head above the face's outline (hair or a bald crown),
                    // rounded like the face (a half-ellipse as wide, `CROWN` tall) and lit no
                    // more than the outline itself, which it continues
                    let crown = match v < 0.0 && r2 >= 1.0 {
                        true => (1.0 - 0.85 * (u * u + (v / CROWN).powi(2)))
                            .max(0.0)
                            .sqrt()
                            .min(OUTLINE_FACING),
                        false => 0.0,
                    };
                    (SPILL + (facing - SPILL).max(0.0) * soft)
                        .max(crown)
                        .max(body)
                }
                None => SPILL,
            }
        };
        let sheet = match self.scene {
            Scene::TrimmedPrint => TRIMMED_SHEET,
            _ => SHEET,
        };
        let card = face.map(|b| {
            let c = b.center();
            (c, sheet.0 * b.width, sheet.1 * b.height)
        });
        let (tilt, bend) = (self.sheet_tilt, self.sheet_bend);
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
                Scene::Print | Scene::TrimmedPrint => {
                    // across the sheet, −1 to 1: a tilt lights one side more, a bend turns
                    // both edges away
                    let across = card.and_then(|(c, cw, ch)| {
                        let u = (x as f32 - c.x) / cw;
                        (u.abs() < 1.0 && (y as f32 - c.y).abs() < ch).then_some(u)
                    });
                    let k = ratio
                        * across.map_or(SPILL, |u| {
                            SHEET_LIGHT * (1.0 + tilt * u) * (1.0 - bend * u * u)
                        });
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
        if matches!(self.scene, Scene::Injected) {
            // an injected stream never passes through a camera
            for (pixel, lit) in frame.pixels_mut().zip(out) {
                pixel.0 = lit.map(CameraModel::reference_encode);
            }
            return;
        }
        // auto-exposure: pulls part of the brightness change back, with some lag
        let model = self.model;
        let change = (mean_after / mean_before.max(1e-6)) as f32;
        let target = model.exposure_target / (1.0 + model.exposure_pull * (change - 1.0));
        self.exposure += model.exposure_speed * (target - self.exposure);
        let gains: [f32; 3] = std::array::from_fn(|c| self.exposure * model.channel_gains[c]);
        // white balance: moves toward what makes the frame (or its brightest pixels) grey
        if let Some((speed, aim)) = balance_target(&out, gains, model.white_balance) {
            for (gain, aim) in self.balance.iter_mut().zip(aim) {
                *gain += speed * (aim - *gain);
            }
        }
        let balance = self.balance;
        for (pixel, lit) in frame.pixels_mut().zip(out) {
            pixel.0 = std::array::from_fn(|c| model.encode(lit[c] * gains[c] * balance[c]));
        }
    }
}

/// Where a white balance of `kind` moves its gains after a frame `out` (linear, before the
/// balance) seen through `gains`, and how fast; `None` when it is held.
fn balance_target(
    out: &[[f32; 3]],
    gains: [f32; 3],
    kind: WhiteBalance,
) -> Option<(f32, [f32; 3])> {
    let (speed, patch) = match kind {
        WhiteBalance::Locked => return None,
        WhiteBalance::GreyWorld { speed } => (speed, false),
        WhiteBalance::WhitePatch { speed } => (speed, true),
    };
    let mut sums = [0.0f64; 3];
    if patch {
        let mut lumas: Vec<f32> = out.iter().map(|p| p[0] + p[1] + p[2]).collect();
        let cut_at = ((lumas.len() as f32) * (1.0 - WHITE_PATCH_SHARE)) as usize;
        let cut = *lumas
            .select_nth_unstable_by(cut_at.min(out.len().saturating_sub(1)), f32::total_cmp)
            .1;
        for p in out.iter().filter(|p| p[0] + p[1] + p[2] >= cut) {
            for c in 0..3 {
                sums[c] += f64::from(p[c] * gains[c]);
            }
        }
    } else {
        for p in out {
            for c in 0..3 {
                sums[c] += f64::from(p[c] * gains[c]);
            }
        }
    }
    let aim: [f32; 3] = std::array::from_fn(|c| (sums[1] / sums[c].max(1e-9)) as f32);
    Some((speed, aim))
}

fn add_noise(frame: &mut RgbImage, rng: &mut StdRng, noise: i16) {
    for pixel in frame.pixels_mut() {
        let n = rng.random_range(-noise..=noise);
        for c in &mut pixel.0 {
            *c = (i16::from(*c) + n).clamp(0, 255) as u8;
        }
    }
}

fn encode(frame: &RgbImage, quality: u8) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality)
        .encode_image(frame)
        .ok()?;
    Some(out)
}
