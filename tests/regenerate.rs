//! With feature `regenerate`, build.rs writes the tables into OUT_DIR and the
//! crate is built from those: they must be byte for byte the committed ones.
#![cfg(feature = "regenerate")]

use std::path::Path;

#[test]
fn build_script_tables_equal_the_committed_ones() {
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let built = Path::new(env!("OUT_DIR"));
    let mut compared = 0;
    for entry in std::fs::read_dir(&committed).expect("generated/ exists") {
        let name = entry.expect("readable entry").file_name();
        let ours = std::fs::read(committed.join(&name)).expect("readable committed file");
        let theirs = std::fs::read(built.join(&name))
            .unwrap_or_else(|e| panic!("build.rs did not write {name:?}: {e}"));
        assert!(
            ours == theirs,
            "{name:?} differs between generated/ and OUT_DIR"
        );
        compared += 1;
    }
    assert!(compared >= 4, "only {compared} files compared");
}
