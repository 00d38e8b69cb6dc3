//! The light check's cut-offs, in one leaf module (issue 69: this ends the `finding` ↔
//! `reading` circle; issue 66 asks for every cut-off named beside where it was calibrated).
//! `reading` judges a session with them (and re-exports them under their old paths) and
//! `finding` weighs what it found.

/// Correlation from which the face follows the sequence.
pub const FOLLOW_CORRELATION: f32 = 0.6;
/// Gain (log-chroma per unit of linear chroma) from which the face answers at all.
pub const MIN_GAIN: f32 = 0.025;
/// Surround gain over face gain from which the frame answered as one flat surface.
pub const FLAT_SURROUND: f32 = 0.5;
/// Light added on the surround over light added on the face from which it is a uniform glare
/// (held-back half: live faces up to 0.31, and 0.48 for a dark face before a bright room;
/// screen replays 0.57 and up, less where a bright background clips). A thin margin on both
/// sides, set after seeing the held-back half (docs/accuracy.md); so it only counts with the
/// glare's own mark, the face's darker half answering at least 1.3× its brighter half (a NUAA
/// crop that fills the frame measured 0.59 with both halves alike).
pub const GLARE_SURROUND: f32 = 0.55;
/// Relief below which the face answered like a flat surface (live faces measure 0.17–0.33
/// when the light is strong enough to tell, flat ones −0.06–0.07).
pub const MIN_RELIEF: f32 = 0.12;
/// Largest standard error at which the relief decides flat against curved. In weak light the
/// relief is too noisy to tell (at a screen-to-ambient ratio of 0.05 its error is 0.1–0.3);
/// it is then not held against the session, and a print must be caught by the surround test,
/// the motion layer or the anti-spoof model (docs/liveness.md).
pub const DECISIVE_RELIEF_ERROR: f32 = 0.1;
/// Gain of the face's darker half over its brighter half from which the light was added on
/// top (a glare on glass) rather than reflected (a reflection scales with the surface's own
/// brightness, so both halves' log-chroma move alike). The excess over 1 must also clear half
/// of this margin by two standard errors: in weak light the ratio is noisy.
pub const ADDED_LIGHT_SPREAD: f32 = 1.6;
/// The glare's mark, half of [`ADDED_LIGHT_SPREAD`]'s excess over 1: a darker-over-brighter
/// gain from which the light may have been added on top. Too weak to call a glare on its own;
/// it lends weight to the surround's answer and withholds the near face's
/// ([`LightReading::follows_without_glare`](super::reading::LightReading::follows_without_glare)). Calibration half
/// (`tests/accuracy/screen_light.rs`, ratios 0.05 and 0.3): live faces −0.08–1.25, screen replays 1.48 and up; held-back half: live 0.60–1.48,
/// replays 1.58 and up.
pub const GLARE_MARK: f32 = 1.0 + (ADDED_LIGHT_SPREAD - 1.0) / 2.0;
/// Border pixels (read every second pixel both ways) needed to compare face and room.
pub const MIN_SURROUND_PIXELS: u32 = 150;
/// Margin (and outline ring) pixels needed to look for a print's paper around the face.
pub const MIN_MARGIN_PIXELS: u32 = 150;
/// The margin's gain over the face's from which the margin answered like the face: a print's
/// paper (about 1, less where the sheet is bent or tilted away), against the room and some
/// hair behind a live head (rendering camera family: see docs/accuracy.md).
pub const PAPER_MARGIN: f32 = 0.7;
/// RMS log-chroma swing of the face from which its colour changes clearly.
pub const STRONG_SWING: f32 = 0.07;
/// Correlation below which a clearly changing face follows another sequence.
pub const OTHER_CORRELATION: f32 = 0.35;
/// Swing of the face's colour that this session's sequence leaves unexplained (swing ×
/// √(1 − correlation²)) from which the face changes colour in steps of its own: another
/// session's sequence matches this one's now and then by chance (correlation 0.6–0.66 on the
/// held-back half at a ratio of 0.3), but explains little of so strong a swing. Only a face
/// that does not beat chance is judged so (a live face in strong light, swing 0.40 at a
/// correlation of 0.96, leaves 0.11 unexplained yet follows: issue 39).
pub const MAX_UNEXPLAINED_SWING: f32 = 0.1;
/// Median gap between the frames analysed while the colours were shown above which no light
/// finding is attack evidence (`TooFewFrames` instead, a `retry`): an overloaded server
/// analyses a few frames a second, stamped with jittered arrival times, and then live faces
/// read as following another sequence or as flat (measured: 3 of 24 concurrent live sessions
/// failed as `injection_suspected` on 2 cores, docs/benchmarks.md). A camera at 10 fps or
/// more, analysed in full, leaves 67–100 ms. Frames set aside by the mailbox
/// ([`LightSample::from_backlog`](super::sample::LightSample::from_backlog)) are left out of this gap: they help a live face follow,
/// but arrive in bursts and never make an attack finding.
pub const MAX_ATTACK_EVIDENCE_GAP_MS: f32 = 150.0;
/// Share of the lit frames timed by their arrival (no capture time written by the client)
/// above which a face that does not follow is no evidence of another sequence: the delay
/// search reaches [`MAX_OFFSET_MS`](super::MAX_OFFSET_MS), and on arrival times the delay holds the network's round
/// trip, which a slow mobile link can push past it; a live face whose light came late then
/// reads as answering another sequence. Stamped frames time the light by the camera alone.
pub const MAX_ARRIVAL_TIMED_SHARE: f32 = 0.5;

/// Surround gain over face gain from which the room answered too much like the face for the
/// light to stand in for the motion layer's depth: a near face before a far room. Live faces
/// of both halves under every camera family, and of the calibration half under webcams alone:
/// 0.11 at most (60 sessions); a loose-crop print held as a bent sheet 0.43–0.46;
/// [`FLAT_SURROUND`] (0.5) is an attack on its own.
pub const NEAR_SURROUND: f32 = 0.3;
