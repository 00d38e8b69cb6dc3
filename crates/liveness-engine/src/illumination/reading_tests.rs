//! Unit tests of the light reading on synthetic samples: a near curved face, flat, tinted,
//! unlit and replayed answers, and the overload guard.

use super::*;
use crate::evidence::Evidence;
use crate::illumination::ScreenColor;
use rand::SeedableRng;

/// Samples every 66 ms for 5.3 s of a surface lit by `sequence` from 150 ms on: the centre
/// answers with `gain`, the rim with `gain × (1 − relief)`, the room with `room × gain`.
fn samples(sequence: &Illumination, gain: f32, relief: f32, room: f32) -> Vec<(u64, LightSample)> {
    let base = [0.30f32, 0.25, 0.20];
    (0..80u64)
        .map(|i| {
            let t = i * 66;
            let light = sequence
                .color_at(t as i64 - 150)
                .map_or([0.0; 3], ScreenColor::linear);
            let lit = |k: f32| std::array::from_fn(|c| base[c] * (1.0 + k * light[c]));
            let face = lit(gain);
            let sample = LightSample {
                centre: face,
                rim: lit(gain * (1.0 - relief)),
                darker: face.map(|v| v * 0.5),
                brighter: face,
                margin: lit(gain * room),
                margin_pixels: 1_000,
                outline: lit(gain * room),
                outline_pixels: 500,
                surround: lit(gain * room),
                surround_pixels: 2_000,
                from_backlog: false,
                timed_by_arrival: false,
                camera_locked: false,
            };
            (t, sample)
        })
        .collect()
}

#[test]
fn a_near_curved_face_follows_and_flat_or_uniform_answers_are_attacks() {
    let sequence = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(3));
    let live = read(&samples(&sequence, 0.2, 0.3, 0.05), &sequence);
    assert_eq!(live.finding, LightFinding::Follows, "{}", live.describe());
    assert!((100..=200).contains(&live.offset_ms), "{}", live.describe());
    assert!(live.confirms_depth());
    let flat = read(&samples(&sequence, 0.2, 0.0, 0.05), &sequence);
    assert_eq!(flat.finding, LightFinding::Flat, "{}", flat.describe());
    let tinted = read(&samples(&sequence, 0.2, 0.0, 1.0), &sequence);
    assert_eq!(
        tinted.finding,
        LightFinding::Uniform,
        "{}",
        tinted.describe()
    );
    let unlit = read(&samples(&sequence, 0.0, 0.0, 0.0), &sequence);
    assert_eq!(
        unlit.finding,
        LightFinding::TooLittleLight,
        "{}",
        unlit.describe()
    );
    let other = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(4));
    let replayed = read(&samples(&other, 0.6, 0.3, 0.05), &sequence);
    assert_eq!(
        replayed.finding.evidence(),
        Evidence::Attack,
        "{}",
        replayed.describe()
    );
    assert_eq!(read(&[], &sequence).finding, LightFinding::TooFewFrames);
}

/// Another session's sequence is attack evidence only when the light's timing can be trusted:
/// timed by arrival, or read on a sparse or backlogged stream, it is no evidence (a `retry`),
/// while a live face read the same way still follows.
#[test]
fn another_sequence_read_late_or_under_load_is_no_evidence() {
    let sequence = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(3));
    let other = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(4));
    // the same answer on frames without capture times (timed by arrival, so the light may
    // have come later than the delay search reaches): no evidence, a retry
    let arrival_timed: Vec<_> = samples(&other, 0.6, 0.3, 0.05)
        .into_iter()
        .map(|(t, sample)| {
            let sample = LightSample {
                timed_by_arrival: true,
                ..sample
            };
            (t, sample)
        })
        .collect();
    let late = read(&arrival_timed, &sequence);
    assert_eq!(late.finding, LightFinding::Unaligned, "{}", late.describe());
    assert_eq!(late.finding.evidence(), Evidence::None);
    // the same face analysed only every third frame (~200 ms apart, an overloaded server):
    // no evidence of another sequence, a retry
    let sparse: Vec<_> = samples(&other, 0.6, 0.3, 0.05)
        .into_iter()
        .step_by(3)
        .collect();
    let overloaded = read(&sparse, &sequence);
    assert_eq!(
        overloaded.finding,
        LightFinding::TooFewFrames,
        "{}",
        overloaded.describe()
    );
    // all of its frames read, but two of every three set aside by the mailbox (their
    // arrival times jittered under load): still no attack evidence
    let backlogged = |samples: Vec<(u64, LightSample)>| -> Vec<(u64, LightSample)> {
        samples
            .into_iter()
            .enumerate()
            .map(|(i, (t, mut sample))| {
                sample.from_backlog = i % 3 != 0;
                (t, sample)
            })
            .collect()
    };
    let overloaded = read(&backlogged(samples(&other, 0.6, 0.3, 0.05)), &sequence);
    assert_eq!(
        overloaded.finding,
        LightFinding::TooFewFrames,
        "{}",
        overloaded.describe()
    );
    // while a live face read the same way still follows
    let live_backlogged = backlogged(samples(&sequence, 0.2, 0.3, 0.05));
    assert_eq!(
        read(&live_backlogged, &sequence).finding,
        LightFinding::Follows
    );
}

