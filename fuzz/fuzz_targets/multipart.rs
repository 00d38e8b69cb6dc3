//! Fuzzes the multipart reader with its limits (`facegate_http::upload::read_form`): the
//! first input byte picks the chunk size the body arrives in, the text up to the first `\n` is
//! the boundary, the rest is the body, read through `SafeMultipart` as every upload route does.
//! Findings: a panic, or an accepted form holding a file or text over its limit. The first run
//! found actix-multipart's panic on boundaries under 4 characters (docs/fuzzing.md).
#![no_main]

use actix_web::error::PayloadError;
use actix_web::http::header::{CONTENT_TYPE, HeaderMap, HeaderValue};
use actix_web::web::Bytes;
use facegate_http::upload::{FormSpec, MAX_IMAGE_BYTES, MAX_TEXT_BYTES, SafeMultipart, read_form};
use libfuzzer_sys::fuzz_target;

const SPEC: FormSpec = FormSpec {
    files: &["image", "probe"],
    texts: &["external_face_id", "threshold"],
};

thread_local! {
    static RUNTIME: actix_web::rt::Runtime = actix_web::rt::Runtime::new().expect("runtime");
}

fuzz_target!(|data: &[u8]| {
    let Some((&chunk_byte, rest)) = data.split_first() else {
        return;
    };
    let split = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let (boundary, body) = (&rest[..split], rest.get(split + 1..).unwrap_or_default());
    let mut headers = HeaderMap::new();
    let mut content_type = b"multipart/form-data; boundary=".to_vec();
    content_type.extend_from_slice(boundary);
    let Ok(value) = HeaderValue::from_bytes(&content_type) else {
        return;
    };
    headers.insert(CONTENT_TYPE, value);
    let chunk = usize::from(chunk_byte % 64) + 1;
    let chunks: Vec<Result<Bytes, PayloadError>> = body
        .chunks(chunk)
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    // as the routes do: the boundary is checked before the parser sees the body
    let Ok(payload) = SafeMultipart::new(&headers, futures_util::stream::iter(chunks)) else {
        return;
    };
    RUNTIME.with(|runtime| {
        if let Ok(mut form) = runtime.block_on(read_form(payload, SPEC)) {
            for name in SPEC.files {
                if let Ok(file) = form.file(name) {
                    assert!(!file.is_empty() && file.len() <= MAX_IMAGE_BYTES);
                }
            }
            for name in SPEC.texts {
                assert!(form.text(name).is_none_or(|t| t.len() <= MAX_TEXT_BYTES));
            }
        }
    });
});
