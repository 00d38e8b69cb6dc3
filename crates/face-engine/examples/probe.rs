//! Dumps detector score, mesh presence logit and anti-spoof score per candidate face, to set
//! thresholds from measurement. Usage: probe FILE...

use facegate_face_engine::{DetectMode, DetectOptions, FaceEngine, Image};

fn main() {
    let models = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let engine = FaceEngine::load(&models).expect("models");
    for path in std::env::args().skip(1) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(img) = Image::decode(&bytes) else {
            continue;
        };
        for mode in [DetectMode::Selfie, DetectMode::All] {
            let options = DetectOptions {
                mode,
                min_score: 0.3,
                max_faces: 100,
            };
            for face in engine.detect(&img, &options).unwrap_or_default() {
                let mesh = engine.landmarks(&img, &face).expect("mesh");
                let b = face.bbox.clamp_to(img.width(), img.height());
                let (mut face_sat, mut n) = (0.0f32, 0.0f32);
                for y in (b.y + b.height * 0.2) as u32..(b.y + b.height * 0.8) as u32 {
                    for x in (b.x + b.width * 0.2) as u32..(b.x + b.width * 0.8) as u32 {
                        let p = img.rgb().get_pixel(x, y);
                        let (mx, mn) = (
                            p[0].max(p[1]).max(p[2]) as f32,
                            p[0].min(p[1]).min(p[2]) as f32,
                        );
                        face_sat += (mx - mn) / mx.max(1.0);
                        n += 1.0;
                    }
                }
                let mut img_sat = 0.0f32;
                for p in img.rgb().pixels() {
                    let (mx, mn) = (
                        p[0].max(p[1]).max(p[2]) as f32,
                        p[0].min(p[1]).min(p[2]) as f32,
                    );
                    img_sat += (mx - mn) / mx.max(1.0);
                }
                let img_sat = img_sat / (img.width() * img.height()) as f32;
                print!("fsat={:.3}\tisat={:.3}\t", face_sat / n.max(1.0), img_sat);
                println!(
                    "{path}\t{mode:?}\tscore={:.3}\tpresence={:.2}\tsize={:.0}\tyaw={:.0}\tsharp={:.4}\tbright={:.2}",
                    face.score,
                    mesh.presence_logit,
                    face.bbox.width,
                    face.pose.yaw,
                    face.quality.sharpness,
                    face.quality.brightness
                );
            }
        }
    }
}
