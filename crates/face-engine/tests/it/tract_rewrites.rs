//! Our kernels (`Kernels::Ours`: depthwise, PReLU, softmax and max pooling rewrites,
//! vector state cleared between nodes) against tract as it ships (`Kernels::PlainTract`) on
//! real photos and on every model's raw outputs: all must agree to within float rounding. The
//! depthwise, PReLU and pooling rewrites are exact, bit for bit against tract's own
//! op; the softmax kernel rounds differently.

use crate::common;

use facegate_face_engine::{
    DetectMode, DetectOptions, FaceEngine, FaceModel, Image, Kernels, ModelRole, Rewrite,
};

fn plain_tract() -> FaceEngine {
    FaceEngine::load_with_kernels(&common::repo_root().join("models"), Kernels::PlainTract)
        .expect("models load")
}

const PHOTOS: [&str; 6] = [
    "identities/celebs/id00/img1.jpg",
    "identities/celebs/id01/img26.jpg",
    "identities/johns/John_Salley/000179_02159509.jpg",
    "identities/tv-cast/amy/amy1.png",
    "groups/bbt1.jpg",
    "spoof/nuaa/live/0001/0001_00_00_01_0.jpg",
];

fn photo(relative: &str) -> Image {
    common::load(relative)
}

#[test]
fn detections_meshes_embeddings_and_anti_spoof_agree_with_plain_tract() {
    let ours = common::engine();
    let plain = plain_tract();
    for relative in PHOTOS {
        let image = photo(relative);
        for mode in [DetectMode::Selfie, DetectMode::All] {
            let options = DetectOptions {
                mode,
                max_faces: 8,
                ..DetectOptions::default()
            };
            let (a, b) = (
                ours.detect(&image, &options).expect("engine call"),
                plain.detect(&image, &options).expect("engine call"),
            );
            assert_eq!(a.len(), b.len(), "{relative} {mode:?}: face count");
            for (fa, fb) in a.iter().zip(&b) {
                assert!((fa.score - fb.score).abs() < 1e-4, "{relative}: score");
                assert!((fa.bbox.x - fb.bbox.x).abs() < 0.05, "{relative}: box x");
                assert!(
                    (fa.bbox.width - fb.bbox.width).abs() < 0.05,
                    "{relative}: box w"
                );
            }
        }
        let Ok(face) = ours.primary_face(&image) else {
            continue;
        };
        let (mesh_a, mesh_b) = (
            ours.landmarks(&image, &face).expect("engine call"),
            plain.landmarks(&image, &face).expect("engine call"),
        );
        let worst = mesh_a
            .points
            .iter()
            .zip(&mesh_b.points)
            .map(|(p, q)| (p[0] - q[0]).abs().max((p[1] - q[1]).abs()))
            .fold(0.0f32, f32::max);
        assert!(worst < 0.01, "{relative}: mesh points moved {worst} px");
        let (emb_a, emb_b) = (
            ours.embed(
                FaceModel::FrFeature,
                &ours.align(&image, &mesh_a).expect("engine call"),
            )
            .expect("engine call"),
            plain
                .embed(
                    FaceModel::FrFeature,
                    &plain.align(&image, &mesh_b).expect("engine call"),
                )
                .expect("engine call"),
        );
        let cosine = emb_a.cosine(&emb_b).expect("one model");
        assert!(cosine > 0.99999, "{relative}: embeddings cosine {cosine}");
        let (spoof_a, spoof_b) = (
            ours.anti_spoof(&image, &face).expect("engine call"),
            plain.anti_spoof(&image, &face).expect("engine call"),
        );
        eprintln!(
            "{relative}: mesh {worst:.5} px, embedding cosine {cosine:.7}, anti-spoof {:.2e}",
            (spoof_a - spoof_b).abs()
        );
        assert!(
            (spoof_a - spoof_b).abs() < 1e-4,
            "{relative}: anti-spoof {spoof_a} against {spoof_b}"
        );
    }
}

/// Every raw output of every model, on one fixed-seed input: within float rounding of tract's
/// own kernels, relative to the output's largest magnitude.
#[test]
fn every_model_output_agrees_with_plain_tract() {
    let ours = common::engine();
    let plain = plain_tract();
    for role in ModelRole::ALL {
        let (a, b) = (
            ours.benchmark_outputs(role).expect("model runs"),
            plain.benchmark_outputs(role).expect("model runs"),
        );
        assert_eq!(a.len(), b.len(), "{role}: output count");
        for (index, (a, b)) in a.iter().zip(&b).enumerate() {
            assert_eq!(a.len(), b.len(), "{role} output {index}: length");
            let scale = b.iter().fold(0f32, |m, v| m.max(v.abs())).max(1e-6);
            let worst = a
                .iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(0f32, f32::max);
            eprintln!(
                "{role} output {index}: worst difference {:.2e} of {scale:.2e}",
                worst
            );
            assert!(
                worst <= scale * 1e-4,
                "{role} output {index}: worst difference {worst} against a scale of {scale}"
            );
        }
    }
}

