//! Does nothing by default: the tables are committed under `generated/`.
//!
//! With feature `regenerate`, runs the generator into `OUT_DIR` and the crate
//! includes those files instead: a from-source build for those who would
//! rather not trust committed generated code.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(feature = "regenerate")]
    regenerate();
}

#[cfg(feature = "regenerate")]
fn regenerate() {
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let out_dir = std::path::Path::new(&out_dir);
    if let Err(error) = bitboards_codegen::sync(out_dir, bitboards_codegen::Mode::Write) {
        panic!(
            "generating the tables into {} failed: {error}",
            out_dir.display()
        );
    }
}
