//! `facegate eval`: accuracy reports on a user's own data (`verify` on `DIR/<identity>/*`,
//! `detect` on a folder of images, `liveness` on recordings: see `eval_liveness`).

use std::path::{Path, PathBuf};

use clap::Subcommand;
use face_engine::Embedding;
use face_engine::evaluation::{
    LabelledEmbedding, embed_files, list_identity_images, pair_scores, verification_report,
};
use face_engine::identification::{GallerySearch, identification_report};
use face_engine::{DetectOptions, FaceEngine, FaceModel, Image};
use liveness_engine::SessionMode;
use liveness_rig::camera_model::CameraFamily;
use rayon::prelude::*;

use services::Settings;
use services::storage::vector::CollectionMatrices;

use crate::eval_liveness::LightSceneArg;
use crate::progress::progress;

#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// Verification accuracy on DIR/{identity}/{image}: pair counts, AUC, TAR@FAR, EER.
    Verify {
        dir: PathBuf,
        /// Also write OUT/report.html (ROC and DET curves, score histograms; offline) and each
        /// chart as an SVG beside it.
        #[arg(long, value_name = "OUT")]
        report: Option<PathBuf>,
        /// The face model that embeds the images: `sface` (the default) or `fr_feature`.
        #[arg(long, value_name = "MODEL", default_value = "sface", value_parser = face_model_arg)]
        face_model: FaceModel,
    },
    /// Open-set 1:N identification on DIR/{identity}/{image}, as NIST's FRTE 1:N reports it:
    /// every other identity (by name) enrolled with its first image, its other images mated
    /// probes, the rest non-mated probes; rank-1, CMC, FNIR at FPIR 1e-2 and 1e-3, DET points.
    Search {
        dir: PathBuf,
        /// Also write the report as OUT/search.json.
        #[arg(long, value_name = "OUT")]
        report: Option<PathBuf>,
        /// The face model that embeds the images: `sface` (the default) or `fr_feature`.
        #[arg(long, value_name = "MODEL", default_value = "sface", value_parser = face_model_arg)]
        face_model: FaceModel,
    },
    /// Faces found per image in DIR.
    Detect { dir: PathBuf },
    /// Liveness verdicts on recordings: DIR holds JPEG frames in capture order, or folders of
    /// them. Prints one JSON line per recording, then a table.
    Liveness {
        #[arg(long, value_enum, default_value = "active")]
        mode: ModeArg,
        dir: PathBuf,
        /// Capture rate of the frames.
        #[arg(long, default_value_t = 15.0)]
        fps: f32,
        /// A recording shorter than this many seconds plays on back and forth until it lasts
        /// that long, as a person who keeps holding would (a clip shorter than a session is
        /// not a person who left). Off by default: each recording plays once.
        #[arg(long, value_name = "SECONDS")]
        play_for: Option<f32>,
        /// Render the screen's light onto the recordings (simulated; docs/accuracy.md) at this
        /// screen-to-ambient ratio (0.05 a bright office, 0.3 a dim room) and judge it with
        /// the light check. Without it the light check is off for the evaluation.
        #[arg(long)]
        light_ratio: Option<f32>,
        /// What the rendered light falls on; `by-class`: each class of recordings by its
        /// folder's name (`live…`, `print…`, `replay…`, `injected…`, `tinted…`,
        /// `other-sequence…`), so one run holds live people and attacks.
        #[arg(long, value_enum, default_value = "live-face")]
        light_scene: LightSceneArg,
        /// Seed of the sessions' draws and of the rendering camera (delay, jitter, noise).
        #[arg(long, default_value_t = 29)]
        seed: u64,
        /// Which cameras film the rendered light: `reference` (the single camera of issue 29),
        /// `all` (each recording draws a camera of the family from the seed: white balance,
        /// exposure, tone curve, delay 30-480 ms, 8-30 fps; docs/liveness.md) or one family.
        #[arg(long, value_enum, default_value = "reference")]
        camera: CameraArg,
        /// Also write OUT/report.html (the verdicts of each class of recordings, a chart, one
        /// row per recording; offline). A lit passive run adds the fitted decision's DET curve
        /// per attack class against the `live…` classes, its pass point marked.
        #[arg(long, value_name = "OUT")]
        report: Option<PathBuf>,
        /// Open every session on the no-flash path (no colours; a passive session asks head
        /// turns and is judged as an active one: docs/liveness.md). Not with `--light-ratio`.
        #[arg(long, conflicts_with = "light_ratio")]
        no_flash: bool,
    },
}

/// `--camera` values (`liveness_rig::camera_model::CameraFamily`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CameraArg {
    Reference,
    All,
    Webcam,
    PhoneGreyWorld,
    PhoneWhitePatch,
    SlowPhone,
    BrightRoom,
}