/// `samples` seen through a camera whose white balance pulls the whole frame back against
/// each colour (per-channel gains, the same over the frame, lagging a frame behind).
fn white_balanced(samples: Vec<(u64, LightSample)>) -> Vec<(u64, LightSample)> {
    let mut gains = [1.0f32; 3];
    samples
        .into_iter()
        .map(|(t, s)| {
            let apply = |rgb: [f32; 3]| std::array::from_fn(|c| rgb[c] * gains[c]);
            let seen = LightSample {
                centre: apply(s.centre),
                rim: apply(s.rim),
                darker: apply(s.darker),
                brighter: apply(s.brighter),
                margin: apply(s.margin),
                outline: apply(s.outline),
                surround: apply(s.surround),
                ..s
            };
            // grey world on the face, which fills much of the frame
            let mean = (s.centre[0] + s.centre[1] + s.centre[2]) / 3.0;
            gains = std::array::from_fn(|c| mean / s.centre[c].max(1e-4));
            (t, seen)
        })
        .collect()
}

#[test]
fn white_balance_and_exposure_cancel_against_the_room() {
    let sequence = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(3));
    let plain = read(&samples(&sequence, 0.2, 0.3, 0.05), &sequence);
    let balanced = read(
        &white_balanced(samples(&sequence, 0.2, 0.3, 0.05)),
        &sequence,
    );
    assert_eq!(
        balanced.finding,
        LightFinding::Follows,
        "{}",
        balanced.describe()
    );
    assert!(balanced.against_room);
    for (a, b) in [
        (plain.relief, balanced.relief),
        (plain.face_gain, balanced.face_gain),
        (plain.correlation, balanced.correlation),
    ] {
        assert!(
            (a - b).abs() < 0.02,
            "{}\n{}",
            plain.describe(),
            balanced.describe()
        );
    }
}

#[test]
fn a_print_is_told_by_its_paper_and_a_match_must_beat_chance() {
    let sequence = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(3));
    // a bent print: centre and edge answer unevenly, but so does the paper around it
    let live_samples = samples(&sequence, 0.2, 0.3, 0.05);
    // the live samples with one region answering as the face's centre does
    let paper_in = |region: fn(&mut LightSample) -> &mut [f32; 3]| -> Vec<(u64, LightSample)> {
        live_samples
            .iter()
            .map(|&(t, mut s)| {
                *region(&mut s) = s.centre;
                (t, s)
            })
            .collect()
    };
    let paper = read(&paper_in(|s| &mut s.margin), &sequence);
    assert_eq!(paper.finding, LightFinding::Flat, "{}", paper.describe());
    assert!(paper.finding.camera_dependent());
    let live = read(&live_samples, &sequence);
    assert!(live.margin_ratio < 0.3, "{}", live.describe());
    assert!(live.outline_ratio < 0.3, "{}", live.describe());
    // a sheet trimmed round the head: the margin ring reads the room, the outline ring paper
    let trimmed = read(&paper_in(|s| &mut s.outline), &sequence);
    assert!(
        trimmed.outline_ratio > 0.9 && trimmed.outline_in_errors() > 2.0,
        "{}",
        trimmed.describe()
    );
    assert!(trimmed.margin_ratio < 0.3, "{}", trimmed.describe());
    // chance is reported and the live answer is above it
    assert!(
        live.correlation > live.chance_correlation,
        "{}",
        live.describe()
    );
}

#[test]
fn without_a_room_a_camera_dependent_finding_needs_the_camera_held() {
    let sequence = Illumination::draw(&mut rand::rngs::StdRng::seed_from_u64(3));
    let close = |locked: bool| -> Vec<(u64, LightSample)> {
        samples(&sequence, 0.2, 0.0, 0.05)
            .into_iter()
            .map(|(t, s)| {
                let sample = LightSample {
                    surround_pixels: 0,
                    margin_pixels: 0,
                    outline_pixels: 0,
                    camera_locked: locked,
                    ..s
                };
                (t, sample)
            })
            .collect()
    };
    let unlocked = read(&close(false), &sequence);
    assert_eq!(
        unlocked.finding,
        LightFinding::NoRoom,
        "{}",
        unlocked.describe()
    );
    assert_eq!(unlocked.finding.evidence(), Evidence::None);
    let locked = read(&close(true), &sequence);
    assert_eq!(locked.finding, LightFinding::Flat, "{}", locked.describe());
}
