//! Does nothing by default: the tables are committed under `generated/`.
//!
//! With feature `regenerate`, runs the generator into `OUT_DIR` (and nowhere
//! else: never `generated/`, never the README) and the crate includes those
//! files instead: a from-source build for those who would rather not trust
//! committed generated code.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
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
