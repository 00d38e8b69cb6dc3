//! Open-set 1:N identification as NIST's FRTE 1:N reports it (issue 68): a gallery of one image
//! per enrolled identity, mated probes (the enrolled identities' other images) and non-mated
//! probes (every image of identities left out of the gallery). Each probe is searched in a
//! [`GallerySearch`] for its best [`CMC_RANKS`] entries, scored with the model's calibrated
//! similarity: `facegate eval search` enrols the gallery in the embedded index the API searches
//! (its int8 scan and exact re-rank), [`ExactGallery`] scores every entry. The report gives
//! rank-1 and the CMC curve (to [`CMC_RANKS`]) of the mated probes, and FNIR at fixed FPIR.
//!
//! The split is deterministic: identities sorted by name, every other one enrolled (the 1st,
//! 3rd, ...), the others non-mated. An enrolled identity's first image (sorted by path) is its
//! gallery entry and the rest its mated probes.

use std::collections::HashSet;

use rayon::prelude::*;
use serde::Serialize;

use crate::Embedding;
use crate::compare::similarity_from_cosine;
use crate::evaluation::LabelledEmbedding;

/// The CMC curve's deepest rank.
pub const CMC_RANKS: usize = 20;

/// FNIR at one FPIR.
#[derive(Debug, Clone, Serialize)]
pub struct FnirAtFpir {
    pub fpir: f64,
    pub fnir: f64,
    /// A hit needs a similarity at or above this.
    pub threshold: f32,
}

/// The report of `facegate eval search`.
#[derive(Debug, Clone, Serialize)]
pub struct IdentificationReport {
    /// Enrolled identities, one gallery image each.
    pub gallery_size: usize,
    pub mated_probes: usize,
    pub non_mated_probes: usize,
    /// Images without a usable face (left out of every role).
    pub failed_images: usize,
    /// Share of mated probes whose best hit is their own identity.
    pub rank1: f64,
    /// `cmc[k]`: share of mated probes whose identity is among the best `k + 1` hits.
    pub cmc: Vec<f64>,
    pub fnir_at_fpir: Vec<FnirAtFpir>,
    /// DET points: (FPIR, FNIR) at each distinct non-mated top score, thinned to at most 200.
    pub det: Vec<(f64, f64)>,
}

/// A gallery the probes are searched in, made from its entries' embeddings in order.
pub trait GallerySearch: Sync {
    /// The best `k` entries for `probe`, best first: (the entry's position in the gallery, its
    /// cosine with the probe).
    fn best(&self, probe: &Embedding, k: usize) -> Vec<(usize, f32)>;
}

/// Every gallery entry scored with the exact cosine.
#[derive(Debug)]
pub struct ExactGallery(pub Vec<Embedding>);

impl GallerySearch for ExactGallery {
    fn best(&self, probe: &Embedding, k: usize) -> Vec<(usize, f32)> {
        let mut scored: Vec<(usize, f32)> = self
            .0
            .iter()
            .enumerate()
            .filter_map(|(i, e)| Some((i, probe.cosine(e).ok()?)))
            .collect();
        scored.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(k);
        scored
    }
}

/// One searched probe: the best similarity of any gallery entry, and for a mated probe its
/// mate's rank (0 = first) and similarity when it is among the best [`CMC_RANKS`].
struct Searched {
    top: f32,
    mate: Option<(usize, f32)>,
}

