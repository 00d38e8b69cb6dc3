//! Turns untrusted bytes into an upright RGB image: format sniffing, a pixel limit checked
//! before any pixel is decoded, EXIF orientation, and grey/RGBA/16-bit to RGB8 conversion.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};

use crate::error::{EngineError, EngineResult};

/// Default pixel limit: 40 megapixels, far above any camera frame or ID photo.
pub const DEFAULT_MAX_PIXELS: u64 = 40_000_000;

/// An upright RGB8 image ready for the engine.
#[derive(Debug, Clone)]
pub struct Image {
    rgb: RgbImage,
}

impl Image {
    /// Decodes JPEG, PNG or WebP bytes with the default pixel limit.
    pub fn decode(bytes: &[u8]) -> EngineResult<Self> {
        Self::decode_with_limit(bytes, DEFAULT_MAX_PIXELS)
    }

    /// Decodes JPEG, PNG or WebP bytes, refusing images that declare more than `max_pixels`.
    pub fn decode_with_limit(bytes: &[u8], max_pixels: u64) -> EngineResult<Self> {
        if bytes.is_empty() {
            return Err(EngineError::EmptyImage);
        }
        let format = image::guess_format(bytes).map_err(|_| EngineError::UnsupportedFormat)?;
        if !matches!(
            format,
            ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP
        ) {
            return Err(EngineError::UnsupportedFormat);
        }
        if format == ImageFormat::Jpeg && !jpeg_has_end_of_image(bytes) {
            return Err(EngineError::CorruptImage(
                "truncated JPEG: no end-of-image marker after the last scan".into(),
            ));
        }
        let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
        let mut limits = Limits::default();
        // Allocation bound: 4 bytes a pixel (RGBA8) plus decoder slack.
        limits.max_alloc = Some(max_pixels.saturating_mul(8));
        reader.limits(limits);
        let mut decoder = reader.into_decoder().map_err(corrupt)?;
        let (width, height) = decoder.dimensions();
        if u64::from(width) * u64::from(height) > max_pixels {
            return Err(EngineError::TooManyPixels {
                width,
                height,
                max_pixels,
            });
        }
        if width == 0 || height == 0 {
            return Err(EngineError::CorruptImage("zero-sized image".into()));
        }
        let orientation = decoder.orientation().ok();
        let mut image = DynamicImage::from_decoder(decoder).map_err(corrupt)?;
        if let Some(orientation) = orientation {
            image.apply_orientation(orientation);
        }
        Ok(Self {
            rgb: image.into_rgb8(),
        })
    }

    /// Wraps an RGB image that is already upright.
    pub fn from_rgb(rgb: RgbImage) -> Self {
        Self { rgb }
    }

    pub fn width(&self) -> u32 {
        self.rgb.width()
    }

    pub fn height(&self) -> u32 {
        self.rgb.height()
    }

    pub fn rgb(&self) -> &RgbImage {
        &self.rgb
    }

    pub fn into_rgb(self) -> RgbImage {
        self.rgb
    }
}

/// The JPEG decoder pads a truncated scan with grey instead of failing, so truncation is
/// detected here: an end-of-image marker (FF D9) must follow the last start-of-scan (FF DA).
/// Inside entropy-coded data a literal FF is always stuffed as FF 00, so the search is exact.
/// Both searches are SIMD (`memchr::memmem`): a baseline JPEG's only scan starts near its
/// head, so the backward search crosses the whole upload, which a pairwise loop took about a
/// millisecond a megabyte to do.
fn jpeg_has_end_of_image(bytes: &[u8]) -> bool {
    const START_OF_SCAN: [u8; 2] = [0xFF, 0xDA];
    const END_OF_IMAGE: [u8; 2] = [0xFF, 0xD9];
    match memchr::memmem::rfind(bytes, &START_OF_SCAN) {
        Some(start) => memchr::memmem::find(&bytes[start..], &END_OF_IMAGE).is_some(),
        None => false,
    }
}

fn corrupt(e: image::ImageError) -> EngineError {
    match e {
        image::ImageError::Limits(l) => EngineError::CorruptImage(format!("limit exceeded: {l}")),
        image::ImageError::Unsupported(_) => EngineError::UnsupportedFormat,
        other => EngineError::CorruptImage(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_bytes(img: DynamicImage) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).expect("encode");
        out.into_inner()
    }

    #[test]
    fn rejects_empty_text_and_truncated_input() {
        assert!(matches!(Image::decode(b""), Err(EngineError::EmptyImage)));
        assert!(matches!(
            Image::decode(b"hello, this is text"),
            Err(EngineError::UnsupportedFormat)
        ));
        let png = png_bytes(DynamicImage::new_rgb8(64, 64));
        let truncated = &png[..png.len() / 2];
        assert!(matches!(
            Image::decode(truncated),
            Err(EngineError::CorruptImage(_))
        ));
    }

    #[test]
    fn a_jpeg_ends_only_with_an_end_of_image_after_its_last_scan() {
        assert!(jpeg_has_end_of_image(&[
            0xFF, 0xD8, 0xFF, 0xDA, 1, 2, 0xFF, 0xD9
        ]));
        // an end-of-image marker before the last scan does not end it
        assert!(!jpeg_has_end_of_image(&[
            0xFF, 0xDA, 0xFF, 0xD9, 0xFF, 0xDA, 1, 2
        ]));
        assert!(!jpeg_has_end_of_image(&[0xFF, 0xD8, 0xFF, 0xD9]));
        assert!(!jpeg_has_end_of_image(&[0xFF, 0xDA, 0xFF]));
        assert!(!jpeg_has_end_of_image(&[]));
    }

    #[test]
    fn converts_grey_and_rgba_to_rgb() {
        for img in [
            DynamicImage::new_luma8(20, 10),
            DynamicImage::new_rgba8(20, 10),
        ] {
            let decoded = Image::decode(&png_bytes(img)).expect("decode");
            assert_eq!((decoded.width(), decoded.height()), (20, 10));
        }
    }

    #[test]
    fn refuses_declared_size_over_limit_before_decoding() {
        let png = png_bytes(DynamicImage::new_rgb8(100, 100));
        let err = Image::decode_with_limit(&png, 5_000).expect_err("over limit");
        assert!(matches!(
            err,
            EngineError::TooManyPixels {
                width: 100,
                height: 100,
                ..
            }
        ));
    }
}
