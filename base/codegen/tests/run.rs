//! The generator's one entry point: deterministic output with the header,
//! check mode that writes nothing, writes only on change, and strays named.
//! (The workspace's own `generated/` is checked by the root crate's
//! `tests/regenerate.rs`.)

use std::path::PathBuf;

use bitboards_codegen::{Destination, HEADER, Mode, Options, Status, run};

/// A fresh, empty folder under the system's temp dir.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitboards-codegen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn generation_is_deterministic_and_headed() {
    let first = run(&Options::new(Destination::Memory)).expect("the generator runs");
    let second = run(&Options::new(Destination::Memory)).expect("the generator runs");
    assert_eq!(first.files.len(), second.files.len());
    for (a, b) in first.files.iter().zip(&second.files) {
        assert_eq!(a.name, b.name);
        assert!(
            a.contents == b.contents,
            "{} differs between two runs",
            a.name
        );
        assert!(
            a.contents.starts_with(HEADER),
            "{} lacks the header",
            a.name
        );
        assert!(!a.contents.contains('\r'), "{} has CR line endings", a.name);
    }
}

#[test]
fn the_index_includes_every_file_under_its_feature() {
    let report = run(&Options::new(Destination::Memory)).unwrap();
    let (index, files) = report.files.split_last().unwrap();
    assert_eq!(index.name, "index.rs");
    for file in files {
        let include = format!("include!(\"{}\");", file.name);
        let expected = match file.feature {
            Some(feature) => format!("#[cfg(feature = \"{feature}\")]\n{include}"),
            None => include,
        };
        assert!(index.contents.contains(&expected), "{expected} missing");
        for table in &file.tables {
            assert!(
                index.contents.contains(&format!("(\"{}\", ", table.name))
                    || index.contents.contains(&format!("\"{}\",\n", table.name)),
                "{} missing from the catalog",
                table.name
            );
        }
    }
}

#[test]
fn check_mode_reports_stale_files_and_writes_nothing() {
    let dir = scratch("check");
    let mut options = Options::new(Destination::Directory(dir.clone()));
    options.mode = Mode::Check;
    let checked = run(&options).expect("check runs");
    assert!(checked.files.iter().all(|f| f.status == Status::Stale));
    assert!(!checked.is_fresh());
    assert!(!dir.exists(), "check mode created the folder");

    options.mode = Mode::Write;
    let written = run(&options).expect("write runs");
    assert!(written.files.iter().all(|f| f.status == Status::Written));
    let again = run(&options).expect("write runs");
    assert!(
        again.files.iter().all(|f| f.status == Status::Unchanged),
        "rewrote unchanged files"
    );
    assert!(
        again.table_list.is_none(),
        "a plain folder has no table list"
    );

    // One changed byte makes exactly that file stale.
    let masks = dir.join("masks.rs");
    let mut text = std::fs::read_to_string(&masks).unwrap();
    text.push('\n');
    std::fs::write(&masks, text).unwrap();
    options.mode = Mode::Check;
    let checked = run(&options).unwrap();
    let stale: Vec<&str> = checked
        .files
        .iter()
        .filter(|f| f.status == Status::Stale)
        .map(|f| f.name)
        .collect();
    assert_eq!(stale, ["masks.rs"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_nothing_generates_is_a_stray() {
    let dir = scratch("stray");
    let options = Options::new(Destination::Directory(dir.clone()));
    run(&options).unwrap();
    std::fs::write(dir.join("old_table.rs"), "// renamed since\n").unwrap();
    let report = run(&options).unwrap();
    assert_eq!(report.strays, [dir.join("old_table.rs")]);
    assert!(!report.is_fresh());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_workspace_gets_its_table_list_and_needs_the_markers() {
    let root = scratch("workspace");
    std::fs::create_dir_all(root.join("docs")).unwrap();
    let design = root.join("docs").join("design.md");
    std::fs::write(&design, "# Tables\n\nnone yet\n").unwrap();
    let options = Options::new(Destination::Workspace(root.clone()));
    let error = run(&options).unwrap_err().to_string();
    assert!(
        error.contains("design.md") && error.contains("tables:start"),
        "{error}"
    );
    assert!(
        !root.join("generated").exists(),
        "wrote files despite the error"
    );

    let before = format!(
        "# Tables\n\n{}\n{}\n\nafter\n",
        bitboards_codegen::TABLE_LIST_START,
        bitboards_codegen::TABLE_LIST_END
    );
    std::fs::write(&design, &before).unwrap();
    let report = run(&options).unwrap();
    assert_eq!(report.table_list.as_ref().unwrap().status, Status::Written);
    let after = std::fs::read_to_string(&design).unwrap();
    assert!(after.starts_with("# Tables\n\n<!-- tables:start -->\n"));
    assert!(after.ends_with("<!-- tables:end -->\n\nafter\n"));
    assert!(after.contains("| [sliders.rs](../generated/sliders.rs) | `SLIDER_ATTACKS` | `[u64; 90498]` | 90,498 | 723,984 |"));
    assert!(root.join("generated").join("index.rs").exists());
    let again = run(&options).unwrap();
    assert_eq!(again.table_list.as_ref().unwrap().status, Status::Unchanged);
    assert!(again.is_fresh());
    std::fs::remove_dir_all(&root).unwrap();
}
