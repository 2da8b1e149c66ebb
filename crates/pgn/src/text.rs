//! Bytes of a PGN file as text: what the reader hands its visitors, and
//! what a visitor's byte methods turn back into text by default.

/// `bytes` as text, or `None` when they are not UTF-8: the reader's one
/// conversion of the moves, tag names and values and comments it hands to
/// the visitor. ASCII, nearly all of a PGN file, is taken as it is; other
/// text is validated.
#[inline]
pub(crate) fn text(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: every byte is below 0x80, and a run of ASCII bytes is
        // valid UTF-8 (each byte a one-byte character).
        #[allow(unsafe_code)]
        let text = unsafe { core::str::from_utf8_unchecked(bytes) };
        Some(text)
    } else {
        core::str::from_utf8(bytes).ok()
    }
}

/// `bytes` as text, with U+FFFD for what is not UTF-8 (tag values and
/// comments are read whatever their encoding).
#[inline]
pub(crate) fn lossy(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match text(bytes) {
        Some(text) => std::borrow::Cow::Borrowed(text),
        None => String::from_utf8_lossy(bytes),
    }
}