/// On an AMD Zen 4 (family 0x19 with AVX-512) the engine asks tract for its 256-bit matrix
/// kernels, unless the operator set `TRACT_CPU_ISA`; elsewhere tract picks as it ships. The
/// plan's nodes name the kernel each matrix product runs on.
#[test]
fn matrix_products_run_at_the_vector_width_chosen_for_this_cpu() {
    let engine = common::engine();
    let kernels_named: String = ModelRole::ALL
        .iter()
        .flat_map(|role| engine.profile_model(*role, 1).expect("model runs"))
        .filter(|node| node.op == "OptMatMul")
        .map(|node| node.detail)
        .collect();
    // Every shipped model has matrix products; the kernel's name depends on the CPU (tract's
    // generic kernels on a machine without AVX2), so only their presence is universal.
    assert!(!kernels_named.is_empty(), "no matrix product in any plan");
    let zen_4 = is_amd_zen_4_with_avx512();
    if std::env::var_os("TRACT_CPU_ISA").is_none() && zen_4 {
        assert!(
            !kernels_named.contains("avx512_mmm"),
            "Zen 4 runs 512-bit kernels"
        );
    }
}

#[cfg(target_arch = "x86_64")]
fn is_amd_zen_4_with_avx512() -> bool {
    let vendor = std::arch::x86_64::__cpuid(0);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    let signature = std::arch::x86_64::__cpuid(1).eax;
    let family = ((signature >> 8) & 0xf) + ((signature >> 20) & 0xff);
    amd && family == 0x19 && std::arch::is_x86_feature_detected!("avx512f")
}

#[cfg(not(target_arch = "x86_64"))]
fn is_amd_zen_4_with_avx512() -> bool {
    false
}

/// Each rewrite alone against tract as it ships, every raw output of every model compared bit
/// for bit (`f32::to_bits`): the depthwise, PReLU and max-pooling kernels compute
/// exactly what tract's own ops compute (measured: 0 of 43,672 values differ); the softmax
/// kernel rounds differently (4,226 of the group detector's values differ in their last bits,
/// held to float rounding by the test above).
#[test]
fn the_exact_rewrites_give_tract_s_own_bits() {
    let plain = plain_tract();
    for rewrite in Rewrite::ALL {
        let only = FaceEngine::load_with_kernels(
            &common::repo_root().join("models"),
            Kernels::Only(rewrite),
        )
        .expect("models load");
        let (mut values, mut differing) = (0usize, 0usize);
        for role in ModelRole::ALL {
            let (a, b) = (
                only.benchmark_outputs(role).expect("model runs"),
                plain.benchmark_outputs(role).expect("model runs"),
            );
            for (a, b) in a.iter().zip(&b) {
                values += a.len();
                differing += a
                    .iter()
                    .zip(b)
                    .filter(|(x, y)| x.to_bits() != y.to_bits())
                    .count();
            }
        }
        println!(
            "{}: {differing} of {values} output values differ in their bits",
            rewrite.name()
        );
        if rewrite != Rewrite::Softmax {
            assert_eq!(differing, 0, "{} is not bit-identical", rewrite.name());
        }
    }
}

/// The dead weights set to zero change no embedding (`inference::kernels::dead_weights`): on
/// real photos, every embedding bit for bit as with those weights kept. They only cost time.
#[test]
fn zeroing_the_dead_weights_changes_no_embedding_bit() {
    let ours = common::engine();
    let kept = FaceEngine::load_with_kernels(
        &common::repo_root().join("models"),
        Kernels::AllBut(Rewrite::DeadWeights),
    )
    .expect("models load");
    assert_eq!(
        ours.rewrite_counts(ModelRole::Embedder).dead_weights,
        119_016
    );
    assert_eq!(kept.rewrite_counts(ModelRole::Embedder).dead_weights, 0);
    let mut compared = 0;
    for relative in PHOTOS {
        let image = photo(relative);
        let Ok(face) = ours.primary_face(&image) else {
            continue;
        };
        let aligned = ours
            .align(&image, &ours.landmarks(&image, &face).expect("mesh"))
            .expect("aligned face");
        let (a, b) = (
            ours.embed(FaceModel::FrFeature, &aligned)
                .expect("embedding"),
            kept.embed(FaceModel::FrFeature, &aligned)
                .expect("embedding"),
        );
        let differing = a
            .vector
            .iter()
            .zip(&b.vector)
            .filter(|(x, y)| x.to_bits() != y.to_bits())
            .count();
        assert_eq!(differing, 0, "{relative}: {differing} of 512 values differ");
        compared += 1;
    }
    assert!(compared >= 5, "only {compared} photos had a face");
}
