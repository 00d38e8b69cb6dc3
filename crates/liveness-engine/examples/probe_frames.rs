//! Prints what the liveness engine measures on every frame of a recording (one line per
//! frame) and the motion summary: the numbers behind the segment labels and the layer
//! thresholds. Usage: `probe_frames MODELS_DIR FRAMES_DIR [FPS]`.

use std::path::Path;

use face_engine::{FaceEngine, Image};
use facegate_liveness_engine::layers::motion;
use facegate_liveness_engine::observation::{Analysis, observe};
use facegate_liveness_engine::signals::thumbnail_difference;
use liveness_rig::replay::Recording;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (models, dir) = (Path::new(&args[1]), Path::new(&args[2]));
    let fps: f32 = args.get(3).map_or(Ok(15.0), |s| s.parse())?;
    let engine = FaceEngine::load(models)?;
    let recording = Recording::open(dir)?;
    let mut observations = Vec::new();
    let mut previous: Option<Vec<u8>> = None;
    println!("t_s\tfaces\tyaw\tpitch\tear\tmouth_w\tmouth_o\tspoof\tmoire\tbound\tthumb_diff");
    for (i, path) in recording.frames.iter().enumerate() {
        let image = Image::decode(&std::fs::read(path)?)?;
        let t = (i as f32 * 1000.0 / fps) as u64;
        let obs = observe(
            &engine,
            &image,
            t,
            Analysis {
                count_all_faces: i % 5 == 0,
                ..Analysis::PLAIN
            },
        )?;
        if let Some(f) = &obs.face {
            let diff = previous
                .as_ref()
                .map_or(f32::NAN, |p| thumbnail_difference(p, &f.thumbnail));
            println!(
                "{:.2}\t{}\t{:.1}\t{:.1}\t{:.3}\t{:.3}\t{:.3}\t{:.3}\t{:.2}\t{:.3}\t{:.2}",
                t as f32 / 1000.0,
                obs.face_count,
                f.pose.yaw,
                f.pose.pitch,
                f.eye_openness,
                f.mouth_width,
                f.mouth_open,
                f.anti_spoof.unwrap_or(f32::NAN),
                f.moire,
                f.boundary_ratio,
                diff
            );
            previous = Some(f.thumbnail.clone());
        } else {
            println!("{:.2}\t{}\tno face", t as f32 / 1000.0, obs.face_count);
        }
        observations.push(obs);
    }
    println!("# {:?}", motion::summarise(&observations));
    Ok(())
}
