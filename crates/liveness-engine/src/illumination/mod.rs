//! The screen's light as a liveness signal (issue 29). The server draws a random colour
//! sequence for each session; the page fills the screen around the face oval with each colour
//! in turn; the camera sees the light the screen throws on the face. A live face near the
//! screen answers this session's sequence, strongly on the face and weakly on the far room,
//! and unevenly across its curved surface. A replay on a screen only mirrors the flash as a
//! uniform glare, a print answers flat, face and paper alike, an injected stream answers
//! nothing or the wrong sequence.
//!
//! - [`Illumination`]: the sequence and its drawing (this module);
//! - [`sample`]: what each analysed frame keeps (mean colours of face regions and surroundings);
//! - [`reading`]: the delay search and the evidence at the end of the session.
//!
//! Safety (WCAG 2.3.1): every colour is shown for at least [`MIN_STEP_MS`], so there are at
//! most three changes, and fewer than three flashes, in any second; no colour of the palette
//! is a saturated red (red share of the linear colour below 0.8).

mod classify;
mod cutoffs;
mod finding;
mod fit;
pub mod reading;
mod regions;
pub mod sample;
pub mod search;

use rand::{CryptoRng, Rng};
use serde::{Deserialize, Serialize};

/// Colours in one sequence. Eleven, not fewer: a match must beat what other sessions'
/// sequences reach on the same face at a false-match rate of 1e-3 (`search`), and with seven
/// colours chance reached a correlation of 0.89-0.91 there (at or above what a live face in a
/// bright room shows); with eleven, 0.70-0.75 (issue 39; docs/liveness.md).
pub const SEQUENCE_LENGTH: usize = 11;
/// Shortest time a colour is shown: more than a third of a second, so at most three changes a
/// second.
pub const MIN_STEP_MS: u32 = 340;
/// Longest time a colour is shown.
pub const MAX_STEP_MS: u32 = 400;
/// Latest start of the sequence in the session's clock (the server's time since the stream
/// opened) that the delay search considers: network both ways, the display's refresh and the
/// camera's exposure and encoding.
pub const MAX_OFFSET_MS: u64 = 500;

/// The palette, as `#rrggbb`: bright colours of distinct hue, none a saturated red.
pub const PALETTE: [[u8; 3]; 8] = [
    [0xff, 0xff, 0xff],
    [0x00, 0xff, 0xff],
    [0x00, 0x40, 0xff],
    [0x00, 0xff, 0x00],
    [0xff, 0xff, 0x00],
    [0xff, 0x00, 0xff],
    [0xff, 0xb0, 0x00],
    [0x80, 0x00, 0xff],
];

/// One colour shown on the screen, sRGB bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenColor(pub [u8; 3]);

impl ScreenColor {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        let [r, g, b] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// Parses `#rrggbb`.
    pub fn parse(text: &str) -> Option<Self> {
        let digits = text.strip_prefix('#')?;
        if digits.len() != 6 || !digits.is_ascii() {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
        Some(Self([byte(0)?, byte(2)?, byte(4)?]))
    }

    /// Linear-light red, green and blue in 0..1 (the sRGB transfer undone).
    pub fn linear(self) -> [f32; 3] {
        self.0.map(srgb_to_linear)
    }

    /// What the colour does to a reflecting surface, as the delay search reads it: its chroma
    /// ([`Self::chroma`]) and its relative luminance (a brighter colour brightens the face more
    /// than the room; the camera's exposure, the same over the frame, cancels against the
    /// room).
    pub fn answer(self) -> [f32; 3] {
        let [r, g, b] = self.linear();
        let [x, y] = self.chroma();
        [x, y, 0.2126 * r + 0.7152 * g + 0.0722 * b]
    }

    /// What the colour does to a reflecting surface's chroma: linear red minus green and
    /// blue minus green (a white light changes neither).
    pub fn chroma(self) -> [f32; 2] {
        let [r, g, b] = self.linear();
        [r - g, b - g]
    }
}

/// sRGB byte to linear light in 0..1.
pub fn srgb_to_linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// One session's sequence, as sent to the client: `{"colors": ["#rrggbb", …], "step_ms": N}`.
/// The page shows `colors[k]` from `receipt + k × step_ms` on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "WireSequence", into = "WireSequence")]
pub struct Illumination {
    colors: Vec<ScreenColor>,
    step_ms: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct WireSequence {
    colors: Vec<String>,
    step_ms: u32,
}

impl From<Illumination> for WireSequence {
    fn from(sequence: Illumination) -> Self {
        Self {
            colors: sequence.colors.iter().map(|c| c.hex()).collect(),
            step_ms: sequence.step_ms,
        }
    }
}

impl TryFrom<WireSequence> for Illumination {
    type Error = String;

