//! The evaluation set of issue 15, generated from `../shared/testdata` on every run and split
//! by source: every video, every identity (all photos of one person) and every NUAA subject
//! belongs to one half only. Thresholds are set on the calibration half; the tests report and
//! assert on the held-back half. A split that puts a source in both halves is refused, and so
//! is a case that draws on sources from both halves.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use image::RgbImage;
use rand::Rng;

use super::frames as synth;
use super::{FPS, VIDEOS, identity_photos, load_rgb, testdata, video};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Half {
    Calibration,
    HeldBack,
}

/// Which half every source belongs to.
#[derive(Debug, Clone)]
pub struct Split {
    halves: BTreeMap<String, Half>,
}

impl Split {
    /// Refuses an assignment that names a source in both halves.
    pub fn from_assignments(
        assignments: impl IntoIterator<Item = (String, Half)>,
    ) -> Result<Self, String> {
        let mut halves = BTreeMap::new();
        for (source, half) in assignments {
            match halves.insert(source.clone(), half) {
                Some(earlier) if earlier != half => {
                    return Err(format!(
                        "source `{source}` is in both halves ({earlier:?} and {half:?})"
                    ));
                }
                _ => {}
            }
        }
        Ok(Self { halves })
    }

    /// The standard split: within each kind of source, sorted by name, alternately to the
    /// calibration and the held-back half.
    pub fn standard() -> Self {
        let mut assignments = Vec::new();
        for kind in sources_by_kind() {
            for (i, source) in kind.into_iter().enumerate() {
                let half = if i % 2 == 0 {
                    Half::Calibration
                } else {
                    Half::HeldBack
                };
                assignments.push((source, half));
            }
        }
        Self::from_assignments(assignments).expect("alternation names each source once")
    }

    pub fn half_of(&self, source: &str) -> Option<Half> {
        self.halves.get(source).copied()
    }

    pub fn sources(&self, half: Half, prefix: &str) -> Vec<String> {
        self.halves
            .iter()
            .filter(|(s, h)| **h == half && s.starts_with(prefix))
            .map(|(s, _)| s.clone())
            .collect()
    }

    /// The half all of `case`'s sources belong to; refuses a case that mixes halves or uses
    /// a source the split does not know.
    pub fn half_of_case(&self, case: &Case) -> Result<Half, String> {
        let mut found = None;
        for source in &case.sources {
            let half = self
                .half_of(source)
                .ok_or_else(|| format!("case `{}`: source `{source}` is in no half", case.name))?;
            if found.is_some_and(|f| f != half) {
                return Err(format!(
                    "case `{}` draws on both halves (`{source}` is {half:?})",
                    case.name
                ));
            }
            found = Some(half);
        }
        found.ok_or_else(|| format!("case `{}` names no source", case.name))
    }
}

/// Every source, by kind: `video/<name>`, `identity/<set>/<person>`, `nuaa/<subject>`.
pub fn sources_by_kind() -> Vec<Vec<String>> {
    let videos = VIDEOS.iter().map(|v| format!("video/{v}")).collect();
    let identities: std::collections::BTreeSet<String> =
        identity_photos().iter().map(|p| identity_of(p)).collect();
    let mut nuaa: Vec<String> = std::fs::read_dir(testdata().join("spoof/nuaa/print"))
        .expect("nuaa")
        .flatten()
        .map(|e| format!("nuaa/{}", e.file_name().to_string_lossy()))
        .collect();
    nuaa.sort();
    let face_swaps = (1..=FACE_SWAP_PAIRS)
        .map(|n| format!("face-swap/pair{n:02}"))
        .collect();
    vec![videos, identities.into_iter().collect(), nuaa, face_swaps]
}

/// Pairs in `videos/face-swap/`: `pairNN-real.mp4` and `pairNN-swap.mp4` (pair 13: its swap
/// only).
pub const FACE_SWAP_PAIRS: usize = 13;

/// The class of a face-swap pair's swapped half.
pub const FACE_SWAP_CLASS: &str = "face swap";

