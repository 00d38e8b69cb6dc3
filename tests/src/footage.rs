//! The shared footage the black-box tests play: a video's frames as JPEGs (extracted with
//! ffmpeg into a private temporary folder per call, so parallel tests never share one), a
//! frame with fresh sensor noise, and a video's labelled action segments.

use std::path::Path;
use std::process::Command;

use crate::repo_root;

/// JPEG frames of `videos/<name>.mp4` at `fps`, starting `start_s` seconds in, at most
/// `seconds` long, scaled to 640 px wide as the web UI sends them.
pub fn video_frames(name: &str, fps: u32, start_s: f32, seconds: f32) -> Vec<Vec<u8>> {
    let source = repo_root().join(format!("../shared/testdata/videos/{name}.mp4"));
    let dir = tempfile::tempdir().expect("temp dir");
    let status = Command::new("ffmpeg")
        .args(["-v", "error", "-y", "-ss", &start_s.to_string(), "-i"])
        .arg(&source)
        .args([
            "-t",
            &seconds.to_string(),
            "-vf",
            &format!("fps={fps},scale='min(640,iw)':-2"),
            "-q:v",
            "4",
        ])
        .arg(dir.path().join("%05d.jpg"))
        .status()
        .expect("ffmpeg is installed (.ci/run installs it)");
    assert!(status.success(), "ffmpeg failed on {}", source.display());
    read_frames(dir.path())
}

fn read_frames(dir: &Path) -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("frames")
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("frame"))
        .collect()
}

/// The frame re-encoded with ±2 grey levels of pseudo-random noise: a person holding still in
/// front of a camera never produces the same bytes twice.
pub fn with_sensor_noise(jpeg: &[u8], seed: u64) -> Vec<u8> {
    let mut image = image::load_from_memory(jpeg)
        .expect("frame decodes")
        .to_rgb8();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for pixel in image.pixels_mut() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let noise = ((state >> 33) % 5) as i16 - 2;
        for channel in &mut pixel.0 {
            *channel = (i16::from(*channel) + noise).clamp(0, 255) as u8;
        }
    }
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85)
        .encode_image(&image)
        .expect("encode");
    out
}

/// The labelled segments of one shared video: frame indices (at 15 fps) per action.
pub fn labelled_frames(video: &str) -> std::collections::HashMap<String, Vec<usize>> {
    let path = repo_root().join("crates/liveness-engine/tests/data/video_segments.toml");
    let labels: toml::Table =
        toml::from_str(&std::fs::read_to_string(path).expect("labels")).expect("labels parse");
    let mut out: std::collections::HashMap<String, Vec<usize>> = Default::default();
    for entry in labels["video"].as_array().expect("videos") {
        if entry["video"].as_str() != Some(video) {
            continue;
        }
        for segment in entry["segment"].as_array().expect("segments") {
            let at = |k: &str| (segment[k].as_float().expect("seconds") * 15.0).round() as usize;
            out.entry(segment["kind"].as_str().expect("kind").to_owned())
                .or_default()
                .extend(at("start")..at("end"));
        }
    }
    out
}
