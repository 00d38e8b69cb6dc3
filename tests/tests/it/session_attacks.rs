//! Presentation attacks over the real WebSocket never pass: a still photo sent as every frame,
//! and photos turned, scaled and moved in front of the camera. A session without a `pass` has
//! no portrait and cannot be compared with.

use std::time::Duration;

use facegate_blackbox_tests::live;
use facegate_blackbox_tests::{
    Part, create_key, create_managed_session, get_bytes, keyed_session_result, multipart, send,
    start_server, testdata_file,
};
use serde_json::json;

#[test]
fn a_still_photo_over_the_socket_never_passes_and_a_session_without_pass_has_no_photo() {
    let server = start_server(&[]);
    let key = create_key(&server, "t");
    let created = create_managed_session(&server, &key, json!({"mode": "passive"}));
    let (id, token) = (
        created["session_id"].as_str().expect("id"),
        created["token"].as_str().expect("token"),
    );
    let photo = std::fs::read(
        facegate_blackbox_tests::repo_root().join("../shared/testdata/spoof/samples/print.jpg"),
    )
    .expect("photo");
    let mut socket = live::open(&server.base_url, id, token);
    let outcome = live::stream(&mut socket, &[photo], 15, Duration::from_secs(40));
    live::assert_no_engine_internals(&outcome.messages);
    let verdict = outcome
        .verdict()
        .unwrap_or_else(|| panic!("no verdict: {:?}", outcome.messages));
    assert_ne!(verdict["verdict"], "pass", "{verdict}");
    let keyed = keyed_session_result(&server, id, &key);
    let reasons: Vec<&str> = keyed.body["reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .filter_map(|r| r.as_str())
        .collect();
    assert!(
        reasons.contains(&"injection_suspected"),
        "a still photo repeated is refused as a stream no camera makes: {reasons:?}"
    );
    assert!(
        keyed.body.get("photo_quality").is_none(),
        "no portrait without a pass: {}",
        keyed.body
    );
    let (status, body) = get_bytes(&format!(
        "{}/api/v1/session/{id}/photo?token={token}",
        server.base_url
    ));
    assert_eq!(status, 404, "{}", String::from_utf8_lossy(&body));
    let (ct, body) = multipart(&[
        ("session_id", Part::Text(id.to_owned())),
        ("probe", testdata_file("identities/celebs/id00/img1.jpg")),
    ]);
    let compare = send(
        "POST",
        &format!("{}/api/v1/compare-with-session", server.base_url),
        Some(&key),
        Some(&ct),
        body,
    );
    assert_eq!(
        (compare.status, compare.code()),
        (409, "session_not_verified")
    );
}
/// `photo` held in front of a 640×480 camera and moved: each frame the photo is turned, scaled
/// and shifted along a smooth path over a grey wall, with fresh sensor noise.
fn moved_photo_frames(photo: &image::RgbImage, frames: usize) -> Vec<Vec<u8>> {
    let side = photo.width().max(photo.height()) as f32;
    (0..frames)
        .map(|i| {
            let t = i as f32 / 15.0;
            let angle = 0.25 * (1.1 * t).sin();
            let scale = 300.0 / side * (1.0 + 0.12 * (0.7 * t).sin());
            let (cx, cy) = (
                320.0 + 60.0 * (0.9 * t).sin(),
                240.0 + 30.0 * (1.3 * t).cos(),
            );
            let (sin, cos) = angle.sin_cos();
            let (pw, ph) = (photo.width() as f32, photo.height() as f32);
            let mut frame = image::RgbImage::from_pixel(640, 480, image::Rgb([96, 104, 112]));
            for (x, y, pixel) in frame.enumerate_pixels_mut() {
                // frame → photo: undo the shift, the turn and the scale
                let (dx, dy) = (x as f32 - cx, y as f32 - cy);
                let u = (cos * dx + sin * dy) / scale + pw / 2.0;
                let v = (-sin * dx + cos * dy) / scale + ph / 2.0;
                if u >= 0.0 && v >= 0.0 && u < pw - 1.0 && v < ph - 1.0 {
                    *pixel = *photo.get_pixel(u as u32, v as u32);
                }
                let noise = ((x * 7 + y * 13 + i as u32 * 31) % 5) as i16 - 2;
                for c in &mut pixel.0 {
                    *c = (i16::from(*c) + noise).clamp(0, 255) as u8;
                }
            }
            let mut out = Vec::new();
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
                .encode_image(&frame)
                .expect("encode");
            out
        })
        .collect()
}

#[test]
fn a_photo_moved_in_front_of_the_camera_never_passes() {
    let server = start_server(&[]);
    let key = create_key(&server, "t");
    let root = facegate_blackbox_tests::repo_root().join("../shared/testdata/identities/celebs");
    for (person, file) in [
        ("id00", "img1.jpg"),
        ("id01", "img26.jpg"),
        ("id02", "img47.jpg"),
    ] {
        // sniffed like an upload: one shared "jpg" is WebP inside
        let bytes = std::fs::read(root.join(person).join(file)).expect("photo");
        let photo = face_engine::Image::decode(&bytes)
            .expect("decode")
            .into_rgb();
        let frames = moved_photo_frames(&photo, 150);
        let created = create_managed_session(&server, &key, json!({"mode": "passive"}));
        let (id, token) = (
            created["session_id"].as_str().expect("id"),
            created["token"].as_str().expect("token"),
        );
        let mut socket = live::open(&server.base_url, id, token);
        let outcome = live::stream(&mut socket, &frames, 15, Duration::from_secs(40));
        let verdict = outcome
            .verdict()
            .map_or(json!("no verdict"), |v| v["verdict"].clone());
        assert_ne!(verdict, json!("pass"), "{person}: a moved photo passed");
        println!("{person}: moved photo → {verdict}");
    }
}