/// Splits `set`, enrols the gallery with `enrol` (its entries' embeddings in order), searches
/// every probe in it, and reports, calling `done` once for each usable image (a gallery entry
/// enrolled or a probe searched: a progress bar's tick). `None` when the split leaves no
/// gallery, no mated or no non-mated probe.
pub fn identification_report(
    set: &[LabelledEmbedding],
    enrol: &dyn Fn(&[Embedding]) -> Box<dyn GallerySearch>,
    done: &(dyn Fn() + Sync),
) -> Option<IdentificationReport> {
    let usable: Vec<(&str, &Embedding)> = set
        .iter()
        .filter_map(|l| l.embedding.as_ref().ok().map(|e| (l.identity.as_str(), e)))
        .collect();
    let mut identities: Vec<&str> = usable.iter().map(|(id, _)| *id).collect();
    identities.sort_unstable();
    identities.dedup();
    let enrolled = |id: &str| identities.binary_search(&id).is_ok_and(|i| i % 2 == 0);
    let mut gallery: Vec<(&str, &Embedding)> = Vec::new();
    let mut in_gallery: HashSet<&str> = HashSet::new();
    let (mut mated, mut non_mated) = (Vec::new(), Vec::new());
    for (id, embedding) in &usable {
        if !enrolled(id) {
            non_mated.push(*embedding);
        } else if in_gallery.insert(id) {
            gallery.push((id, embedding));
            done();
        } else {
            mated.push((*id, *embedding));
        }
    }
    if gallery.is_empty() || mated.is_empty() || non_mated.is_empty() {
        return None;
    }
    let index = enrol(
        &gallery
            .iter()
            .map(|(_, e)| (*e).clone())
            .collect::<Vec<_>>(),
    );
    let search = |probe: &Embedding, identity: Option<&str>| -> Searched {
        let hits: Vec<(&str, f32)> = index
            .best(probe, CMC_RANKS)
            .into_iter()
            .filter_map(|(i, cosine)| {
                let (g, _) = gallery.get(i)?;
                Some((*g, similarity_from_cosine(probe.face_model, cosine)))
            })
            .collect();
        let top = hits.first().map_or(f32::MIN, |(_, s)| *s);
        let mate = identity.and_then(|id| {
            let rank = hits.iter().position(|(g, _)| *g == id)?;
            Some((rank, hits[rank].1))
        });
        done();
        Searched { top, mate }
    };
    let mated: Vec<Searched> = mated
        .par_iter()
        .map(|(id, e)| search(e, Some(id)))
        .collect();
    let mut non_mated_tops: Vec<f32> = non_mated.par_iter().map(|e| search(e, None).top).collect();
    non_mated_tops.sort_unstable_by(|a, b| b.total_cmp(a));
    let mated_count = mated.len() as f64;
    let cmc: Vec<f64> = (0..CMC_RANKS)
        .map(|k| {
            let found = mated
                .iter()
                .filter(|m| m.mate.is_some_and(|(rank, _)| rank <= k))
                .count();
            found as f64 / mated_count
        })
        .collect();
    // a mated probe is found at `threshold` when its mate ranks first at or above it
    let fnir = |threshold: f32| {
        let found = mated
            .iter()
            .filter(|m| m.mate.is_some_and(|(rank, s)| rank == 0 && s >= threshold))
            .count();
        1.0 - found as f64 / mated_count
    };
    let fnir_at_fpir = [1e-2, 1e-3]
        .into_iter()
        .map(|fpir| {
            // the lowest threshold at which at most `fpir` of non-mated probes get a hit
            let allowed = (fpir * non_mated_tops.len() as f64).floor() as usize;
            let threshold = non_mated_tops
                .get(allowed)
                .map_or(f32::MIN, |s| s.next_up());
            FnirAtFpir {
                fpir,
                fnir: fnir(threshold),
                threshold,
            }
        })
        .collect();
    Some(IdentificationReport {
        gallery_size: gallery.len(),
        mated_probes: mated.len(),
        non_mated_probes: non_mated_tops.len(),
        failed_images: set.len() - usable.len(),
        rank1: cmc[0],
        cmc,
        fnir_at_fpir,
        det: det_points(&non_mated_tops, &fnir),
    })
}

/// (FPIR, FNIR) with the threshold just above each distinct non-mated top score (sorted best
/// first), thinned to at most 200 points.
fn det_points(non_mated_tops: &[f32], fnir: &dyn Fn(f32) -> f64) -> Vec<(f64, f64)> {
    let total = non_mated_tops.len() as f64;
    let step = non_mated_tops.len().div_ceil(200).max(1);
    (0..non_mated_tops.len())
        .step_by(step)
        .map(|i| {
            let threshold = non_mated_tops[i].next_up();
            let above = non_mated_tops.partition_point(|s| *s >= threshold);
            (above as f64 / total, fnir(threshold))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::{ExactGallery, GallerySearch, identification_report};
    use crate::evaluation::LabelledEmbedding;
    use crate::{Embedding, FaceModel};

    /// A unit vector near axis `axis` of 8 (identity `axis`), pulled toward axis 7 by `blur`.
    fn image(identity: &str, axis: usize, blur: f32) -> LabelledEmbedding {
        let mut vector = vec![0.0f32; 8];
        vector[axis] = 1.0;
        vector[7] += blur;
        let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
        LabelledEmbedding {
            identity: identity.into(),
            path: PathBuf::from(format!("{identity}/{blur}.jpg")),
            embedding: Ok(Embedding {
                model: "test".into(),
                face_model: FaceModel::Sface,
                vector: vector.into_iter().map(|v| v / norm).collect(),
            }),
        }
    }

    fn exact(gallery: &[Embedding]) -> Box<dyn GallerySearch> {
        Box::new(ExactGallery(gallery.to_vec()))
    }

    #[test]
    fn the_split_the_ranks_and_the_miss_rates_follow_the_scores() {
        // a, c, e enrolled (every other name), b, d non-mated; c's second image is closer to
        // the shared axis than to c, so it ranks its mate second
        let set = vec![
            image("a", 0, 0.0),
            image("a", 0, 0.2),
            image("b", 1, 0.0),
            image("c", 2, 0.0),
            image("c", 2, 3.0),
            image("d", 3, 0.1),
            image("e", 7, 0.0),
        ];
        let report =
            identification_report(&set, &exact, &|| {}).expect("a gallery and both kinds of probe");
        assert_eq!(report.gallery_size, 3);
        assert_eq!((report.mated_probes, report.non_mated_probes), (2, 2));
        assert_eq!(report.rank1, 0.5, "a's probe first, c's second behind e");
        assert_eq!(report.cmc[1], 1.0);
        assert!(report.cmc.windows(2).all(|w| w[0] <= w[1]));
        // the non-mated tops are well below a's mate: at FPIR 1e-2 only a is found
        assert!(
            (report.fnir_at_fpir[0].fnir - 0.5).abs() < 1e-9,
            "{report:?}"
        );
        assert!(
            report
                .det
                .iter()
                .all(|(fpir, fnir)| (0.0..=1.0).contains(fpir) && (0.0..=1.0).contains(fnir))
        );
    }

    #[test]
    fn a_set_without_non_mated_probes_gives_no_report() {
        let set = vec![image("a", 0, 0.0), image("a", 0, 0.1)];
        assert!(identification_report(&set, &exact, &|| {}).is_none());
    }
}
