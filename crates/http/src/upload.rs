//! Multipart uploads with limits enforced while streaming: a file over the per-image limit is
//! refused as soon as its bytes pass the limit (413 `image_too_large`), the whole request is
//! bounded, and missing, unknown, duplicated or mistyped fields get clear 400 errors.

use std::collections::HashMap;

use actix_multipart::{Multipart, MultipartError};
use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header::{CONTENT_TYPE, HeaderMap};
use actix_web::web::Bytes;
use actix_web::{FromRequest, HttpRequest};
use futures_util::Stream;
use futures_util::StreamExt;

use crate::error::{ApiError, Code};

/// Per-image limit of the spec: 8 MB.
pub const MAX_IMAGE_BYTES: usize = 8 * 1024 * 1024;
/// Longest accepted text field.
pub const MAX_TEXT_BYTES: usize = 4096;
/// Bound on a whole multipart request: two images plus text fields and framing.
pub const MAX_REQUEST_BYTES: usize = 2 * MAX_IMAGE_BYTES + 256 * 1024;

/// What a route accepts.
#[derive(Debug, Clone, Copy)]
pub struct FormSpec {
    pub files: &'static [&'static str],
    pub texts: &'static [&'static str],
}

/// Parsed fields.
#[derive(Debug, Default)]
pub struct Form {
    files: HashMap<String, Vec<u8>>,
    texts: HashMap<String, String>,
}

impl Form {
    /// A required file field.
    pub fn file(&mut self, name: &str) -> Result<Vec<u8>, ApiError> {
        let bytes = self.files.remove(name).ok_or_else(|| {
            ApiError::new(
                Code::MissingField,
                format!("multipart file field `{name}` is required"),
            )
        })?;
        if bytes.is_empty() {
            return Err(ApiError::new(
                Code::EmptyImage,
                format!("`{name}` is an empty file"),
            ));
        }
        Ok(bytes)
    }

    pub fn text(&self, name: &str) -> Option<&str> {
        self.texts.get(name).map(String::as_str)
    }

    pub fn required_text(&self, name: &str) -> Result<&str, ApiError> {
        self.text(name).ok_or_else(|| {
            ApiError::new(
                Code::MissingField,
                format!("multipart field `{name}` is required"),
            )
        })
    }
}

fn too_large(name: &str) -> ApiError {
    ApiError::new(
        Code::ImageTooLarge,
        format!("`{name}` is larger than 8 MB (8388608 bytes)"),
    )
}

/// A multipart framing error, or the body's deadline passing (408).
fn multipart_error(error: MultipartError) -> ApiError {
    match &error {
        MultipartError::Payload(payload) if crate::deadline::is_body_timeout(payload) => {
            crate::deadline::body_timeout()
        }
        _ => ApiError::new(Code::InvalidMultipart, error.to_string()),
    }
}

/// Shortest multipart boundary accepted: RFC 2046 allows 1 to 70 characters, and clients use
/// short ones (openapi-python-client's generated code sends `+++`). actix-multipart 0.7.2
/// panicked on boundaries under 4 characters (found by `fuzz/fuzz_targets/multipart.rs`), so
/// they were refused until 0.8, whose parser no longer indexes past a short line;
/// `tests/tests/it/hostile_input.rs` replays the inputs that crashed it.
pub const MIN_BOUNDARY_LEN: usize = 1;
/// Longest multipart boundary (RFC 2046).
pub const MAX_BOUNDARY_LEN: usize = 70;

/// A multipart body whose boundary the parser handles safely: the extractor every upload
/// route takes instead of `actix_multipart::Multipart`.
pub struct SafeMultipart(Multipart);

impl std::fmt::Debug for SafeMultipart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SafeMultipart")
    }
}

impl SafeMultipart {
    /// Checks the content type's boundary, then reads `stream` as multipart.
    pub fn new<S>(headers: &HeaderMap, stream: S) -> Result<Self, ApiError>
    where
        S: Stream<Item = Result<Bytes, PayloadError>> + 'static,
    {
        check_boundary(headers)?;
        Ok(Self(Multipart::new(headers, stream)))
    }
}

impl FromRequest for SafeMultipart {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        std::future::ready(Self::new(req.headers(), payload.take()))
    }
}

/// 400 `invalid_multipart` for a multipart content type whose boundary is shorter than
/// [`MIN_BOUNDARY_LEN`] or longer than [`MAX_BOUNDARY_LEN`]; anything else is left to the
/// parser (which refuses a missing boundary or another content type itself).
fn check_boundary(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(content_type) = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return Ok(());
    };
    let Ok(mime) = content_type.parse::<actix_web::mime::Mime>() else {
        return Ok(());
    };
    match mime.get_param(actix_web::mime::BOUNDARY) {
        Some(boundary)
            if !(MIN_BOUNDARY_LEN..=MAX_BOUNDARY_LEN).contains(&boundary.as_str().len()) =>
        {
            Err(ApiError::new(
                Code::InvalidMultipart,
                format!(
                    "the multipart boundary must be {MIN_BOUNDARY_LEN} to {MAX_BOUNDARY_LEN} characters"
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// Reads a multipart body according to `spec`.
pub async fn read_form(payload: SafeMultipart, spec: FormSpec) -> Result<Form, ApiError> {
    let mut payload = payload.0;
    let mut form = Form::default();
    let mut total = 0usize;
    while let Some(field) = payload.next().await {
        let mut field = field.map_err(multipart_error)?;
        let name = field.name().unwrap_or_default().to_owned();
        let is_file = spec.files.contains(&name.as_str());
        let is_text = spec.texts.contains(&name.as_str());
        if !is_file && !is_text {
            return Err(ApiError::new(
                Code::UnknownField,
                format!("unexpected multipart field `{name}`"),
            ));
        }
        if form.files.contains_key(&name) || form.texts.contains_key(&name) {
            return Err(ApiError::new(
                Code::DuplicateField,
                format!("multipart field `{name}` was sent twice"),
            ));
        }
        if is_file
            && field
                .content_disposition()
                .and_then(|d| d.get_filename())
                .is_none()
        {
            return Err(ApiError::new(
                Code::InvalidFieldType,
                format!("`{name}` must be a file part"),
            ));
        }
        let limit = if is_file {
            MAX_IMAGE_BYTES
        } else {
            MAX_TEXT_BYTES
        };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(multipart_error)?;
            total += chunk.len();
            if total > MAX_REQUEST_BYTES {
                return Err(ApiError::new(
                    Code::RequestTooLarge,
                    "the request body is larger than 16.25 MB",
                ));
            }
            if bytes.len() + chunk.len() > limit {
                return Err(if is_file {
                    too_large(&name)
                } else {
                    ApiError::new(
                        Code::FieldTooLong,
                        format!("`{name}` is longer than {MAX_TEXT_BYTES} bytes"),
                    )
                });
            }
            bytes.extend_from_slice(&chunk);
        }
        if is_file {
            form.files.insert(name, bytes);
        } else {
            let text = String::from_utf8(bytes).map_err(|_| {
                ApiError::new(
                    Code::InvalidFieldType,
                    format!("`{name}` must be UTF-8 text"),
                )
            })?;
            form.texts.insert(name, text);
        }
    }
    Ok(form)
}
