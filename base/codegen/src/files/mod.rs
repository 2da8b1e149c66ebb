//! One module per generated file, each computing its tables the obvious way
//! (walking coordinates, see [`crate::geometry`]) and documenting them. The
//! registry ([`crate::registry`]) lists their functions.

pub(crate) mod leapers;
pub(crate) mod lines;
pub(crate) mod masks;
pub(crate) mod names;
pub(crate) mod pext;
pub(crate) mod rays;
pub(crate) mod sliders;
pub(crate) mod zobrist;

/// An example block for a doc comment.
pub(crate) fn example(code: &str) -> String {
    format!("\n\n```\n{code}\n```")
}
