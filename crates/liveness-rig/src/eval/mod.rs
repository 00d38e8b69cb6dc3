//! The liveness evaluation harness shared by the engine's tests, its accuracy sweeps and the
//! calibration examples (issue 69: once included with `#[path]` by six targets): the engine,
//! frames extracted from the shared videos (ffmpeg, cached under the system temp folder, never
//! in the repository), the attack generators (a still photo, a photo moved by perspective
//! warps), the evaluation set split by source, and the three sweeps (`held_back`,
//! `camera_family`, `screen_light`).

pub mod attacks;
pub mod camera_family;
pub mod fit;
pub mod frames;
pub mod held_back;
pub mod lit;
pub mod loaded;
pub mod look;
pub mod monotone;
pub mod pass_point;
pub mod screen_light;
pub mod selection;
pub mod set;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

use crate::replay::Recording;
use face_engine::FaceEngine;
use face_engine::geometry::Point;
use image::{Rgb, RgbImage};
use liveness_engine::motion::homography::Homography;
use rand::{Rng, RngCore};

pub const FPS: f32 = 15.0;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn testdata() -> PathBuf {
    root().join("../shared/testdata")
}

pub fn engine() -> Arc<FaceEngine> {
    static ENGINE: OnceLock<Arc<FaceEngine>> = OnceLock::new();
    ENGINE
        .get_or_init(|| Arc::new(FaceEngine::load(&root().join("models")).expect("models load")))
        .clone()
}

/// The frames of `videos/<name>.mp4` at [`FPS`], extracted once per machine.
///
/// Safe across threads and processes: within a process one extraction per video runs behind a
/// per-video lock; each extraction stages into its own unique temporary folder beside the cache
/// and is renamed into place atomically, so no caller ever sees (or deletes) a half-written set.
pub fn video(name: &str) -> Recording {
    video_cached_in(&std::env::temp_dir().join("facegate-frames"), name)
}

/// [`video`] with its cache under `root` (the frame-cache test uses a fresh one).
pub fn video_cached_in(root: &Path, name: &str) -> Recording {
    let cache = root.join(format!("{name}-{FPS}fps"));
    let lock = extraction_lock(&cache);
    {
        let _held = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !cache.join("done").exists() {
            extract_frames(name, &cache);
        }
    }
    let mut recording = Recording::open(&cache).expect("frames");
    recording.name = name.to_string();
    recording
}

fn extraction_lock(cache: &Path) -> Arc<Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = OnceLock::new();
    let mut locks = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    locks.entry(cache.to_path_buf()).or_default().clone()
}

fn extract_frames(name: &str, cache: &Path) {
    let parent = cache.parent().expect("cache has a parent");
    std::fs::create_dir_all(parent).expect("create frame cache folder");
    let staging = tempfile::Builder::new()
        .prefix(&format!(
            "{}.staging-",
            cache.file_name().unwrap_or_default().to_string_lossy()
        ))
        .tempdir_in(parent)
        .expect("unique staging folder");
    let source = testdata().join(format!("videos/{name}.mp4"));
    let status = Command::new("ffmpeg")
        .args(["-v", "error", "-y", "-i"])
        .arg(&source)
        .args(["-t", "40", "-vf", &format!("fps={FPS}"), "-q:v", "3"])
        .arg(staging.path().join("%05d.jpg"))
        .status()
        .expect("ffmpeg is installed (apt-get install ffmpeg; .ci/run does it)");
    assert!(status.success(), "ffmpeg failed on {}", source.display());
    std::fs::write(staging.path().join("done"), b"").expect("mark cache");
    let staged = staging.keep();
    if std::fs::rename(&staged, cache).is_err() {
        // Another process renamed its identical copy into place first (or a stale cache
        // without `done` is in the way): keep a complete one and drop the rest.
        if cache.join("done").exists() {
            let _ = std::fs::remove_dir_all(&staged);
        } else {
            let _ = std::fs::remove_dir_all(cache);
            if std::fs::rename(&staged, cache).is_err() {
                let _ = std::fs::remove_dir_all(&staged);
            }
        }
    }
    assert!(cache.join("done").exists(), "frames of {name} cached");
}

pub const VIDEOS: [&str; 9] = [
    "expressions-man-2",
    "expressions-man-glasses",
    "expressions-man-green",
    "expressions-woman-1",
    "expressions-woman-2",
    "talking-man-bluescreen",
    "talking-woman",
    "webcam-man-1",
    "webcam-man-2",
];

/// The first of `items` for each key, in order: the CI sample of a sweep (one session of each
/// class, exactly as the sweep runs it; the sweep itself is an ignored test).
pub fn first_of_each<T, K: Ord>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> K,
) -> Vec<T> {
    let mut seen = std::collections::BTreeSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(key(item)))
        .collect()
}

/// `work(item)` for every item, on two threads (the CI machine's cores), in input order. The
/// threads take the next item as they finish one, so a slow stretch of items does not leave
/// a core idle.
pub fn in_parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let work = &work;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let next = &next;
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        out.push((i, work(item)));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

pub fn jpeg(img: &RgbImage) -> Vec<u8> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
        .encode_image(img)
        .expect("encode");
    out
}

pub fn load_rgb(path: &Path) -> RgbImage {
    let bytes = std::fs::read(path).expect("read photo");
    face_engine::Image::decode(&bytes)
        .expect("decode photo")
        .into_rgb()
}

/// The photo as a webcam would deliver it: fitted within 640×480.
pub fn camera_sized(photo: RgbImage) -> RgbImage {
    let scale = (640.0 / photo.width() as f32).min(480.0 / photo.height() as f32);
    if scale >= 1.0 {
        return photo;
    }
    let (w, h) = (
        (photo.width() as f32 * scale).round().max(1.0) as u32,
        (photo.height() as f32 * scale).round().max(1.0) as u32,
    );
    image::imageops::resize(&photo, w, h, image::imageops::FilterType::Triangle)
}

