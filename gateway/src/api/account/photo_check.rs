//! What a profile photo must be: JPEG, PNG or WebP, at most 1 MiB, and really of the type its
//! `Content-Type` claims (checked by the file's first bytes, its "magic number").
//!
//! The bytes are checked rather than trusted because the photo is served back, from our own
//! origin, to everyone who sees the dashboard: a file that claims `image/png` but is HTML or SVG
//! must never be stored.

use axum::http::StatusCode;

use crate::error::ApiError;

/// The largest photo accepted, in bytes (1 MiB).
pub const MAX_PHOTO_BYTES: usize = 1024 * 1024;

/// A photo format Balcão stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhotoType {
    /// `image/jpeg`: starts `FF D8 FF`.
    Jpeg,
    /// `image/png`: starts with the 8-byte PNG signature.
    Png,
    /// `image/webp`: a RIFF container whose form type is `WEBP`.
    Webp,
}

impl PhotoType {
    /// The type named by a `Content-Type` value (parameters and case ignored), if it is one of
    /// ours.
    pub fn from_content_type(value: &str) -> Option<PhotoType> {
        let essence = value
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        match essence.as_str() {
            "image/jpeg" => Some(PhotoType::Jpeg),
            "image/png" => Some(PhotoType::Png),
            "image/webp" => Some(PhotoType::Webp),
            _ => None,
        }
    }

    /// The media type stored and served.
    pub fn mime(self) -> &'static str {
        match self {
            PhotoType::Jpeg => "image/jpeg",
            PhotoType::Png => "image/png",
            PhotoType::Webp => "image/webp",
        }
    }

    /// The name people know the format by.
    pub fn label(self) -> &'static str {
        match self {
            PhotoType::Jpeg => "JPEG",
            PhotoType::Png => "PNG",
            PhotoType::Webp => "WebP",
        }
    }

    /// Whether `bytes` start the way a file of this type must.
    pub fn matches(self, bytes: &[u8]) -> bool {
        match self {
            PhotoType::Jpeg => bytes.starts_with(&[0xFF, 0xD8, 0xFF]),
            PhotoType::Png => bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            PhotoType::Webp => {
                bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP"
            }
        }
    }
}

/// 415 `unsupported-photo-type`: not JPEG, PNG or WebP.
pub fn unsupported_photo_type() -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported-photo-type",
        "Use uma foto em JPEG, PNG ou WebP.",
    )
}

/// 413 `photo-too-large`: over [`MAX_PHOTO_BYTES`].
pub fn photo_too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "photo-too-large",
        "A foto passa de 1 MB. Escolha uma imagem menor.",
    )
}

/// The type a `Content-Type` header declares, when it is one of ours (checked before the body
/// is read: a file of the wrong kind is refused as such, whatever its size).
///
/// # Errors
///
/// 415 `unsupported-photo-type`.
pub fn declared(content_type: Option<&str>) -> Result<PhotoType, ApiError> {
    content_type
        .and_then(PhotoType::from_content_type)
        .ok_or_else(unsupported_photo_type)
}

/// The photo's type, when the declared `content_type` is one of ours and `bytes` really are of
/// that type.
///
/// # Errors
///
/// 415 `unsupported-photo-type` for another or a missing type, or bytes that are not what the
/// type says (an empty body included); 413 `photo-too-large` over [`MAX_PHOTO_BYTES`].
pub fn check(content_type: Option<&str>, bytes: &[u8]) -> Result<PhotoType, ApiError> {
    let kind = declared(content_type)?;
    if bytes.len() > MAX_PHOTO_BYTES {
        return Err(photo_too_large());
    }
    if !kind.matches(bytes) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-photo-type",
            format!(
                "O arquivo enviado não é uma imagem {} válida. Use uma foto em JPEG, PNG ou WebP.",
                kind.label()
            ),
        ));
    }
    Ok(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, b'J', b'F', b'I', b'F'];
    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    const WEBP: &[u8] = b"RIFF\x24\0\0\0WEBPVP8 ";

    #[test]
    fn each_type_is_accepted_when_its_bytes_agree() {
        assert_eq!(check(Some("image/jpeg"), JPEG).unwrap(), PhotoType::Jpeg);
        assert_eq!(check(Some("image/png"), PNG).unwrap(), PhotoType::Png);
        assert_eq!(
            check(Some("IMAGE/WEBP; q=1"), WEBP).unwrap(),
            PhotoType::Webp
        );
    }

    #[test]
    fn bytes_of_another_type_than_declared_are_refused() {
        for (declared, bytes) in [
            ("image/png", JPEG),
            ("image/jpeg", PNG),
            ("image/webp", PNG),
            (
                "image/png",
                b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>".as_slice(),
            ),
            ("image/webp", b"RIFF\x24\0\0\0WAVEfmt ".as_slice()),
            ("image/jpeg", b"".as_slice()),
        ] {
            let error = check(Some(declared), bytes).expect_err(declared);
            assert_eq!(error.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
            assert_eq!(error.code(), "unsupported-photo-type");
        }
    }

    #[test]
    fn other_or_missing_types_are_refused_before_the_bytes_are_looked_at() {
        for declared in [
            Some("image/gif"),
            Some("image/svg+xml"),
            Some("text/html"),
            None,
        ] {
            let error = check(declared, PNG).expect_err("refused");
            assert_eq!(error.code(), "unsupported-photo-type");
            assert_eq!(error.message(), "Use uma foto em JPEG, PNG ou WebP.");
        }
    }

    #[test]
    fn one_mebibyte_is_accepted_and_one_byte_more_is_not() {
        let mut bytes = PNG.to_vec();
        bytes.resize(MAX_PHOTO_BYTES, 0);
        assert!(check(Some("image/png"), &bytes).is_ok());
        bytes.push(0);
        let error = check(Some("image/png"), &bytes).expect_err("too large");
        assert_eq!(error.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(error.code(), "photo-too-large");
    }
}
