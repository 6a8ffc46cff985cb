//! Static assets, embedded in the binary and served under content-hashed names, so browsers may
//! cache them for a year: a changed file gets a new name. `crate::pages::static_files` serves
//! them.

pub(crate) mod embedded;
pub mod webapp;

pub(crate) use embedded::ASSETS;
pub use embedded::{
    analytics_script_path, copy_script_path, live_script_path, session_hint_script_path,
    sign_preview_script_path, stylesheet_path,
};

/// Whether an `Accept-Encoding` value accepts `coding`: named (or `*`) with a quality above 0.
pub(crate) fn accepts(offered: &str, coding: &str) -> bool {
    let mut named = None;
    let mut any = None;
    for item in offered.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let quality = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .map_or(1.0_f32, |q| q.trim().parse().unwrap_or(0.0));
        let acceptable = quality > 0.0;
        if name.eq_ignore_ascii_case(coding) {
            named = Some(acceptable);
        } else if name == "*" {
            any = Some(acceptable);
        }
    }
    named.or(any).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_encoding_is_read_with_its_qualities_and_wildcard() {
        assert!(accepts("gzip, deflate, br, zstd", "br"));
        assert!(accepts("gzip;q=1.0, br;q=0.5", "br"));
        assert!(!accepts("gzip, br;q=0", "br"));
        assert!(accepts("*", "gzip"));
        assert!(!accepts("*;q=0, identity", "gzip"));
        assert!(!accepts("", "br"));
    }
}
