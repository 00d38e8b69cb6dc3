//! The ICAO portrait checked by running the engine on its own output, the anti-spoof score on
//! the Silent-Face samples, and EXIF orientation handling.

use crate::common;

use facegate_face_engine::portrait::{
    HEAD_FRACTION, HEAD_TO_EYE_CHIN_RATIO, PORTRAIT_HEIGHT, PORTRAIT_WIDTH,
};
use facegate_face_engine::{DetectMode, DetectOptions, Image};

fn portrait_geometry_holds(relative: &str) {
    let engine = common::engine();
    let source = common::load(relative);
    let face = engine.primary_face(&source).expect("face in source");
    let portrait = engine.portrait(&source, &face).expect("portrait");
    assert!((0.0..=1.0).contains(&portrait.quality.photo_quality_score));

    let decoded = Image::decode(&portrait.jpeg).expect("portrait is a JPEG");
    assert_eq!(
        (decoded.width(), decoded.height()),
        (PORTRAIT_WIDTH, PORTRAIT_HEIGHT)
    );
    let again = engine.primary_face(&decoded).expect("face in portrait");
    let mesh = engine
        .landmarks(&decoded, &again)
        .expect("mesh on portrait");
    let (re, le) = (mesh.right_eye(), mesh.left_eye());
    let roll = (le.y - re.y).atan2(le.x - re.x).to_degrees();
    assert!(
        roll.abs() < 2.5,
        "{relative}: eyes not level, roll {roll:.2}°"
    );
    let eyes = re.midpoint(le);
    let centre_offset = (eyes.x - PORTRAIT_WIDTH as f32 / 2.0).abs() / PORTRAIT_WIDTH as f32;
    assert!(
        centre_offset < 0.03,
        "{relative}: face off-centre by {centre_offset:.3} of the width"
    );
    let chin = mesh.point(152);
    let head = (chin.y - eyes.y) * HEAD_TO_EYE_CHIN_RATIO / PORTRAIT_HEIGHT as f32;
    assert!(
        (0.70..=0.80).contains(&head),
        "{relative}: head is {head:.3} of the height"
    );
    assert!(
        (head - HEAD_FRACTION).abs() < 0.03,
        "{relative}: head {head:.3} drifted from {HEAD_FRACTION}"
    );
    println!(
        "{relative}: roll {roll:.2}°, centre offset {centre_offset:.3}, head {head:.3}, quality {:?}",
        portrait.quality
    );
}

#[test]
fn portrait_geometry_on_selfie_and_web_photos() {
    for relative in [
        "spoof/samples/live.jpg",
        "identities/celebs/id00/img1.jpg",
        "identities/celebs/id01/img26.jpg",
        "identities/tv-cast/penny/penny1.png",
    ] {
        portrait_geometry_holds(relative);
    }
}

#[test]
fn anti_spoof_separates_the_silent_face_samples() {
    let engine = common::engine();
    let score = |relative: &str| {
        let image = common::load(relative);
        let face = engine.primary_face(&image).expect("face");
        engine.anti_spoof(&image, &face).expect("anti-spoof")
    };
    let (live, print, screen) = (
        score("spoof/samples/live.jpg"),
        score("spoof/samples/print.jpg"),
        score("spoof/samples/screen.jpg"),
    );
    println!("P(real): live {live:.3}, print {print:.3}, screen {screen:.3}");
    assert!(live > 0.7, "live {live}");
    assert!(print < 0.1, "print {print}");
    assert!(screen < 0.1, "screen {screen}");
}

/// Inserts an EXIF APP1 segment with the given orientation right after the JPEG SOI marker.
fn with_exif_orientation(jpeg: &[u8], orientation: u8) -> Vec<u8> {
    let tiff: Vec<u8> = [
        &b"MM\x00\x2a\x00\x00\x00\x08"[..], // big-endian TIFF header, IFD at offset 8
        &[0x00, 0x01],                      // one entry
        &[
            0x01,
            0x12,
            0x00,
            0x03,
            0x00,
            0x00,
            0x00,
            0x01,
            0x00,
            orientation,
            0x00,
            0x00,
        ], // Orientation, SHORT, 1
        &[0x00, 0x00, 0x00, 0x00],          // no next IFD
    ]
    .concat();
    let payload = [&b"Exif\x00\x00"[..], &tiff].concat();
    let length = (payload.len() + 2) as u16;
    [
        &jpeg[..2],
        &[0xFF, 0xE1],
        &length.to_be_bytes(),
        &payload,
        &jpeg[2..],
    ]
    .concat()
}

#[test]
fn exif_orientation_is_applied_before_detection() {
    // Store the upright selfie the way a phone held sideways does: pixels turned 90° counter-
    // clockwise, with EXIF orientation 6 ("rotate 90° clockwise to display").
    let upright = image::open(common::testdata().join("spoof/samples/live.jpg")).expect("open");
    let mut stored = std::io::Cursor::new(Vec::new());
    upright
        .rotate270()
        .write_to(&mut stored, image::ImageFormat::Jpeg)
        .expect("encode");
    let rotated =
        Image::decode(&with_exif_orientation(stored.get_ref(), 6)).expect("decode with EXIF");
    assert_eq!(
        (rotated.width(), rotated.height()),
        (upright.width(), upright.height()),
        "displayed upright"
    );
    let options = DetectOptions {
        mode: DetectMode::Selfie,
        ..DetectOptions::default()
    };
    let faces = common::engine().detect(&rotated, &options).expect("detect");
    assert_eq!(faces.len(), 1);
    assert!(
        faces[0].pose.roll.abs() < 20.0,
        "roll {}",
        faces[0].pose.roll
    );
}
