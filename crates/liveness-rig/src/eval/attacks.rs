//! The attack cases of the evaluation set (see `eval_set.rs`): photos cropped tight and
//! loose, printed and on a display, a cut-out held over a live face, a live video replayed on
//! a display, two people swapped in the hold, a still photo with sensor noise, NUAA prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use image::RgbImage;
use rand::Rng;

use super::frames::{self as synth, CardPath};
use super::set::{
    Case, Half, Split, Truth, attack_frames, decode, identity_of, nuaa_sequences, read,
    video_frames,
};
use super::{camera_sized, identity_photos, load_rgb};

/// The attack cases of `half`; `active` makes them long enough for a challenge plan.
pub fn attack_cases(split: &Split, half: Half, active: bool) -> Vec<Case> {
    let count = attack_frames(active);
    let mut cases = Vec::new();
    let mut by_identity: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for photo in identity_photos() {
        by_identity
            .entry(identity_of(&photo))
            .or_default()
            .push(photo);
    }
    let videos = split.sources(half, "video/");
    for (k, source) in split.sources(half, "identity/").into_iter().enumerate() {
        let photos = by_identity[&source].clone();
        let pick = |i: usize| photos[i % photos.len()].clone();
        let file = |p: &PathBuf| {
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        };
        for (class, factor, photo) in [
            ("tight crop", 1.15f32, pick(0)),
            ("loose crop", 2.2, pick(1)),
        ] {
            let name = format!("{source}/{}", file(&photo));
            cases.push(Case::new(
                class,
                name.clone(),
                Truth::Attack,
                vec![source.clone()],
                move || {
                    let mut rng = synth::case_rng(&format!("{class} {name}"));
                    let full = load_rgb(&photo);
                    let card = synth::crop_around_face(&full, factor).unwrap_or(full);
                    let share = rng.random_range(0.45..0.7);
                    let path = CardPath::new(&mut rng, &card, share, 0.4);
                    let backdrop = synth::backdrop(&mut rng);
                    synth::card_frames(&card, &backdrop, &path, count, false, &mut rng)
                },
            ));
        }
        let (class, photo) = if k % 2 == 0 {
            ("print simulation", pick(2))
        } else {
            ("screen simulation", pick(2))
        };
        let name = format!("{source}/{}", file(&photo));
        cases.push(Case::new(
            class,
            name.clone(),
            Truth::Attack,
            vec![source.clone()],
            move || {
                let mut rng = synth::case_rng(&format!("{class} {name}"));
                let photo = camera_sized(load_rgb(&photo));
                let screen = class == "screen simulation";
                let card = if screen {
                    synth::on_screen(&photo, synth::Display::draw(&mut rng))
                } else {
                    synth::printed(&photo, &mut rng)
                };
                let share = rng.random_range(0.6..0.85);
                let path = CardPath::new(&mut rng, &card, share, 0.35);
                let backdrop = synth::backdrop(&mut rng);
                synth::card_frames(&card, &backdrop, &path, count, screen, &mut rng)
            },
        ));
        let photo = pick(3);
        let name = format!("{source}/{}", file(&photo));
        cases.push(Case::new(
            "still photo with noise",
            name.clone(),
            Truth::Attack,
            vec![source.clone()],
            move || {
                let mut rng = synth::case_rng(&format!("still {name}"));
                synth::noisy_still(&load_rgb(&photo), count, &mut rng)
            },
        ));
        if let Some(room) = videos.get(k % videos.len().max(1)) {
            // the cut-out and the room come from the same half
            let photo = pick(4);
            let name = format!("{source}/{} in {room}", file(&photo));
            let room_name = room.trim_start_matches("video/").to_string();
            cases.push(Case::new(
                "cut-out in a live room",
                name.clone(),
                Truth::Attack,
                vec![source.clone(), room.clone()],
                move || {
                    cut_out_frames(
                        &photo,
                        &room_name,
                        count,
                        &mut synth::case_rng(&format!("cut-out {name}")),
                    )
                },
            ));
        }
    }
    for (k, source) in videos.iter().enumerate() {
        let name = source.trim_start_matches("video/").to_string();
        let n = name.clone();
        cases.push(Case::new(
            "live video on a screen",
            name.clone(),
            Truth::Attack,
            vec![source.clone()],
            move || {
                video_on_screen(
                    &n,
                    count,
                    &mut synth::case_rng(&format!("video on screen {n}")),
                )
            },
        ));
        if let Some(other) = videos.get(k + 1).filter(|_| k % 2 == 0) {
            let (a, b) = (name.clone(), other.trim_start_matches("video/").to_string());
            cases.push(Case::new(
                "two people swapped in the hold",
                format!("{a}+{b}"),
                Truth::Attack,
                vec![source.clone(), other.clone()],
                move || {
                    let (fa, fb) = (video_frames(&a), video_frames(&b));
                    // the first person settles and starts the hold; the second finishes it
                    (0..count)
                        .map(|i| {
                            if i < 30 {
                                read(&fa[i % fa.len()])
                            } else {
                                read(&fb[i % fb.len()])
                            }
                        })
                        .collect()
                },
            ));
        }
    }
    for source in split.sources(half, "nuaa/") {
        for (name, paths) in nuaa_sequences("print", &source).into_iter().take(2) {
            cases.push(Case::new(
                "nuaa print",
                name,
                Truth::Attack,
                vec![source.clone()],
                move || paths.iter().map(read).collect(),
            ));
        }
    }
    cases
}

