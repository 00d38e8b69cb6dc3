//! Anti-spoof accuracy on folders of live and attack images: P(real) per image, then AUC and
//! EER (live as the positive class) and the rates at 0.5, once with the crops as captured and
//! once with their colour cast removed (grey world), and each folder's median.
//! Usage: antispoof_eval LIVE_DIR ATTACK_DIR [MORE_LIVE_DIR ...] (each live folder judged
//! against the one attack folder).

use std::path::{Path, PathBuf};

use facegate_face_engine::evaluation::verification_report;
use facegate_face_engine::{ColourCast, FaceEngine, Image};

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

fn scores(engine: &FaceEngine, dir: &Path, cast: ColourCast) -> (Vec<f32>, usize) {
    let mut no_face = 0;
    let mut out = Vec::new();
    let mut by_folder: std::collections::BTreeMap<PathBuf, Vec<f32>> = Default::default();
    for path in images(dir) {
        let Ok(img) = std::fs::read(&path)
            .map_err(|_| ())
            .and_then(|b| Image::decode(&b).map_err(|_| ()))
        else {
            continue;
        };
        match engine.primary_face(&img) {
            Ok(face) => {
                let score = engine
                    .anti_spoof_with(&img, &face, cast)
                    .expect("anti-spoof");
                let folder = path.parent().unwrap_or(dir).to_path_buf();
                by_folder.entry(folder).or_default().push(score);
                out.push(score)
            }
            Err(_) => no_face += 1,
        }
    }
    for (folder, mut values) in by_folder {
        values.sort_by(f32::total_cmp);
        let below = values.iter().filter(|&&v| v < 0.5).count();
        println!(
            "  {cast:?} {}: median {:.3} over {}, {below} below 0.5",
            folder.display(),
            values[values.len() / 2],
            values.len()
        );
    }
    (out, no_face)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    for cast in [
        ColourCast::AsCaptured,
        ColourCast::GreyWorld,
        ColourCast::TypicalScene,
    ] {
        judge(&engine, &args, cast);
    }
}

fn judge(engine: &FaceEngine, args: &[String], cast: ColourCast) {
    let (attack, attack_missed) = scores(engine, Path::new(&args[2]), cast);
    let live_dirs = std::iter::once(&args[1]).chain(args.iter().skip(3));
    for live_dir in live_dirs {
        let (live, live_missed) = scores(engine, Path::new(live_dir), cast);
        let report = verification_report(
            &live,
            &attack,
            live.len() + attack.len(),
            live_missed + attack_missed,
        );
        let rejected = live.iter().filter(|&&s| s < 0.5).count() as f64 / live.len() as f64;
        let accepted = attack.iter().filter(|&&s| s >= 0.5).count() as f64 / attack.len() as f64;
        println!(
            "{cast:?} {live_dir}: live {} (no face {live_missed}), attack {} (no face {attack_missed})",
            live.len(),
            attack.len()
        );
        println!(
            "AUC {:.3}  EER {:.3}  live rejected at 0.5 {:.3}  attacks accepted at 0.5 {:.3}",
            report.auc, report.eer, rejected, accepted
        );
    }
}
