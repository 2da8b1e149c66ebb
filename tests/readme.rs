//! The README and the docs as a new user reads them: the dependency line
//! the README shows first must work today, it fits on a few screens, it
//! names every feature, and no Rust example may hide in a block that is not
//! compiled (the ```rust blocks run as doc tests through `ReadmeExamples`
//! and `GuideExamples` in src/lib.rs).

const README: &str = include_str!("../README.md");
const MANIFEST: &str = include_str!("../Cargo.toml");
const LIB: &str = include_str!("../src/lib.rs");
/// Every page whose ```rust blocks are compiled, or that holds none.
const PAGES: [(&str, &str); 5] = [
    ("README.md", README),
    ("docs/guide.md", include_str!("../docs/guide.md")),
    ("docs/command.md", include_str!("../docs/command.md")),
    ("docs/design.md", include_str!("../docs/design.md")),
    (
        "docs/performance.md",
        include_str!("../docs/performance.md"),
    ),
];

/// Each fenced block of `page`: its tag (`rust`, `text`, ...) and its lines.
fn blocks(page: &'static str) -> Vec<(String, Vec<&'static str>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, Vec<&'static str>)> = None;
    for line in page.lines() {
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
        .find(|section| section.starts_with("Install"))
        .expect("an Install section");
    let first_toml = use_it
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a toml block in Install");
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
    assert!(
        MANIFEST.contains("\n[package]\nname = \"bitboards\"\n"),
        "{MANIFEST}"
    );
}

#[test]
fn no_rust_example_hides_in_an_uncompiled_block() {
    let rust_like = ["use bitboards", "let ", "match ", "assert", "fn ", "impl "];
    for (name, page) in PAGES {
        for (tag, lines) in blocks(page) {
            if tag == "rust" {
                continue;
            }
            for line in lines {
                let code = line.trim_start();
                assert!(
                    !rust_like.iter().any(|start| code.starts_with(start)),
                    "{name}: a ```{tag} block holds Rust, which only a ```rust block compiles: {line}"
                );
            }
        }
    }
    // Only the README's and the guide's Rust blocks are compiled.
    for (name, page) in &PAGES[2..] {
        assert!(
            blocks(page).iter().all(|(tag, _)| tag != "rust"),
            "{name} has a ```rust block"
        );
    }
}

#[test]
fn fen_error_is_not_described_with_tuple_variants() {
    // FenError's variants are struct variants; the README once showed
    // `Syntax(FenSyntaxError)`, which no match can use.
    for (name, page) in PAGES {
        for wrong in ["Syntax(FenSyntaxError)", "Illegal(PositionError)"] {
            assert!(!page.contains(wrong), "{name} shows {wrong}");
        }
    }
}

/// The features the manifest declares, in its order.
fn features() -> Vec<&'static str> {
    let section = MANIFEST
        .split("\n[features]\n")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .expect("a [features] table");
    section
        .lines()
        .filter(|line| !line.starts_with('#') && line.contains(" = ["))
        .filter_map(|line| line.split(' ').next())
        .filter(|name| *name != "default")
        .collect()
}

#[test]
fn the_readme_and_the_rustdoc_name_every_feature() {
    let features = features();
    assert!(features.len() >= 9, "{features:?}");
    let rustdoc = LIB
        .split("//! # Features")
        .nth(1)
        .expect("a Features section");
    let rustdoc = rustdoc.split("#![no_std]").next().unwrap();
    for feature in features {
        assert!(
            README.contains(&format!("| `{feature}` |")),
            "README's table lacks `{feature}`"
        );
        assert!(
            rustdoc.contains(&format!("`{feature}`")),
            "the rustdoc's list lacks `{feature}`"
        );
    }
}

#[test]
fn the_readme_fits_on_a_few_screens_and_links_only_to_what_exists() {
    let lines = README.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines; the details belong in docs/"
    );
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, page) in PAGES {
        let folder = root.join(name).parent().unwrap().to_path_buf();
        for link in page.split("](").skip(1) {
            let target = link.split(')').next().unwrap();
            let path = target.split('#').next().unwrap();
            if path.is_empty() || path.contains("://") {
                continue;
            }
            assert!(
                folder.join(path).exists(),
                "{name} links to {target}, which does not exist"
            );
        }
    }
}
