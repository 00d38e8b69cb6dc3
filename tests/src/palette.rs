//! Footage rendered ahead of time under every colour of the light check's palette, for load
//! scripts that stream many lit sessions without rendering while they stream; the rendering can
//! be kept between runs as bytes.

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

    /// The frames as bytes: each frame's variant count, then each variant's length and bytes
    /// (little-endian `u32`s), for a load script that keeps its rendering between runs.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        for variants in &self.variants {
            bytes.extend_from_slice(&(variants.len() as u32).to_le_bytes());
            for jpeg in variants {
                bytes.extend_from_slice(&(jpeg.len() as u32).to_le_bytes());
                bytes.extend_from_slice(jpeg);
            }
        }
        bytes
    }

    /// Frames written by [`Self::to_bytes`], shown `delay_ms` after their colour; `None` when
    /// the bytes end early.
    pub fn from_bytes(mut bytes: &[u8], delay_ms: u64) -> Option<Self> {
        fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            let (head, rest) = bytes.split_at_checked(n)?;
            *bytes = rest;
            Some(head)
        }
        let read_u32 = |bytes: &mut &[u8]| {
            take(bytes, 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let mut variants = Vec::new();
        while !bytes.is_empty() {
            let count = read_u32(&mut bytes)?;
            let frame = (0..count)
                .map(|_| {
                    let len = read_u32(&mut bytes)?;
                    take(&mut bytes, len).map(<[u8]>::to_vec)
                })
                .collect::<Option<Vec<_>>>()?;
            variants.push(frame);
        }
        Some(Self { variants, delay_ms })
    }
}