/// A face cut along its outline from `photo` and held over the face of the person in a live
/// room video: the room and the holder's body move naturally around a flat face.
fn cut_out_frames(
    photo: &Path,
    room: &str,
    count: usize,
    rng: &mut rand::rngs::StdRng,
) -> Vec<Vec<u8>> {
    let full = load_rgb(photo);
    let card = synth::crop_around_face(&full, 1.3).unwrap_or(full);
    let frames = video_frames(room);
    let first = decode(&frames[0]);
    let live_face = synth::face_box(&first);
    let mut path = CardPath::new(rng, &card, 0.6, 0.3);
    if let Some(face) = live_face {
        // the cut-out covers the live face with a margin
        path = CardPath::new(
            rng,
            &card,
            f64::from(face.height * 1.7) / f64::from(first.height()),
            0.3,
        )
        .centred_at(face.center(), &first);
    }
    (0..count)
        .map(|i| {
            let mut frame = camera_frame(&decode(&frames[i % frames.len()]));
            synth::draw_card(&card, &path.at(&card, i), &mut frame, true);
            synth::add_noise(&mut frame, rng, 2);
            super::jpeg(&frame)
        })
        .collect()
}

/// A live video played on a phone or monitor held in front of the camera.
fn video_on_screen(name: &str, count: usize, rng: &mut rand::rngs::StdRng) -> Vec<Vec<u8>> {
    let frames = video_frames(name);
    let backdrop = synth::backdrop(rng);
    let display = synth::Display::draw(rng);
    let first = synth::on_screen(&camera_sized(decode(&frames[0])), display);
    let share = rng.random_range(0.75..0.95);
    let path = CardPath::new(rng, &first, share, 0.15);
    let glare = (
        rng.random_range(150.0..490.0f32),
        rng.random_range(100.0..380.0f32),
        rng.random_range(30.0..80.0f32),
    );
    let band_phase = rng.random_range(0.0..6.0f32);
    (0..count)
        .map(|i| {
            let shown = camera_sized(decode(&frames[i % frames.len()]));
            let card = synth::on_screen(&shown, display);
            let mut frame = backdrop.clone();
            synth::draw_card(&card, &path.at(&first, i), &mut frame, false);
            synth::screen_light(&mut frame, i, glare, band_phase);
            synth::add_noise(&mut frame, rng, 3);
            super::jpeg(&frame)
        })
        .collect()
}

/// A video frame at the camera size the generators draw on.
fn camera_frame(frame: &RgbImage) -> RgbImage {
    image::imageops::resize(
        frame,
        synth::WIDTH,
        synth::HEIGHT,
        image::imageops::FilterType::Triangle,
    )
}
