//! Prints raw-cosine quantiles of genuine and impostor pairs pooled over every identity set
//! (including cross-set impostors), used to place each face model's calibration knots in
//! `compare.rs`.
//! Usage: calibrate MODEL DIR...   (MODEL: fr_feature or sface)

use facegate_face_engine::evaluation::embed_identity_set;
use facegate_face_engine::{FaceEngine, FaceModel};

fn main() {
    let models = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    let mut args = std::env::args().skip(1);
    let model = args
        .next()
        .and_then(|name| FaceModel::parse(&name))
        .expect("usage: calibrate MODEL DIR... (MODEL: fr_feature or sface)");
    let mut all = Vec::new();
    for dir in args {
        let path = std::path::Path::new(&dir);
        for mut item in embed_identity_set(&engine, model, path).expect("set") {
            item.identity = format!("{dir}/{}", item.identity);
            match &item.embedding {
                Ok(_) => all.push(item),
                Err(e) => eprintln!("skip {}: {e}", item.path.display()),
            }
        }
    }
    let (mut genuine, mut impostor) = (Vec::new(), Vec::new());
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            let (Ok(a), Ok(b)) = (&all[i].embedding, &all[j].embedding) else {
                continue;
            };
            let c = a.cosine(b).expect("one model");
            if all[i].identity == all[j].identity {
                genuine.push(c)
            } else {
                impostor.push((c, all[i].path.clone(), all[j].path.clone()))
            }
        }
    }
    genuine.sort_by(|a, b| a.total_cmp(b));
    impostor.sort_by(|a, b| b.0.total_cmp(&a.0));
    let n = impostor.len();
    println!("genuine {} impostor {n}", genuine.len());
    for far in [1e-2, 1e-3, 1e-4] {
        let k = (far * n as f64) as usize;
        println!("impostor cosine at FAR {far}: {:.4}", impostor[k].0);
    }
    for (c, a, b) in impostor.iter().take(5) {
        println!("top impostor {c:.4} {} {}", a.display(), b.display());
    }
    for q in [0.0, 0.01, 0.05, 0.1, 0.5] {
        let i = ((genuine.len() - 1) as f64 * q) as usize;
        println!("genuine cosine quantile {q}: {:.4}", genuine[i]);
    }
}