/// The face-swap pairs of `half`: each real half as a live person (`live, face-swap real
/// half`), each swapped half as an attack (`face swap`), 150 frames played back and forth.
pub fn face_swap_cases(split: &Split, half: Half) -> Vec<Case> {
    let mut cases = Vec::new();
    for source in split.sources(half, "face-swap/") {
        let pair = source.trim_start_matches("face-swap/").to_string();
        for (class, truth, side) in [
            ("live, face-swap real half", Truth::Live, "real"),
            (FACE_SWAP_CLASS, Truth::Attack, "swap"),
        ] {
            let video = format!("face-swap/{pair}-{side}");
            if !testdata().join(format!("videos/{video}.mp4")).exists() {
                continue;
            }
            cases.push(Case::new(
                class,
                format!("{pair}-{side}"),
                truth,
                vec![source.clone()],
                move || video_frames(&video).iter().take(150).map(read).collect(),
            ));
        }
    }
    cases
}

pub(super) fn identity_of(photo: &std::path::Path) -> String {
    let person = photo.parent().expect("person folder");
    let set = person.parent().expect("identity set");
    format!(
        "identity/{}/{}",
        set.file_name().unwrap_or_default().to_string_lossy(),
        person.file_name().unwrap_or_default().to_string_lossy()
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truth {
    Live,
    Attack,
}

type Frames = Arc<dyn Fn() -> Vec<Vec<u8>> + Send + Sync>;

/// One session of the set: its frames are generated when the test runs it.
#[derive(Clone)]
pub struct Case {
    pub class: &'static str,
    pub name: String,
    pub truth: Truth,
    pub sources: Vec<String>,
    /// Capture rate of the frames.
    pub fps: f32,
    frames: Frames,
}

impl Case {
    pub(super) fn new(
        class: &'static str,
        name: String,
        truth: Truth,
        sources: Vec<String>,
        frames: impl Fn() -> Vec<Vec<u8>> + Send + Sync + 'static,
    ) -> Self {
        Self {
            class,
            name,
            truth,
            sources,
            fps: FPS,
            frames: Arc::new(frames),
        }
    }

    pub fn frames(&self) -> Vec<Vec<u8>> {
        (self.frames)()
    }
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Case")
            .field("class", &self.class)
            .field("name", &self.name)
            .field("truth", &self.truth)
            .field("sources", &self.sources)
            .field("fps", &self.fps)
            .finish_non_exhaustive()
    }
}

/// Frames an attack sends: enough for a passive hold with its extension (8 s), or for an
/// active plan of up to four challenges (30 s).
pub fn attack_frames(active: bool) -> usize {
    if active { 450 } else { 120 }
}

/// The video's frames, played back and forth until there are 150 (10 s): a clip shorter
/// than a session (one is 3.1 s) plays on as a person who keeps swaying would. Every session
/// of the light check goes through the rendering camera, which adds fresh noise to each frame.
pub(super) fn video_frames(name: &str) -> Vec<PathBuf> {
    video(name).back_and_forth(150).frames
}

pub(super) fn read(path: &PathBuf) -> Vec<u8> {
    std::fs::read(path).expect("frame")
}

pub(super) fn decode(path: &Path) -> RgbImage {
    load_rgb(path)
}

/// Start of the stretch of `seconds` in which the picture changes least (mean absolute
/// difference of consecutive 32×32 grey thumbnails of the whole frame): engine-independent.
fn stillest_start(frames: &[PathBuf], seconds: f32) -> usize {
    let window = (seconds * FPS) as usize;
    let thumbs: Vec<Vec<u8>> = frames
        .iter()
        .map(|p| {
            let img =
                image::imageops::resize(&decode(p), 32, 32, image::imageops::FilterType::Triangle);
            image::DynamicImage::ImageRgb8(img).to_luma8().into_raw()
        })
        .collect();
    let change: Vec<f32> = thumbs
        .windows(2)
        .map(|w| {
            w[0].iter()
                .zip(&w[1])
                .map(|(a, b)| f32::from(a.abs_diff(*b)))
                .sum::<f32>()
                / w[0].len() as f32
        })
        .collect();
    (0..change.len().saturating_sub(window))
        .min_by(|&a, &b| {
            let sum = |s: usize| change[s..s + window].iter().sum::<f32>();
            sum(a).total_cmp(&sum(b))
        })
        .unwrap_or(0)
}

/// The live cases of `half`.
pub fn live_cases(split: &Split, half: Half) -> Vec<Case> {
    let mut cases = Vec::new();
    for source in split.sources(half, "video/") {
        let name = source.trim_start_matches("video/").to_string();
        for (label, from_middle) in [("start", false), ("middle", true)] {
            let n = name.clone();
            cases.push(Case::new(
                "live",
                format!("{name}@{label}"),
                Truth::Live,
                vec![source.clone()],
                move || {
                    let frames = video_frames(&n);
                    let start = if from_middle {
                        frames.len().saturating_sub(9 * FPS as usize) / 2
                    } else {
                        0
                    };
                    frames[start..].iter().take(150).map(read).collect()
                },
            ));
        }
        let n = name.clone();
        let mut degraded = Case::new(
            "live 320x240 10fps q50",
            name.clone(),
            Truth::Live,
            vec![source.clone()],
            move || {
                let frames = video_frames(&n);
                // 15 → 10 fps: every third frame of each pair of two dropped
                (0..100)
                    .map(|i| i * 3 / 2)
                    .take_while(|&i| i < frames.len())
                    .map(|i| synth::degraded(&decode(&frames[i])))
                    .collect()
            },
        );
        degraded.fps = 10.0;
        cases.push(degraded);
        let n = name.clone();
        cases.push(Case::new(
            "live near-still",
            name.clone(),
            Truth::Live,
            vec![source.clone()],
            move || {
                let frames = video_frames(&n);
                let start = stillest_start(&frames, 6.0);
                frames[start..].iter().take(150).map(read).collect()
            },
        ));
        let n = name.clone();
        cases.push(Case::new(
            "live hand-held camera",
            name.clone(),
            Truth::Live,
            vec![source.clone()],
            move || {
                let mut rng = synth::case_rng(&format!("hand-held {n}"));
                let phase = rng.random_range(0.0..6.0f32);
                video_frames(&n)
                    .iter()
                    .take(150)
                    .enumerate()
                    .map(|(i, p)| synth::hand_held(&decode(p), i, phase, &mut rng))
                    .collect()
            },
        ));
        let n = name.clone();
        cases.push(Case::new(
            "live low light",
            name.clone(),
            Truth::Live,
            vec![source.clone()],
            move || {
                let mut rng = synth::case_rng(&format!("low light {n}"));
                video_frames(&n)
                    .iter()
                    .take(150)
                    .map(|p| synth::low_light(&decode(p), &mut rng))
                    .collect()
            },
        ));
    }
    for source in split.sources(half, "nuaa/") {
        for (name, paths) in nuaa_sequences("live", &source).into_iter().take(2) {
            cases.push(Case::new(
                "nuaa live (control)",
                name,
                Truth::Live,
                vec![source.clone()],
                move || paths.iter().map(read).collect(),
            ));
        }
    }
    cases
}

/// Whether every frame of a NUAA sequence is the same file: two live sequences of subject
/// 0007 are one image repeated (a capture that froze), which no camera sends and which the
/// injection layer rightly fails as a frozen stream, so they are no live control.
fn frozen(frames: &[PathBuf]) -> bool {
    let first = std::fs::read(&frames[0]).expect("nuaa frame");
    frames
        .iter()
        .all(|p| std::fs::read(p).expect("nuaa frame") == first)
}

/// The NUAA crops in `dir` (`<subject>_<session>_<a>_<b>_<frame>.jpg`), grouped by all but
/// the frame number, each group in capture order.
pub fn nuaa_capture_groups(dir: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut groups: BTreeMap<String, Vec<(u32, PathBuf)>> = BTreeMap::new();
    for file in std::fs::read_dir(dir).expect("nuaa subject").flatten() {
        let path = file.path();
        let stem = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Some((prefix, frame)) = stem.rsplit_once('_') else {
            continue;
        };
        let Ok(frame) = frame.parse() else { continue };
        groups
            .entry(prefix.to_string())
            .or_default()
            .push((frame, path));
    }
    groups
        .into_iter()
        .map(|(name, mut frames)| {
            frames.sort();
            (name, frames.into_iter().map(|(_, p)| p).collect())
        })
        .collect()
}

/// NUAA crops of `class` (`live` or `print`) of one subject, in capture order, as sequences;
/// frozen sequences (one image repeated) are left out.
pub fn nuaa_sequences(class: &str, source: &str) -> Vec<(String, Vec<PathBuf>)> {
    let subject = source.trim_start_matches("nuaa/");
    let dir = testdata().join("spoof/nuaa").join(class).join(subject);
    nuaa_capture_groups(&dir)
        .into_iter()
        .filter(|(_, frames)| frames.len() >= 20 && !frozen(frames))
        .map(|(name, frames)| (format!("{class}/{name}"), frames))
        .collect()
}
