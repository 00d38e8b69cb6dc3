//! The frame cache of the liveness tests is safe when several threads extract the same video at
//! once (the race that once broke CI: two threads shared one staging folder and one deleted it
//! while the other's ffmpeg was still writing).

use liveness_rig::eval;

#[test]
fn concurrent_extractions_of_one_video_all_see_every_frame() {
    let root = tempfile::tempdir().expect("fresh cache root");
    let recordings: Vec<_> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| eval::video_cached_in(root.path(), "webcam-man-1")))
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("extraction thread"))
            .collect()
    });
    let frames = recordings[0].frames.len();
    // 40 s at 15 fps at most; the clip is longer than 10 s.
    assert!(frames > 150, "only {frames} frames extracted");
    for recording in &recordings {
        assert_eq!(recording.frames, recordings[0].frames, "same frame list");
    }
    for path in &recordings[0].frames {
        let bytes = std::fs::read(path).expect("frame readable");
        image::load_from_memory(&bytes).expect("frame decodes");
    }
    let leftovers: Vec<_> = std::fs::read_dir(root.path())
        .expect("cache root")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "only the cache folder remains: {leftovers:?}"
    );
}
