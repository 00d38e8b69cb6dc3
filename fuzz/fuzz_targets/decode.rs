//! Fuzzes decoding alone (fast: thousands of executions a second): any panic, abort or
//! allocation beyond the pixel limit is a finding.
#![no_main]

use facegate_face_engine::Image;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(image) = Image::decode_with_limit(data, 4_000_000) {
        assert!(u64::from(image.width()) * u64::from(image.height()) <= 4_000_000);
    }
});
