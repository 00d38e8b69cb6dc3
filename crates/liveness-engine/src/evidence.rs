//! What a finding rests on: the one word the layers and the light's reading share, so the
//! light check (`illumination`) names it without reaching up into `layers`.

use serde::Serialize;

/// What a layer's (or the light's) finding rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// The layer measured something; its score says how live it looked.
    Measured,
    /// A clear attack signal: fails the session unless its code only asks for review or
    /// another layer's evidence of a live face disputes it (`fusion::attack_call`).
    Attack,
    /// The layer could not judge (too little motion, too dark, too few frames). It is left
    /// out of the weighted mean and keeps the session from passing: `retry`, never `fail`.
    None,
}
