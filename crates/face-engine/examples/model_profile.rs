//! Per-node profile of each bundled model as the engine compiles it (with our depthwise and
//! softmax kernels; `FACEGATE_TRACT_KERNELS_ONLY=1` shows tract's own): the time per operator
//! kind and the ten costliest nodes, over 40 runs on a fixed-seed input. This is the plan
//! check behind the tract levers in `docs/benchmarks.md`.
//!
//! `cargo run --release -p facegate-face-engine --example model_profile [role]`

use std::collections::BTreeMap;

use facegate_face_engine::{FaceEngine, ModelRole};

fn main() {
    let models = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    let only = std::env::args().nth(1);
    for role in ModelRole::ALL {
        if only
            .as_deref()
            .is_some_and(|wanted| wanted != role.as_str())
        {
            continue;
        }
        let nodes = engine.profile_model(role, 40).expect("model runs");
        let total: f64 = nodes.iter().map(|n| n.millis).sum();
        println!(
            "== {role}: {total:.2} ms a run in its nodes, {} nodes",
            nodes.len()
        );
        let mut per_op: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
        for node in &nodes {
            let entry = per_op.entry(&node.op).or_default();
            entry.0 += node.millis;
            entry.1 += 1;
        }
        let mut per_op: Vec<_> = per_op.into_iter().collect();
        per_op.sort_by(|a, b| b.1.0.total_cmp(&a.1.0));
        for (op, (millis, count)) in per_op {
            println!("  {op:<28} {count:>4} nodes {millis:>8.3} ms");
        }
        let mut costliest: Vec<_> = nodes.iter().collect();
        costliest.sort_by(|a, b| b.millis.total_cmp(&a.millis));
        for node in costliest.into_iter().take(10) {
            println!("    {:>8.3} ms  {} {}", node.millis, node.op, node.detail);
        }
    }
}
