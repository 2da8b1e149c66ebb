//! The folders are the layers (docs/design.md): `base/` holds what the
//! library stands on, the root package is the library, `crates/` holds what
//! stands on it. Every dependency points from a layer to one it stands on:
//! nothing in `base/` names the library or `crates/`, not even as a
//! dev-dependency, and the library's own (non-dev) dependencies are all in
//! `base/`. This test reads every manifest and fails on an arrow that points
//! up, naming it.

use std::path::{Component, Path, PathBuf};

/// The workspace root (this package's folder).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The layer a folder belongs to, counted from the bottom of the stack:
/// 0 for `base/`, 1 for the library, 2 for `crates/`; `None` outside the
/// workspace's packages (xtask, fuzz, bindings).
fn layer(folder: &Path) -> Option<u8> {
    let relative = folder.strip_prefix(root()).ok()?;
    match relative.components().next() {
        None => Some(1),
        Some(Component::Normal(name)) if name == "base" => Some(0),
        Some(Component::Normal(name)) if name == "crates" => Some(2),
        Some(_) => None,
    }
}

/// `path` with `.` and `..` taken out, without touching the filesystem.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// One dependency a manifest declares: its section and the package folder
/// it points at (a path dependency, directly or through the workspace's
/// table).
#[derive(Debug)]
struct Arrow {
    manifest: PathBuf,
    section: String,
    name: String,
    target: PathBuf,
}

/// The quoted value of `key = "..."` inside `line`, if any.
fn quoted(line: &str, key: &str) -> Option<String> {
    let at = line.find(&format!("{key} = \""))? + key.len() + 4;
    let rest = &line[at..];
    Some(rest[..rest.find('"')?].to_owned())
}

/// The path dependencies of the workspace's `[workspace.dependencies]`.
fn workspace_paths() -> Vec<(String, PathBuf)> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("the root manifest");
    let mut section = "";
    let mut paths = Vec::new();
    for line in manifest.lines() {
        if line.starts_with('[') {
            section = line;
        } else if section == "[workspace.dependencies]"
            && let (Some((name, _)), Some(path)) = (line.split_once(' '), quoted(line, "path"))
        {
            paths.push((name.to_owned(), normalize(&root().join(path))));
        }
    }
    paths
}

/// Every path dependency of the manifest at `path`, in any dependency
/// section (normal, dev, build, per target).
fn arrows(path: &Path) -> Vec<Arrow> {
    let folder = path.parent().expect("a manifest's folder");
    let text = std::fs::read_to_string(path).expect("a manifest");
    let workspace = workspace_paths();
    let mut section = String::new();
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            section = line.to_owned();
            continue;
        }
        if !section.ends_with("dependencies]") || section == "[workspace.dependencies]" {
            continue;
        }
        let name: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        let target = if let Some(relative) = quoted(line, "path") {
            normalize(&folder.join(relative))
        } else if line.contains("workspace = true")
            && let Some((_, target)) = workspace.iter().find(|(known, _)| *known == name)
        {
            target.clone()
        } else {
            continue;
        };
        found.push(Arrow {
            manifest: path.to_path_buf(),
            section: section.clone(),
            name,
            target,
        });
    }
    found
}

/// The manifests of every package in `base/` and `crates/`.
fn member_manifests(folder: &str) -> Vec<PathBuf> {
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(root().join(folder))
        .expect("the layer's folder")
        .map(|entry| entry.expect("a folder entry").path().join("Cargo.toml"))
        .filter(|manifest| manifest.exists())
        .collect();
    manifests.sort();
    manifests
}

#[test]
fn the_layer_folders_hold_the_crates_the_design_names() {
    let names = |folder| -> Vec<String> {
        member_manifests(folder)
            .iter()
            .map(|m| {
                m.parent()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    assert_eq!(names("base"), ["codegen", "core", "macros"]);
    assert_eq!(
        names("crates"),
        ["cli", "expr", "pgn", "test-support", "web"]
    );
}

#[test]
fn nothing_in_base_points_outside_base() {
    for manifest in member_manifests("base") {
        for arrow in arrows(&manifest) {
            assert_eq!(
                layer(&arrow.target),
                Some(0),
                "{}: {} in {} points at {}, outside base/",
                arrow.manifest.display(),
                arrow.name,
                arrow.section,
                arrow.target.display()
            );
        }
    }
}

#[test]
fn the_library_stands_only_on_base() {
    for arrow in arrows(&root().join("Cargo.toml")) {
        let layer = layer(&arrow.target);
        if arrow.section.contains("dev-dependencies") {
            // The library's tests and benches are programs on the library,
            // like test-support, which they share.
            assert!(layer.is_some(), "{arrow:?}");
        } else {
            assert_eq!(layer, Some(0), "the library depends on {arrow:?}");
        }
    }
}

#[test]
fn what_stands_on_the_library_never_points_outside_the_workspace_layers() {
    for manifest in member_manifests("crates") {
        for arrow in arrows(&manifest) {
            assert!(
                layer(&arrow.target).is_some(),
                "{}: {} points at {}, which no layer holds",
                arrow.manifest.display(),
                arrow.name,
                arrow.target.display()
            );
        }
    }
}

#[test]
fn the_reader_sees_path_dependencies_of_every_kind() {
    // The reader itself: the library's manifest names core through the
    // workspace table, and test-support by path among the dev-dependencies.
    let arrows = arrows(&root().join("Cargo.toml"));
    let find = |name: &str| arrows.iter().find(|arrow| arrow.name == name);
    let core = find("bitboards-core").expect("core");
    assert_eq!(core.target, root().join("base").join("core"));
    assert_eq!(core.section, "[dependencies]");
    let support = find("bitboards-test-support").expect("test-support");
    assert_eq!(support.section, "[dev-dependencies]");
    assert_eq!(layer(&support.target), Some(2));
}
