//! The ops our kernels replace, counted per model: the counts are fixed by each model's graph
//! and by tract's version (pinned exactly in `crates/inference`). An upgrade, or an op that
//! tract renames, that made a rewrite miss its ops would keep every output right and every
//! other test green while the speed-up (`docs/benchmarks.md`) quietly went away; this test is
//! where that shows.

use crate::common;

use facegate_face_engine::{FaceEngine, Kernels, ModelRole, RewriteCounts};

fn counts(
    depthwise: usize,
    prelu: usize,
    softmax: usize,
    max_pool: usize,
    dead_weights: usize,
) -> RewriteCounts {
    RewriteCounts {
        depthwise,
        prelu,
        softmax,
        max_pool,
        dead_weights,
    }
}

#[test]
fn every_model_has_its_expected_rewrites() {
    let engine = common::engine();
    for role in ModelRole::ALL {
        println!("{role}: {:?}", engine.rewrite_counts(role));
    }
    let expected = [
        // depthwise, PReLU, softmax, max pool, dead weights (values below 1e-30; only the
        // embedder has any)
        (ModelRole::DetectorSelfie, counts(16, 0, 0, 3, 0)),
        (ModelRole::DetectorGroup, counts(18, 0, 1, 0, 0)),
        (ModelRole::Landmarks, counts(20, 23, 0, 5, 0)),
        (ModelRole::Embedder, counts(17, 33, 0, 0, 119_016)),
        (ModelRole::EmbedderSface, counts(13, 27, 0, 0, 0)),
        (ModelRole::AntiSpoof, counts(17, 33, 0, 0, 0)),
    ];
    for (role, expected) in expected {
        assert_eq!(engine.rewrite_counts(role), expected, "{role}");
    }
}

#[test]
fn plain_tract_rewrites_nothing() {
    let plain =
        FaceEngine::load_with_kernels(&common::repo_root().join("models"), Kernels::PlainTract)
            .expect("models load");
    for role in ModelRole::ALL {
        assert_eq!(
            plain.rewrite_counts(role),
            RewriteCounts::default(),
            "{role}"
        );
    }
}
