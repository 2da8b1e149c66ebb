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
        [
            "cli",
            "engine",
            "explorer",
            "expr",
            "pgn",
            "syzygy",
            "test-support",
            "web"
        ]
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

/// The top-level modules of a package's `src/` folder and what each takes
/// from the others: module name (a file `foo.rs`, or a folder `foo/` with
/// its files) to the modules its code names through `crate::` (comments
/// and unit tests left out; `lib.rs`/`main.rs`, the front door, is no
/// module here).
fn module_imports(
    src: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut files = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let module_of = |path: &Path| -> Option<String> {
        let relative = path.strip_prefix(src).ok()?;
        let first = relative
            .components()
            .next()?
            .as_os_str()
            .to_str()?
            .to_owned();
        let name = first.trim_end_matches(".rs").to_owned();
        (name != "lib" && name != "main").then_some(name)
    };
    let modules: std::collections::BTreeSet<String> =
        files.iter().filter_map(|f| module_of(f)).collect();
    let mut imports = std::collections::BTreeMap::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        let entry: &mut std::collections::BTreeSet<String> =
            imports.entry(module.clone()).or_default();
        // The unit tests at a file's end are not what the module stands on.
        for line in text
            .lines()
            .take_while(|line| line.trim() != "#[cfg(test)]")
            .filter(|line| !line.trim_start().starts_with("//"))
        {
            for (at, _) in line.match_indices("crate::") {
                let name: String = line[at + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name != module && modules.contains(&name) {
                    entry.insert(name);
                }
            }
        }
    }
    imports
}

/// A module that imports itself through others: the first cycle found.
fn cycle(
    imports: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        imports: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut found = path[at..].to_vec();
            found.push(module.to_owned());
            return Some(found);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in imports.get(module).into_iter().flatten() {
            if let Some(found) = visit(next, imports, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    imports
        .keys()
        .find_map(|module| visit(module, imports, &mut Vec::new(), &mut done))
}

/// Within each package no module imports itself through others (issue 44:
/// no two files import each other), so a change to a module can be read
/// from the modules below it.
#[test]
fn no_module_of_a_package_imports_itself_through_others() {
    let mut sources = vec![
        root().join("src"),
        root().join("xtask/src"),
        root().join("bindings/python/src"),
    ];
    for folder in ["base", "crates"] {
        for entry in std::fs::read_dir(root().join(folder)).unwrap() {
            let src = entry.unwrap().path().join("src");
            if src.is_dir() {
                sources.push(src);
            }
        }
    }
    let mut found = Vec::new();
    for src in &sources {
        if let Some(cycle) = cycle(&module_imports(src)) {
            found.push(format!("{}: {}", src.display(), cycle.join(" -> ")));
        }
    }
    assert!(
        found.is_empty(),
        "modules that import each other:\n{}",
        found.join("\n")
    );
    // The check sees an import: the PGN crate's reader takes its input.
    let pgn = module_imports(&root().join("crates/pgn/src"));
    assert!(pgn["reader"].contains("input") && !pgn["input"].contains("reader"));
}
