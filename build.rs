//! By default only tells the crate whether it is built unoptimised (see
//! `main`): the tables are committed under `generated/`.
//!
//! With feature `regenerate`, runs the generator into `OUT_DIR` (and nowhere
//! else: never `generated/`, never the README) and the crate includes those
//! files instead: a from-source build for those who would rather not trust
//! committed generated code.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    // `cfg(bitboards_unoptimized)` at opt-level 0 (a debug build): no
    // `#[inline(always)]`, and one move generator behind `dyn Sink` rather
    // than one per sink, which only cost compile time where nothing is
    // optimised. Tests (opt-level 2 for this crate) and releases keep both.
    println!("cargo::rustc-check-cfg=cfg(bitboards_unoptimized)");
    if std::env::var_os("OPT_LEVEL").is_some_and(|level| level == "0") {
        println!("cargo::rustc-cfg=bitboards_unoptimized");
    }
    #[cfg(feature = "regenerate")]
    regenerate();
}

#[cfg(feature = "regenerate")]
fn regenerate() {
    use bitboards_codegen::{Destination, Options};

    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let options = Options::new(Destination::Directory(out_dir.into()));
    if let Err(error) = bitboards_codegen::run(&options) {
        panic!("generating the tables into OUT_DIR failed: {error}");
    }
}
