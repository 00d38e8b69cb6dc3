//! Anti-spoof accuracy on folders of live and attack images: P(real) per image, then AUC and
//! EER (live as the positive class) and the rates at 0.5. Usage: antispoof_eval LIVE_DIR ATTACK_DIR

use std::path::{Path, PathBuf};

use facegate_face_engine::evaluation::verification_report;
use facegate_face_engine::{FaceEngine, Image};

fn images(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).expect("readable") {
            let p = entry.expect("entry").path();
            if p.is_dir() {
                pending.push(p)
            } else {
                out.push(p)
            }
        }
    }
    out.sort();
    out
}

fn scores(engine: &FaceEngine, dir: &Path) -> (Vec<f32>, usize) {
    let mut no_face = 0;
    let mut out = Vec::new();
    for path in images(dir) {
        let Ok(img) = std::fs::read(&path)
            .map_err(|_| ())
            .and_then(|b| Image::decode(&b).map_err(|_| ()))
        else {
            continue;
        };
        match engine.primary_face(&img) {
            Ok(face) => out.push(engine.anti_spoof(&img, &face).expect("anti-spoof")),
            Err(_) => no_face += 1,
        }
    }
    (out, no_face)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    let (live, live_missed) = scores(&engine, Path::new(&args[1]));
    let (attack, attack_missed) = scores(&engine, Path::new(&args[2]));
    let report = verification_report(
        &live,
        &attack,
        live.len() + attack.len(),
        live_missed + attack_missed,
    );
    let rejected = live.iter().filter(|&&s| s < 0.5).count() as f64 / live.len() as f64;
    let accepted = attack.iter().filter(|&&s| s >= 0.5).count() as f64 / attack.len() as f64;
    println!(
        "live {} (no face {live_missed}), attack {} (no face {attack_missed})",
        live.len(),
        attack.len()
    );
    println!(
        "AUC {:.3}  EER {:.3}  live rejected at 0.5 {:.3}  attacks accepted at 0.5 {:.3}",
        report.auc, report.eer, rejected, accepted
    );
}