impl CameraArg {
    /// The families a camera is drawn from; empty for the reference camera.
    pub fn families(self) -> Vec<CameraFamily> {
        match self {
            Self::Reference => Vec::new(),
            Self::All => CameraFamily::ALL.to_vec(),
            Self::Webcam => vec![CameraFamily::Webcam],
            Self::PhoneGreyWorld => vec![CameraFamily::PhoneGreyWorld],
            Self::PhoneWhitePatch => vec![CameraFamily::PhoneWhitePatch],
            Self::SlowPhone => vec![CameraFamily::SlowPhone],
            Self::BrightRoom => vec![CameraFamily::BrightRoom],
        }
    }
}

/// `--mode` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ModeArg {
    Active,
    Passive,
}

pub fn run(settings: &Settings, command: EvalCommand) -> Result<(), String> {
    let engine = settings.models.load_engine().map_err(|e| e.to_string())?;
    match command {
        EvalCommand::Verify {
            dir,
            report,
            face_model,
        } => verify(&engine, face_model, &dir, report.as_deref()),
        EvalCommand::Search {
            dir,
            report,
            face_model,
        } => search(&engine, face_model, &dir, report.as_deref()),
        EvalCommand::Detect { dir } => detect(&engine, &dir, settings.limits.max_image_pixels),
        EvalCommand::Liveness {
            mode,
            dir,
            fps,
            play_for,
            light_ratio,
            light_scene,
            seed,
            camera,
            report,
            no_flash,
        } => {
            let mode = match mode {
                ModeArg::Active => SessionMode::Active,
                ModeArg::Passive => SessionMode::Passive,
            };
            let light = crate::eval_liveness::RenderedLight::new(
                light_ratio,
                light_scene,
                seed,
                camera.families(),
            )?;
            let path = if no_flash {
                liveness_engine::LivenessPath::NoFlash
            } else {
                liveness_engine::LivenessPath::Light
            };
            let playback = crate::eval_liveness::Playback {
                fps,
                play_for,
                path,
            };
            crate::eval_liveness::run(engine, mode, (&dir, report.as_deref()), playback, light)
        }
    }
}

/// `--face-model`: a shipped model's API name.
fn face_model_arg(name: &str) -> Result<FaceModel, String> {
    FaceModel::parse(name).ok_or_else(|| format!("one of: {}", FaceModel::names()))
}

/// Embeds every `DIR/<identity>/<image>` with `model`, with a progress bar; a folder without
/// that layout is an error that says so.
fn embed_identity_dir(
    engine: &FaceEngine,
    model: FaceModel,
    dir: &Path,
) -> Result<Vec<LabelledEmbedding>, String> {
    let files = list_identity_images(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if files.is_empty() {
        return Err(format!(
            "{}: no images in DIR/<identity>/<image> layout (JPEG or PNG files in one folder per person)",
            dir.display()
        ));
    }
    let bar = progress(files.len(), "embedding");
    let set = embed_files(engine, model, files, &|| bar.inc(1));
    bar.finish_and_clear();
    println!("face model        {model}");
    Ok(set)
}

fn search(
    engine: &FaceEngine,
    model: FaceModel,
    dir: &Path,
    report_dir: Option<&Path>,
) -> Result<(), String> {
    let set = embed_identity_dir(engine, model, dir)?;
    let usable = set.iter().filter(|l| l.embedding.is_ok()).count();
    let bar = progress(usable, "searching");
    let report = identification_report(&set, &IndexedGallery::enrol, &|| bar.inc(1));
    bar.finish_and_clear();
    let r = report.ok_or("need identities enough for a gallery, mated probes (a second image of an enrolled identity) and non-mated probes")?;
    println!(
        "gallery           {} identities, one image each",
        r.gallery_size
    );
    println!(
        "probes            {} mated, {} non-mated ({} images without a usable face)",
        r.mated_probes, r.non_mated_probes, r.failed_images
    );
    println!("rank-1            {:.4}", r.rank1);
    println!("CMC rank 5 / 10   {:.4} / {:.4}", r.cmc[4], r.cmc[9]);
    for point in &r.fnir_at_fpir {
        println!(
            "FNIR @ FPIR {:<5} {:.4}  threshold {:.3}",
            point.fpir, point.fnir, point.threshold
        );
    }
    let json = serde_json::to_string(&r).map_err(|e| e.to_string())?;
    println!("{json}");
    if let Some(out) = report_dir {
        std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let path = out.join("search.json");
        std::fs::write(&path, json).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("report: {}", path.display());
    }
    Ok(())
}

/// The gallery of `eval search` in the embedded index a collection's search runs on (its int8
/// scan and exact re-rank, `storage::vector`), one face an entry, the entry's position its id.
struct IndexedGallery(CollectionMatrices);

/// The one collection an evaluation's gallery is.
const GALLERY: uuid::Uuid = uuid::Uuid::nil();

impl IndexedGallery {
    fn enrol(gallery: &[Embedding]) -> Box<dyn GallerySearch> {
        let index = CollectionMatrices::new();
        let vectors: Vec<(uuid::Uuid, Vec<f32>)> = gallery
            .iter()
            .enumerate()
            .map(|(i, e)| (uuid::Uuid::from_u128(i as u128), e.vector.clone()))
            .collect();
        index.load_collection(GALLERY, &vectors);
        Box::new(Self(index))
    }
}

impl GallerySearch for IndexedGallery {
    fn best(&self, probe: &Embedding, k: usize) -> Vec<(usize, f32)> {
        self.0
            .search(GALLERY, &probe.vector, k, -1.0)
            .into_iter()
            .map(|hit| (hit.face_id.as_u128() as usize, hit.cosine))
            .collect()
    }
}

fn verify(
    engine: &FaceEngine,
    model: FaceModel,
    dir: &Path,
    report_dir: Option<&Path>,
) -> Result<(), String> {
    let set = embed_identity_dir(engine, model, dir)?;
    for failed in set.iter().filter(|l| l.embedding.is_err()) {
        if let Err(reason) = &failed.embedding {
            eprintln!("skipped {}: {reason}", failed.path.display());
        }
    }
    let failed = set.iter().filter(|l| l.embedding.is_err()).count();
    let (genuine, impostor) = pair_scores(engine, &set);
    if genuine.is_empty() || impostor.is_empty() {
        return Err("need at least two identities with two usable images each".into());
    }
    let r = verification_report(&genuine, &impostor, set.len(), failed);
    println!(
        "images            {} ({} without a usable face)",
        r.images, r.failed_images
    );
    println!(
        "pairs             {} genuine, {} impostor",
        r.genuine_pairs, r.impostor_pairs
    );
    println!("ROC AUC           {:.4}", r.auc);
    for t in &r.tar_at_far {
        let note = if (t.far * r.impostor_pairs as f64) < 1.0 {
            "  (FAR finer than 1/impostor pairs: threshold = highest impostor)"
        } else {
            ""
        };
        println!(
            "TAR @ FAR {:<7} {:.4}  threshold {:.3}{note}",
            t.far, t.tar, t.threshold
        );
    }
    println!("EER               {:.4} at {:.3}", r.eer, r.eer_threshold);
    println!(
        "recommended       similarity > {:.3} (FAR 1e-3)",
        r.recommended_threshold
    );
    println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
    if let Some(out) = report_dir {
        let page = crate::eval_report::write_verification(out, dir, &r, &genuine, &impostor)?;
        eprintln!("report: {}", page.display());
    }
    Ok(())
}

fn detect(engine: &FaceEngine, dir: &Path, max_pixels: u64) -> Result<(), String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let rows: Vec<(PathBuf, Result<usize, String>)> = files
        .into_par_iter()
        .map(|path| {
            let counted = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|b| Image::decode_with_limit(&b, max_pixels).map_err(|e| e.to_string()))
                .and_then(|img| {
                    engine
                        .detect(&img, &DetectOptions::default())
                        .map_err(|e| e.to_string())
                })
                .map(|faces| faces.len());
            (path, counted)
        })
        .collect();
    let mut total = 0;
    for (path, counted) in &rows {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        match counted {
            Ok(n) => {
                total += n;
                println!("{name}\t{n}");
            }
            Err(reason) => println!("{name}\terror: {reason}"),
        }
    }
    println!("total\t{total} faces in {} images", rows.len());
    Ok(())
}

