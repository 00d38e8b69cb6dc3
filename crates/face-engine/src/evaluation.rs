//! Accuracy measurement for users and tests: embeds a `DIR/<identity>/*` tree and computes
//! pair counts, ROC AUC, TAR at fixed FAR, EER and a recommended threshold. Pairs are scored
//! in parallel and every rate comes from sorted scores (binary searches), so an LFW-size set
//! (13k images, 87M pairs) is a matter of seconds after its embeddings (issue 68).

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::{Embedding, FaceEngine, FaceModel, Image};

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

/// Lists `dir/<identity>/<image>` files, sorted. Identity folders may be symbolic links (a
/// set pooled from several others without copying them).
pub fn list_identity_images(dir: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.path().is_dir() {
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

/// Embeds the primary face of each image with the embedder of `model`, in parallel.
pub fn embed_identity_set(
    engine: &FaceEngine,
    model: FaceModel,
    dir: &Path,
) -> std::io::Result<Vec<LabelledEmbedding>> {
    Ok(embed_files(
        engine,
        model,
        list_identity_images(dir)?,
        &|| {},
    ))
}

/// Embeds the primary face of each `(identity, path)` with the embedder of `model`, in
/// parallel, calling `done` after each image (a progress bar's tick).
pub fn embed_files(
    engine: &FaceEngine,
    model: FaceModel,
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
                    engine
                        .embed_face(model, &img, &face)
                        .map_err(|e| e.to_string())
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

/// Similarity scores of all genuine and all impostor pairs, scored in parallel (one row of
/// pairs a task). Pairs of two face models are not scored (a set is embedded by one model).
pub fn pair_scores(engine: &FaceEngine, set: &[LabelledEmbedding]) -> (Vec<f32>, Vec<f32>) {
    let ok: Vec<(&str, &Embedding)> = set
        .iter()
        .filter_map(|l| l.embedding.as_ref().ok().map(|e| (l.identity.as_str(), e)))
        .collect();
    (0..ok.len())
        .into_par_iter()
        .map(|i| {
            let (mut genuine, mut impostor) = (Vec::new(), Vec::new());
            for j in i + 1..ok.len() {
                let Ok(s) = engine.compare(ok[i].1, ok[j].1) else {
                    continue;
                };
                if ok[i].0 == ok[j].0 {
                    genuine.push(s)
                } else {
                    impostor.push(s)
                }
            }
            (genuine, impostor)
        })
        .reduce(
            || (Vec::new(), Vec::new()),
            |(mut genuine, mut impostor), (g, i)| {
                genuine.extend(g);
                impostor.extend(i);
                (genuine, impostor)
            },
        )
}

/// The false-accept rates reported, down to the finest one the impostor count supports (at
/// least ten impostor pairs above the threshold's rate: 1e-6 needs 10M pairs).
fn reported_fars(impostor_pairs: usize) -> Vec<f64> {
    let mut fars = vec![1e-2, 1e-3, 1e-4];
    for finer in [1e-5, 1e-6] {
        if finer * impostor_pairs as f64 >= 10.0 {
            fars.push(finer);
        }
    }
    fars
}

/// Computes the report from score lists (higher = more similar).
pub fn verification_report(
    genuine: &[f32],
    impostor: &[f32],
    images: usize,
    failed_images: usize,
) -> VerificationReport {
    let mut gen_sorted = genuine.to_vec();
    gen_sorted.par_sort_unstable_by(|a, b| a.total_cmp(b));
    let mut imp_sorted = impostor.to_vec();
    imp_sorted.par_sort_unstable_by(|a, b| a.total_cmp(b));
    let (genuine_count, impostor_count) = (gen_sorted.len().max(1), imp_sorted.len().max(1));
    // shares of genuine pairs strictly above `t`, and of impostor pairs at or above it
    let tar_above = |t: f32| {
        (gen_sorted.len() - gen_sorted.partition_point(|&g| g <= t)) as f64 / genuine_count as f64
    };
    let far_from = |t: f32| {
        (imp_sorted.len() - imp_sorted.partition_point(|&x| x < t)) as f64 / impostor_count as f64
    };
    let tar_at_far: Vec<TarAtFar> = reported_fars(imp_sorted.len())
        .into_iter()
        .map(|far| {
            let allowed = (far * imp_sorted.len() as f64).floor() as usize;
            let threshold = imp_sorted
                .len()
                .checked_sub(allowed + 1)
                .and_then(|i| imp_sorted.get(i))
                .copied()
                .unwrap_or(0.0);
            TarAtFar {
                far,
                tar: tar_above(threshold),
                threshold,
            }
        })
        .collect();
    // AUC by Mann-Whitney
    let auc_sum: f64 = gen_sorted
        .par_iter()
        .map(|&g| {
            let below = imp_sorted.partition_point(|&x| x < g);
            let not_above = imp_sorted.partition_point(|&x| x <= g);
            below as f64 + 0.5 * (not_above - below) as f64
        })
        .sum();
    let auc = auc_sum / (genuine_count * impostor_count) as f64;
    // EER: every observed score as a threshold, each rate from a binary search
    let eer_at = |t: f32| {
        let frr = 1.0 - tar_above(t - 1e-7);
        let far = far_from(t);
        ((frr - far).abs(), (frr + far) / 2.0, t)
    };
    let best = gen_sorted
        .par_iter()
        .chain(imp_sorted.par_iter())
        .map(|&t| eer_at(t))
        .reduce(
            || (f64::MAX, 0.0f64, 0.0f32),
            |a, b| {
                if b.0 < a.0 || (b.0 == a.0 && b.2 < a.2) {
                    b
                } else {
                    a
                }
            },
        );
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
        max_impostor: imp_sorted.last().copied().unwrap_or(0.0),
        min_genuine: gen_sorted.first().copied().unwrap_or(f32::MAX),
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
    fn the_sorted_sweep_reports_what_counting_every_pair_reports() {
        // a deterministic spread with ties: scores on a 1/64 grid
        let genuine: Vec<f32> = (0..300)
            .map(|i| ((i * 37 % 64) as f32 / 64.0).max(0.3))
            .collect();
        let impostor: Vec<f32> = (0..5000).map(|i| (i * 11 % 48) as f32 / 64.0).collect();
        let r = verification_report(&genuine, &impostor, 100, 0);
        let count_tar = |t: f32| genuine.iter().filter(|&&g| g > t).count() as f64 / 300.0;
        for point in &r.tar_at_far {
            assert!((point.tar - count_tar(point.threshold)).abs() < 1e-12);
            let above = impostor.iter().filter(|&&x| x > point.threshold).count() as f64;
            assert!(above / 5000.0 <= point.far, "{point:?}");
        }
        let mut brute = (f64::MAX, 0.0f64, 0.0f32);
        for &t in genuine.iter().chain(&impostor) {
            let frr = 1.0 - count_tar(t - 1e-7);
            let far = impostor.iter().filter(|&&x| x >= t).count() as f64 / 5000.0;
            if (frr - far).abs() < brute.0 || ((frr - far).abs() == brute.0 && t < brute.2) {
                brute = ((frr - far).abs(), (frr + far) / 2.0, t);
            }
        }
        assert_eq!((r.eer, r.eer_threshold), (brute.1, brute.2));
        assert_eq!(
            r.tar_at_far.len(),
            3,
            "5,000 impostor pairs support FAR 1e-4 at most"
        );
    }

    #[test]
    fn identical_distributions_give_auc_one_half() {
        let s = [0.1, 0.2, 0.3, 0.4];
        let r = verification_report(&s, &s, 8, 0);
        assert!((r.auc - 0.5).abs() < 1e-9);
    }
}
