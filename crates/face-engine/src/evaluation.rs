//! Accuracy measurement for users and tests: embeds a `DIR/<identity>/*` tree and computes
//! pair counts, ROC AUC, TAR at fixed FAR, EER and a recommended threshold.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::{Embedding, FaceEngine, Image};

/// One image of an identity set and its embedding, or why it has none.
#[derive(Debug, Clone)]
pub struct LabelledEmbedding {
    pub identity: String,
    pub path: PathBuf,
    pub embedding: Result<Embedding, String>,
}

/// TAR at one false-accept rate.
#[derive(Debug, Clone, Serialize)]
pub struct TarAtFar {
    pub far: f64,
    pub tar: f64,
    /// Accept when similarity is strictly above this.
    pub threshold: f32,
}

/// The verification report printed by `facegate eval verify`.
#[derive(Debug, Clone, Serialize)]
pub struct VerificationReport {
    pub images: usize,
    pub failed_images: usize,
    pub genuine_pairs: usize,
    pub impostor_pairs: usize,
    pub auc: f64,
    pub tar_at_far: Vec<TarAtFar>,
    pub eer: f64,
    pub eer_threshold: f32,
    /// The threshold at FAR 1e-3 (or the finest FAR the impostor count supports).
    pub recommended_threshold: f32,
    pub max_impostor: f32,
    pub min_genuine: f32,
}

fn is_image(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("jpg" | "jpeg" | "png")
    )
}

/// Lists `dir/<identity>/<image>` files, sorted.
pub fn list_identity_images(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_type()?.is_dir() {
            continue;
        }
        let identity = entry.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(entry.path())? {
            let path = file?.path();
            if path.is_file() && is_image(&path) {
                out.push((identity.clone(), path));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Embeds the primary face of each image, in parallel.
pub fn embed_identity_set(
    engine: &FaceEngine,
    dir: &Path,
) -> std::io::Result<Vec<LabelledEmbedding>> {
    Ok(embed_files(engine, list_identity_images(dir)?, &|| {}))
}

/// Embeds the primary face of each `(identity, path)`, in parallel, calling `done` after each
/// image (a progress bar's tick).
pub fn embed_files(
    engine: &FaceEngine,
    files: Vec<(String, PathBuf)>,
    done: &(dyn Fn() + Sync),
) -> Vec<LabelledEmbedding> {
    files
        .into_par_iter()
        .map(|(identity, path)| {
            let embedding = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|bytes| Image::decode(&bytes).map_err(|e| e.to_string()))
                .and_then(|img| {
                    let face = engine.primary_face(&img).map_err(|e| e.to_string())?;
                    engine.embed_face(&img, &face).map_err(|e| e.to_string())
                });
            done();
            LabelledEmbedding {
                identity,
                path,
                embedding,
            }
        })
        .collect()
}

/// Similarity scores of all genuine and all impostor pairs.
pub fn pair_scores(engine: &FaceEngine, set: &[LabelledEmbedding]) -> (Vec<f32>, Vec<f32>) {
    let ok: Vec<(&str, &Embedding)> = set
        .iter()
        .filter_map(|l| l.embedding.as_ref().ok().map(|e| (l.identity.as_str(), e)))
        .collect();
    let (mut genuine, mut impostor) = (Vec::new(), Vec::new());
    for i in 0..ok.len() {
        for j in i + 1..ok.len() {
            let s = engine.compare(ok[i].1, ok[j].1);
            if ok[i].0 == ok[j].0 {
                genuine.push(s)
            } else {
                impostor.push(s)
            }
        }
    }
    (genuine, impostor)
}

/// Computes the report from score lists (higher = more similar).
pub fn verification_report(
    genuine: &[f32],
    impostor: &[f32],
    images: usize,
    failed_images: usize,
) -> VerificationReport {
    let mut imp: Vec<f32> = impostor.to_vec();
    imp.sort_by(|a, b| b.total_cmp(a));
    let tar_above =
        |t: f32| genuine.iter().filter(|&&g| g > t).count() as f64 / genuine.len().max(1) as f64;
    let tar_at_far: Vec<TarAtFar> = [1e-2, 1e-3, 1e-4]
        .into_iter()
        .map(|far| {
            let allowed = (far * imp.len() as f64).floor() as usize;
            let threshold = imp.get(allowed).copied().unwrap_or(0.0);
            TarAtFar {
                far,
                tar: tar_above(threshold),
                threshold,
            }
        })
        .collect();
    // AUC by Mann-Whitney
    let mut auc_sum = 0.0f64;
    let mut imp_sorted_asc = impostor.to_vec();
    imp_sorted_asc.sort_by(|a, b| a.total_cmp(b));
    for &g in genuine {
        let below = imp_sorted_asc.partition_point(|&x| x < g);
        let not_above = imp_sorted_asc.partition_point(|&x| x <= g);
        auc_sum += below as f64 + 0.5 * (not_above - below) as f64;
    }
    let auc = auc_sum / (genuine.len().max(1) * impostor.len().max(1)) as f64;
    // EER: sweep every observed score as a threshold
    let mut best = (f64::MAX, 0.0f64, 0.0f32);
    for &t in genuine.iter().chain(impostor) {
        let frr = 1.0 - tar_above(t - 1e-7);
        let far =
            impostor.iter().filter(|&&x| x >= t).count() as f64 / impostor.len().max(1) as f64;
        if (frr - far).abs() < best.0 {
            best = ((frr - far).abs(), (frr + far) / 2.0, t);
        }
    }
    VerificationReport {
        images,
        failed_images,
        genuine_pairs: genuine.len(),
        impostor_pairs: impostor.len(),
        auc,
        recommended_threshold: tar_at_far[1].threshold,
        tar_at_far,
        eer: best.1,
        eer_threshold: best.2,
        max_impostor: imp.first().copied().unwrap_or(0.0),
        min_genuine: genuine.iter().copied().fold(f32::MAX, f32::min),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfectly_separated_scores_give_auc_one_and_eer_zero() {
        let genuine = [0.8, 0.9, 0.95];
        let impostor = [0.1, 0.2, 0.3, 0.05];
        let r = verification_report(&genuine, &impostor, 7, 0);
        assert!((r.auc - 1.0).abs() < 1e-9);
        assert!(r.eer < 1e-9);
        assert!(r.tar_at_far.iter().all(|t| (t.tar - 1.0).abs() < 1e-9));
    }

    #[test]
    fn identical_distributions_give_auc_one_half() {
        let s = [0.1, 0.2, 0.3, 0.4];
        let r = verification_report(&s, &s, 8, 0);
        assert!((r.auc - 0.5).abs() < 1e-9);
    }
}
