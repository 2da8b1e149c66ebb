//! The README as a new user reads it: the dependency line it shows first
//! must work today, and no Rust example may hide in a block that is not
//! compiled (the ```rust blocks run as doc tests through `ReadmeExamples`
//! in src/lib.rs).

const README: &str = include_str!("../README.md");

/// Each fenced block: its tag (`rust`, `text`, ...) and its lines.
fn blocks() -> Vec<(String, Vec<&'static str>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, Vec<&'static str>)> = None;
    for line in README.lines() {
        if let Some(tag) = line.strip_prefix("```") {
            match current.take() {
                Some(block) => blocks.push(block),
                None => current = Some((tag.to_owned(), Vec::new())),
            }
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        }
    }
    blocks
}

#[test]
fn the_first_dependency_line_works_without_a_registry() {
    let use_it = README
        .split("\n## ")
        .find(|section| section.starts_with("Use it"))
        .expect("a Use it section");
    let first_toml = use_it
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a toml block in Use it");
    // Not on crates.io yet: a path (or git) dependency is what resolves.
    assert!(
        first_toml.contains("bitboards = { path = ") || first_toml.contains("bitboards = { git = "),
        "{first_toml}"
    );
    assert!(use_it.contains("cargo add --path"), "{use_it}");
    // The registry line is kept, for when the crate is published.
    assert!(use_it.contains("Once it\nis published") || use_it.contains("Once it is published"));
    assert!(use_it.contains("bitboards = \"0.1\""));
    // The package the path points at is called `bitboards`.
    let manifest = include_str!("../Cargo.toml");
    assert!(
        manifest.contains("\n[package]\nname = \"bitboards\"\n"),
        "{manifest}"
    );
}

#[test]
fn no_rust_example_hides_in_an_uncompiled_block() {
    let rust_like = ["use bitboards", "let ", "match ", "assert", "fn ", "impl "];
    for (tag, lines) in blocks() {
        if tag == "rust" {
            continue;
        }
        for line in lines {
            let code = line.trim_start();
            assert!(
                !rust_like.iter().any(|start| code.starts_with(start)),
                "a ```{tag} block holds Rust, which only a ```rust block compiles: {line}"
            );
        }
    }
}

#[test]
fn fen_error_is_not_described_with_tuple_variants() {
    // FenError's variants are struct variants; the README once showed
    // `Syntax(FenSyntaxError)`, which no match can use.
    for wrong in ["Syntax(FenSyntaxError)", "Illegal(PositionError)"] {
        assert!(!README.contains(wrong), "README shows {wrong}");
    }
}
