//! Footage rendered ahead of time under every colour of the light check's palette, for load
//! scripts that stream many lit sessions without rendering while they stream; the rendering can
//! be kept between runs, as JPEG files in a folder.

use std::path::Path;

use liveness_engine::illumination::{PALETTE, ScreenColor};

use crate::live::live_camera;

/// Footage rendered ahead of time under every palette colour and under none, so a load
/// script can play many lit sessions without rendering while it streams: the light of the
/// colour shown `delay_ms` earlier, looked up per frame (the rendering camera's model, with
/// its noise drawn once per frame and colour).
#[derive(Debug)]
pub struct PaletteFrames {
    /// Per footage frame: the frame under no light, then under each `PALETTE` colour.
    pub(crate) variants: Vec<Vec<Vec<u8>>>,
    pub(crate) delay_ms: u64,
}

impl PaletteFrames {
    pub fn render(frames: &[Vec<u8>], ratio: f32, delay_ms: u64, seed: u64) -> Self {
        let mut camera = live_camera(ratio, seed);
        let colors: Vec<Option<ScreenColor>> = std::iter::once(None)
            .chain(PALETTE.iter().map(|c| Some(ScreenColor(*c))))
            .collect();
        let variants = frames
            .iter()
            .map(|frame| {
                colors
                    .iter()
                    .map(|c| camera.capture_under(frame, *c))
                    .collect()
            })
            .collect();
        Self { variants, delay_ms }
    }

    /// The frames kept in `dir` by an earlier run (one JPEG file per frame and colour), or
    /// else `render()`'s, then kept there for the next run; `delay_ms` as [`Self::render`]'s.
    pub fn kept_in(dir: &Path, delay_ms: u64, render: impl FnOnce() -> Self) -> Self {
        let file = |frame: usize, variant: usize| dir.join(format!("{frame:04}-{variant}.jpg"));
        let variants: Vec<Vec<Vec<u8>>> = (0..)
            .map_while(|frame| {
                (0..=PALETTE.len())
                    .map(|variant| std::fs::read(file(frame, variant)).ok())
                    .collect::<Option<Vec<_>>>()
            })
            .collect();
        if !variants.is_empty() {
            return Self { variants, delay_ms };
        }
        let rendered = render();
        std::fs::create_dir_all(dir).expect("a writable folder for the rendered footage");
        for (frame, variants) in rendered.variants.iter().enumerate() {
            for (variant, jpeg) in variants.iter().enumerate() {
                std::fs::write(file(frame, variant), jpeg).expect("the rendered footage kept");
            }
        }
        rendered
    }
}