    fn try_from(wire: WireSequence) -> Result<Self, String> {
        let colors = wire
            .colors
            .iter()
            .map(|c| ScreenColor::parse(c).ok_or_else(|| format!("not #rrggbb: {c}")))
            .collect::<Result<Vec<_>, _>>()?;
        Illumination::new(colors, wire.step_ms)
    }
}

impl Illumination {
    /// A sequence of at least two colours, each shown for 1..=10,000 ms.
    pub fn new(colors: Vec<ScreenColor>, step_ms: u32) -> Result<Self, String> {
        if colors.len() < 2 || !(1..=10_000).contains(&step_ms) {
            return Err("a sequence needs two colours or more and a step of 1..=10000 ms".into());
        }
        Ok(Self { colors, step_ms })
    }

    /// Draws [`SEQUENCE_LENGTH`] colours from the [`PALETTE`], no colour twice in a row, and a
    /// step within [`MIN_STEP_MS`]..=[`MAX_STEP_MS`].
    pub fn draw(rng: &mut impl CryptoRng) -> Self {
        let mut colors: Vec<ScreenColor> = Vec::with_capacity(SEQUENCE_LENGTH);
        while colors.len() < SEQUENCE_LENGTH {
            let color = ScreenColor(PALETTE[rng.random_range(0..PALETTE.len())]);
            if colors.last() != Some(&color) {
                colors.push(color);
            }
        }
        Self {
            colors,
            step_ms: rng.random_range(MIN_STEP_MS..=MAX_STEP_MS),
        }
    }

    pub fn colors(&self) -> &[ScreenColor] {
        &self.colors
    }

    pub fn step_ms(&self) -> u32 {
        self.step_ms
    }

    /// How long the whole sequence is shown.
    pub fn duration_ms(&self) -> u64 {
        self.colors.len() as u64 * u64::from(self.step_ms)
    }

    /// The colour shown `elapsed_ms` after the sequence started; `None` before and after it.
    pub fn color_at(&self, elapsed_ms: i64) -> Option<ScreenColor> {
        if elapsed_ms < 0 {
            return None;
        }
        self.colors
            .get((elapsed_ms / i64::from(self.step_ms)) as usize)
            .copied()
    }

    /// Session time by which every frame lit by the sequence has arrived, whatever the delay.
    pub fn window_end_ms(&self) -> u64 {
        self.duration_ms() + MAX_OFFSET_MS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_drawn_sequence_is_safe_and_round_trips_the_wire_format() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(29);
        let sequence = Illumination::draw(&mut rng);
        assert!(sequence.colors().len() >= 6);
        assert!((200..=400).contains(&sequence.step_ms()));
        // at most three changes in any second
        assert!(1000 / sequence.step_ms() <= 3 - u32::from(1000 % sequence.step_ms() == 0));
        assert!(sequence.colors().windows(2).all(|w| w[0] != w[1]));
        let json = serde_json::to_value(&sequence).expect("json");
        assert_eq!(
            json["colors"].as_array().map(Vec::len),
            Some(SEQUENCE_LENGTH)
        );
        assert!(json["colors"][0].as_str().is_some_and(|c| c.len() == 7));
        let back: Illumination = serde_json::from_value(json).expect("parse");
        assert_eq!(back, sequence);
        assert_ne!(Illumination::draw(&mut rng), sequence);
    }

    #[test]
    fn no_colour_of_the_palette_is_a_saturated_red() {
        for color in PALETTE.map(ScreenColor) {
            let [r, g, b] = color.linear();
            assert!(r / (r + g + b) < 0.8, "{} is a saturated red", color.hex());
        }
    }

    #[test]
    fn the_colour_shown_follows_the_step() {
        let sequence = Illumination::new(
            vec![ScreenColor([255, 255, 255]), ScreenColor([0, 255, 0])],
            300,
        )
        .expect("sequence");
        assert_eq!(sequence.color_at(-1), None);
        assert_eq!(sequence.color_at(299), Some(ScreenColor([255, 255, 255])));
        assert_eq!(sequence.color_at(300), Some(ScreenColor([0, 255, 0])));
        assert_eq!(sequence.color_at(600), None);
        assert_eq!(
            ScreenColor::parse("#00ff7f"),
            Some(ScreenColor([0, 255, 127]))
        );
        assert_eq!(ScreenColor::parse("00ff7f"), None);
    }
}
