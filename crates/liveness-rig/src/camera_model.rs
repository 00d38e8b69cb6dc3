//! A family of test cameras for the light check (issue 39): what a real camera does on its own
//! to the light the screen throws on a face. Each session draws one model at random from a
//! seed: its exposure's speed and target, its white balance (grey-world, white-patch or held),
//! its tone curve, its fixed channel gains, its noise, JPEG quality and resolution, its
//! display-to-camera delay (30-480 ms, with jitter) and its frame rate (8-30 frames a second).
//!
//! The models come in named [`CameraFamily`]s, so that an evaluation can set its thresholds on
//! some families and report on one held out ("leave one model out"). Shared by the engine's
//! evaluation (`facegate eval liveness`), the accuracy tests and the black-box tests through
//! [`crate::light_camera::LightCamera::with_model`]; every figure it produces is simulation.

use rand::Rng;

/// How a camera balances white.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WhiteBalance {
    /// Held fixed (the page asked for it and the camera took it, or a webcam without one).
    Locked,
    /// Grey world: each channel's gain moves toward making the frame's mean grey, by `speed`
    /// of the way each frame.
    GreyWorld { speed: f32 },
    /// White patch: the brightest pixels are taken for white, by `speed` of the way a frame.
    WhitePatch { speed: f32 },
}

/// The named kinds of camera the family draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CameraFamily {
    /// A laptop webcam: slow exposure, white balance held, 30 fps, short delay.
    Webcam,
    /// A phone whose grey-world white balance pulls the whole frame against each colour.
    PhoneGreyWorld,
    /// A phone balancing on the brightest pixels, with an S-shaped tone curve.
    PhoneWhitePatch,
    /// A slow phone: 8-12 fps, long display-to-camera delays, grey-world balance.
    SlowPhone,
    /// A cheap camera in a bright room: strong exposure pull, noise, low JPEG quality.
    BrightRoom,
}

impl CameraFamily {
    pub const ALL: [Self; 5] = [
        Self::Webcam,
        Self::PhoneGreyWorld,
        Self::PhoneWhitePatch,
        Self::SlowPhone,
        Self::BrightRoom,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Webcam => "webcam",
            Self::PhoneGreyWorld => "phone, grey-world balance",
            Self::PhoneWhitePatch => "phone, white-patch balance",
            Self::SlowPhone => "slow phone",
            Self::BrightRoom => "bright room",
        }
    }
}

/// One camera of the family.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraModel {
    pub family: CameraFamily,
    /// Share of a brightness change the auto-exposure takes back, and how fast (per frame).
    pub exposure_pull: f32,
    pub exposure_speed: f32,
    /// The exposure's target brightness against the scene's own (1 = leaves it).
    pub exposure_target: f32,
    pub white_balance: WhiteBalance,
    /// The tone curve's exponent on linear light before the sRGB encoding (1 = sRGB).
    pub tone_gamma: f32,
    /// Contrast of an S-shaped curve after the encoding (0 = none).
    pub tone_contrast: f32,
    /// Fixed gains of red, green and blue (the sensor's and the camera's own tint).
    pub channel_gains: [f32; 3],
    /// Sensor noise amplitude in grey levels.
    pub noise: i16,
    pub jpeg_quality: u8,
    /// Resolution against the footage's (1 = the same).
    pub scale: f32,
    /// Display-to-camera delay and its jitter either way.
    pub delay_ms: i64,
    pub jitter_ms: i64,
    /// Frames a second the camera delivers.
    pub fps: u32,
}

impl CameraModel {
    /// The rendering camera of issue 29, before the family: slow exposure, no white balance,
    /// sRGB, 85% JPEG, the footage's own rate and a delay of 30-300 ms.
    pub fn reference(rng: &mut impl Rng) -> Self {
        Self {
            family: CameraFamily::Webcam,
            exposure_pull: 0.7,
            exposure_speed: 0.35,
            exposure_target: 1.0,
            white_balance: WhiteBalance::Locked,
            tone_gamma: 1.0,
            tone_contrast: 0.0,
            channel_gains: [1.0; 3],
            noise: 2,
            jpeg_quality: 85,
            scale: 1.0,
            delay_ms: rng.random_range(30..=300),
            jitter_ms: 20,
            fps: 30,
        }
    }