/// `photo` held in front of a 640×480 camera and moved by a smooth random path of tilts,
/// turns, shifts and zoom: every frame is the photo under a different perspective warp, with
/// fresh sensor noise, so no two frames are alike.
pub fn warped_photo_frames(
    photo: &RgbImage,
    frames: usize,
    rng: &mut impl RngCore,
) -> Vec<Vec<u8>> {
    let (w, h) = (640.0f64, 480.0f64);
    let side = f64::from(photo.width().max(photo.height()));
    let base_scale = 300.0 / side;
    let phase: [f64; 4] = std::array::from_fn(|_| rng.random_range(0.0..std::f64::consts::TAU));
    let amplitude = rng.random_range(0.6..1.0);
    (0..frames)
        .map(|i| {
            let t = i as f64 / 15.0;
            let tilt_x = amplitude * 0.35 * (1.3 * t + phase[0]).sin(); // about the vertical axis
            let tilt_y = amplitude * 0.25 * (0.9 * t + phase[1]).sin();
            let shift = (
                40.0 * (0.7 * t + phase[2]).sin(),
                25.0 * (1.1 * t + phase[3]).sin(),
            );
            let scale = base_scale * (1.0 + 0.1 * (0.5 * t).sin());
            let photo_to_frame = perspective(photo, scale, tilt_x, tilt_y, shift, (w, h));
            let mut frame = RgbImage::from_pixel(w as u32, h as u32, Rgb([90, 100, 110]));
            render(photo, &photo_to_frame, &mut frame);
            for p in frame.pixels_mut() {
                let n: i16 = rng.random_range(-3..=3);
                for c in &mut p.0 {
                    *c = (i16::from(*c) + n).clamp(0, 255) as u8;
                }
            }
            jpeg(&frame)
        })
        .collect()
}

/// Photo pixel → camera pixel for a plane rotated by (tilt_x, tilt_y) radians, seen by a
/// pinhole camera.
fn perspective(
    photo: &RgbImage,
    scale: f64,
    tilt_x: f64,
    tilt_y: f64,
    shift: (f64, f64),
    (w, h): (f64, f64),
) -> Homography {
    let (cx, cy) = (
        f64::from(photo.width()) / 2.0,
        f64::from(photo.height()) / 2.0,
    );
    let focal = 700.0;
    let (sx, cxr) = tilt_x.sin_cos();
    let (sy, cyr) = tilt_y.sin_cos();
    // rotation R = Ry(tilt_x) · Rx(tilt_y), plane at depth `focal`
    let r = [
        cxr,
        sx * sy,
        sx * cyr,
        0.0,
        cyr,
        -sy,
        -sx,
        cxr * sy,
        cxr * cyr,
    ];
    let project = |u: f64, v: f64| {
        let (x, y) = ((u - cx) * scale, (v - cy) * scale);
        let (px, py, pz) = (
            r[0] * x + r[1] * y,
            r[3] * x + r[4] * y,
            r[6] * x + r[7] * y + focal,
        );
        Point::new(
            (focal * px / pz + w / 2.0 + shift.0) as f32,
            (focal * py / pz + h / 2.0 + shift.1) as f32,
        )
    };
    let corners = [
        (0.0, 0.0),
        (2.0 * cx, 0.0),
        (2.0 * cx, 2.0 * cy),
        (0.0, 2.0 * cy),
        (cx, cy),
    ];
    let src: Vec<Point> = corners
        .iter()
        .map(|&(u, v)| Point::new(u as f32, v as f32))
        .collect();
    let dst: Vec<Point> = corners.iter().map(|&(u, v)| project(u, v)).collect();
    Homography::fit(&src, &dst).expect("perspective is a homography")
}

fn render(photo: &RgbImage, photo_to_frame: &Homography, frame: &mut RgbImage) {
    let inverse = photo_to_frame.inverse().expect("invertible");
    let (pw, ph) = (photo.width() as f32, photo.height() as f32);
    for (x, y, pixel) in frame.enumerate_pixels_mut() {
        let p = inverse.apply(Point::new(x as f32 + 0.5, y as f32 + 0.5));
        let (u, v) = (p.x - 0.5, p.y - 0.5);
        if u < 0.0 || v < 0.0 || u >= pw - 1.0 || v >= ph - 1.0 {
            continue;
        }
        let (u0, v0) = (u.floor() as u32, v.floor() as u32);
        let (fu, fv) = (u - u0 as f32, v - v0 as f32);
        let at = |x: u32, y: u32, c: usize| f32::from(photo.get_pixel(x, y).0[c]);
        for c in 0..3 {
            let top = at(u0, v0, c) * (1.0 - fu) + at(u0 + 1, v0, c) * fu;
            let bottom = at(u0, v0 + 1, c) * (1.0 - fu) + at(u0 + 1, v0 + 1, c) * fu;
            pixel.0[c] = (top * (1.0 - fv) + bottom * fv).round() as u8;
        }
    }
}

/// Every identity photo in the shared test data.
pub fn identity_photos() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for set in ["celebs", "johns", "tv-cast"] {
        let dir = testdata().join("identities").join(set);
        for person in std::fs::read_dir(&dir).expect("identity set").flatten() {
            if !person.path().is_dir() {
                continue;
            }
            for file in std::fs::read_dir(person.path()).expect("person").flatten() {
                let path = file.path();
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                if ["jpg", "jpeg", "png", "webp"].contains(&ext.to_ascii_lowercase().as_str()) {
                    out.push(path);
                }
            }
        }
    }
    out.sort();
    out
}