#[cfg(test)]
mod tests {
    use face_engine::identification::{ExactGallery, GallerySearch};
    use face_engine::{Embedding, FaceModel};
    use services::storage::vector::pseudo_random_unit_vector;

    use super::IndexedGallery;

    fn embedding(vector: Vec<f32>) -> Embedding {
        Embedding {
            model: "test".into(),
            face_model: FaceModel::Sface,
            vector,
        }
    }

    /// A second photo of gallery entry `i`: its vector moved toward another random direction.
    fn probe_near(gallery: &[Embedding], i: usize, seed: u64) -> Embedding {
        let noise = pseudo_random_unit_vector(seed, 128);
        let moved: Vec<f32> = gallery[i]
            .vector
            .iter()
            .zip(&noise)
            .map(|(g, n)| 0.7 * g + 0.7 * n)
            .collect();
        let norm = moved.iter().map(|v| v * v).sum::<f32>().sqrt();
        embedding(moved.into_iter().map(|v| v / norm).collect())
    }

    #[test]
    fn the_index_finds_what_the_exact_scan_finds() {
        let gallery: Vec<Embedding> = (0..3_000)
            .map(|seed| embedding(pseudo_random_unit_vector(seed, 128)))
            .collect();
        let indexed = IndexedGallery::enrol(&gallery);
        let exact = ExactGallery(gallery.clone());
        for i in (0..gallery.len()).step_by(100) {
            let probe = probe_near(&gallery, i, 10_000 + i as u64);
            let (by_index, by_scan) = (indexed.best(&probe, 20), exact.best(&probe, 20));
            assert_eq!(by_index[0].0, i, "the mate first");
            let ids = |hits: &[(usize, f32)]| hits.iter().map(|h| h.0).collect::<Vec<_>>();
            assert_eq!(ids(&by_index), ids(&by_scan), "probe {i}");
            for (a, b) in by_index.iter().zip(&by_scan) {
                assert!((a.1 - b.1).abs() < 1e-5, "probe {i}: {a:?} against {b:?}");
            }
        }
    }
}