    /// A camera of `family`, its settings drawn from `rng`.
    pub fn draw(family: CameraFamily, rng: &mut impl Rng) -> Self {
        let channel_gains = [
            rng.random_range(0.9..1.1f32),
            1.0,
            rng.random_range(0.9..1.1f32),
        ];
        let base = Self {
            family,
            exposure_pull: rng.random_range(0.5..0.9),
            exposure_speed: rng.random_range(0.2..0.5),
            exposure_target: rng.random_range(0.85..1.15),
            white_balance: WhiteBalance::Locked,
            tone_gamma: rng.random_range(0.85..1.15),
            tone_contrast: 0.0,
            channel_gains,
            noise: rng.random_range(1..=3),
            jpeg_quality: rng.random_range(70..=90),
            scale: 1.0,
            delay_ms: rng.random_range(30..=200),
            jitter_ms: rng.random_range(5..=30),
            fps: 30,
        };
        match family {
            CameraFamily::Webcam => Self {
                exposure_speed: rng.random_range(0.1..0.3),
                fps: rng.random_range(24..=30),
                ..base
            },
            CameraFamily::PhoneGreyWorld => Self {
                white_balance: WhiteBalance::GreyWorld {
                    speed: rng.random_range(0.15..0.6),
                },
                delay_ms: rng.random_range(80..=350),
                fps: rng.random_range(15..=30),
                ..base
            },
            CameraFamily::PhoneWhitePatch => Self {
                white_balance: WhiteBalance::WhitePatch {
                    speed: rng.random_range(0.15..0.6),
                },
                tone_contrast: rng.random_range(0.5..2.0),
                delay_ms: rng.random_range(80..=350),
                fps: rng.random_range(15..=30),
                ..base
            },
            CameraFamily::SlowPhone => Self {
                white_balance: WhiteBalance::GreyWorld {
                    speed: rng.random_range(0.2..0.6),
                },
                delay_ms: rng.random_range(250..=480),
                jitter_ms: rng.random_range(20..=40),
                fps: rng.random_range(8..=12),
                scale: rng.random_range(0.6..0.9),
                ..base
            },
            CameraFamily::BrightRoom => Self {
                exposure_pull: rng.random_range(0.8..0.95),
                exposure_speed: rng.random_range(0.4..0.7),
                noise: rng.random_range(3..=5),
                jpeg_quality: rng.random_range(55..=75),
                fps: rng.random_range(15..=30),
                ..base
            },
        }
    }

    /// A camera of a family drawn at random from `families`, its settings from `rng`.
    pub fn draw_from(families: &[CameraFamily], rng: &mut impl Rng) -> Self {
        let family = families[rng.random_range(0..families.len().max(1)) % families.len().max(1)];
        Self::draw(family, rng)
    }

    /// The sRGB encoding alone, as a stream that never passed through a camera has it.
    pub fn reference_encode(linear: f32) -> u8 {
        let v = linear.clamp(0.0, 1.0);
        let c = if v <= 0.003_130_8 {
            v * 12.92
        } else {
            1.055 * v.powf(1.0 / 2.4) - 0.055
        };
        (c * 255.0).round() as u8
    }

    /// The camera's encoding of a linear value (0..1) after its exposure and white balance:
    /// its tone curve, then the sRGB encoding, then its S-curve.
    pub fn encode(&self, linear: f32) -> u8 {
        let v = linear.clamp(0.0, 1.0).powf(self.tone_gamma);
        let c = if v <= 0.003_130_8 {
            v * 12.92
        } else {
            1.055 * v.powf(1.0 / 2.4) - 0.055
        };
        let c = if self.tone_contrast > 0.0 {
            let k = self.tone_contrast;
            0.5 + 0.5 * (k * (c - 0.5)).tanh() / (0.5 * k).tanh()
        } else {
            c
        };
        (c.clamp(0.0, 1.0) * 255.0).round() as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn every_family_draws_within_the_issues_ranges() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(39);
        for family in CameraFamily::ALL {
            for _ in 0..50 {
                let model = CameraModel::draw(family, &mut rng);
                assert!((30..=480).contains(&model.delay_ms), "{model:?}");
                assert!((8..=30).contains(&model.fps), "{model:?}");
                assert!((0.5..=1.0).contains(&model.scale), "{model:?}");
                assert_eq!(model.encode(0.0), 0);
                assert_eq!(model.encode(1.0), 255);
                assert!(model.encode(0.2) < model.encode(0.3));
            }
        }
        assert_eq!(CameraModel::reference(&mut rng).encode(0.5), 188);
    }
}
