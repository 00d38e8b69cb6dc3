//! The ICAO portrait checked by running the engine on its own output, the anti-spoof score on
//! the Silent-Face samples, and EXIF orientation handling.

use crate::common;

use domain::PortraitRequirement;
use facegate_face_engine::portrait::{
    HEAD_FRACTION, HEAD_TO_EYE_CHIN_RATIO, OTHER_FACE_WIDTH_SHARE, PORTRAIT_HEIGHT, PORTRAIT_WIDTH,
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

/// The portrait's single-face requirement confirms and verifies only the group detector's
/// boxes that could be another face; it counts what confirming every box and filtering after
/// counts, on group photos (other faces of every size) and on a selfie with people behind.
#[test]
fn a_portrait_counts_the_other_faces_every_confirmed_box_gives() {
    let engine = common::engine();
    let mut others_seen = 0;
    for relative in [
        "groups/couple.jpg",
        "groups/group-1.jpg",
        "groups/group-2.jpg",
        "groups/selfie-many-people.jpg",
        "groups/bbt1.jpg",
        "groups/annotated/2008_002506.jpg",
        "spoof/samples/live.jpg",
    ] {
        let image = common::load(relative);
        let face = engine.primary_face(&image).expect("a face");
        let min_width = face.bbox.width * OTHER_FACE_WIDTH_SHARE;
        let others = engine
            .detect(&image, &DetectOptions::default())
            .expect("detect")
            .iter()
            .filter(|other| other.bbox.iou(&face.bbox) < 0.3 && other.bbox.width >= min_width)
            .count();
        let draft = engine.portrait_draft(&image, &face).expect("portrait");
        let single_face = draft
            .quality()
            .requirements
            .iter()
            .find(|check| check.requirement == PortraitRequirement::SingleFace)
            .expect("the single-face requirement");
        assert_eq!(single_face.value, (1 + others) as f32, "{relative}");
        others_seen += others;
    }
    assert!(others_seen > 0, "no photo had another face to count");
}

/// A face that carries its first mesh pass (`first_mesh_pass`, as a liveness frame's
/// observation keeps it) gives the portrait a fresh detection gives, byte for byte.
#[test]
fn a_face_carrying_its_first_mesh_pass_gives_the_same_portrait() {
    let engine = common::engine();
    for relative in ["spoof/samples/live.jpg", "identities/celebs/id01/img26.jpg"] {
        let image = common::load(relative);
        let fresh = engine.primary_face(&image).expect("a face");
        let mut carried = fresh.clone();
        let pass = engine
            .first_mesh_pass(&image, &mut carried)
            .expect("first pass");
        let single = engine
            .landmarks_single_pass(&image, &fresh)
            .expect("single pass");
        assert_eq!(pass, single, "{relative}");
        let from_fresh = engine.portrait(&image, &fresh).expect("portrait");
        let from_carried = engine.portrait(&image, &carried).expect("portrait");
        assert_eq!(from_fresh.quality, from_carried.quality, "{relative}");
        assert!(
            from_fresh.jpeg == from_carried.jpeg,
            "{relative}: the JPEGs differ"
        );
    }
}
