//! `cargo xtask web`: the visualiser page, one self-contained file.
//!
//! Builds `crates/web` for `wasm32-unknown-unknown` in a size-tuned profile
//! (`page`, defined here with `--config` so the workspace's own profiles stay
//! untouched), then inlines the wasm (base64), `page/app.js` and
//! `page/style.css` into `page/index.html` and writes
//! `target/web/index.html`. No tool beyond cargo and rustup: the script
//! talks to raw `extern "C"` exports, so there is no wasm-bindgen to install.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const TARGET: &str = "wasm32-unknown-unknown";
/// Not `web`: with `--target`, cargo puts host artifacts (build scripts) in
/// `target/<profile>/`, which would mix them into the page's `target/web/`.
const PROFILE_NAME: &str = "page";

/// The page's profile: small code over fast code (the page asks a few
/// questions per keystroke), one codegen unit and LTO so unused library
/// code is dropped, no unwinding machinery, no symbols.
const PROFILE: [&str; 7] = [
    "profile.page.inherits=\"release\"",
    "profile.page.opt-level=\"s\"",
    "profile.page.lto=true",
    "profile.page.codegen-units=1",
    "profile.page.panic=\"abort\"",
    "profile.page.strip=true",
    "profile.page.debug=false",
];

pub fn run(root: &Path) -> ExitCode {
    let started = Instant::now();
    if let Err(problem) = ensure_target() {
        eprintln!("error: {problem}");
        return ExitCode::FAILURE;
    }
    if let Err(problem) = build_wasm(root) {
        eprintln!("error: {problem}");
        return ExitCode::FAILURE;
    }
    let target_dir = target_dir(root);
    let wasm_path = target_dir
        .join(TARGET)
        .join(PROFILE_NAME)
        .join("bitboards_web.wasm");
    let page = root.join("crates").join("web").join("page");
    let (wasm, template, style, script) = match read_inputs(&wasm_path, &page) {
        Ok(files) => files,
        Err(problem) => {
            eprintln!("error: {problem}");
            return ExitCode::FAILURE;
        }
    };
    let html = match assemble(&template, &style, &script, &wasm) {
        Ok(html) => html,
        Err(problem) => {
            eprintln!("error: crates/web/page/index.html: {problem}");
            return ExitCode::FAILURE;
        }
    };
    let out_dir = target_dir.join("web");
    let out = out_dir.join("index.html");
    if let Err(error) = std::fs::create_dir_all(&out_dir).and_then(|()| std::fs::write(&out, &html))
    {
        eprintln!("error: cannot write {}: {error}", out.display());
        return ExitCode::FAILURE;
    }
    let gzipped = gzipped_size(&out)
        .map(|size| format!(", {} gzipped", kilobytes(size)))
        .unwrap_or_default();
    println!(
        "{}: {}{gzipped} (wasm {}) in {:.1} s",
        out.strip_prefix(root).unwrap_or(&out).display(),
        kilobytes(html.len()),
        kilobytes(wasm.len()),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// Builds `crates/web` for the wasm target in the page's profile, with
/// the compact slider tables; the message when cargo fails or cannot run.
fn build_wasm(root: &Path) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut build = Command::new(cargo);
    build
        .current_dir(root)
        .args(["build", "--package", "bitboards-web", "--lib"])
        .args(["--target", TARGET, "--profile", PROFILE_NAME])
        // The 9 KB kindergarten slider tables instead of the 710 KB magic
        // table, which would be most of the page. Asked for here, not in
        // crates/web/Cargo.toml, so that a workspace build (tests, perft)
        // keeps the default lookups.
        .args(["--features", "bitboards/compact"]);
    for setting in PROFILE {
        build.args(["--config", setting]);
    }
    match build.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("building the page's wasm failed ({status})")),
        Err(error) => Err(format!("could not run cargo: {error}")),
    }
}

/// Cargo's target directory: `CARGO_TARGET_DIR` (relative to `root`) or
/// `root/target`.
fn target_dir(root: &Path) -> PathBuf {
    let target_dir =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    if target_dir.is_relative() {
        root.join(target_dir)
    } else {
        target_dir
    }
}

/// The wasm's bytes, and the page's template, style and script as text, or
/// the message for the first that cannot be read.
fn read_inputs(wasm_path: &Path, page: &Path) -> Result<(Vec<u8>, String, String, String), String> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|error| format!("cannot read {}: {error}", path.display()))
    };
    Ok((
        read(wasm_path)?,
        String::from_utf8_lossy(&read(&page.join("index.html"))?).into_owned(),
        String::from_utf8_lossy(&read(&page.join("style.css"))?).into_owned(),
        String::from_utf8_lossy(&read(&page.join("app.js"))?).into_owned(),
    ))
}

/// Adds the wasm target with rustup when it is missing. Without rustup
/// (a distribution's Rust) there is nothing to add: cargo says what it lacks.
fn ensure_target() -> Result<(), String> {
    let Ok(installed) = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
    else {
        return Ok(());
    };
    if String::from_utf8_lossy(&installed.stdout)
        .lines()
        .any(|line| line.trim() == TARGET)
    {
        return Ok(());
    }
    println!("adding the {TARGET} target: rustup target add {TARGET}");
    let status = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status()
        .map_err(|error| format!("could not run rustup: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`rustup target add {TARGET}` failed ({status})"))
    }
}

/// The template with its three placeholders filled: `/*STYLE*/`,
/// `/*SCRIPT*/` and `WASM_BASE64`, each of which must occur exactly once.
fn assemble(template: &str, style: &str, script: &str, wasm: &[u8]) -> Result<String, String> {
    let mut html = template.to_owned();
    for (placeholder, value) in [
        ("/*STYLE*/", style.to_owned()),
        ("/*SCRIPT*/", script.to_owned()),
        ("WASM_BASE64", base64(wasm)),
    ] {
        if html.matches(placeholder).count() != 1 {
            return Err(format!("`{placeholder}` must occur exactly once"));
        }
        html = html.replacen(placeholder, &value, 1);
    }
    Ok(html)
}

/// Standard base64 with padding (RFC 4648), for a `data:` URL.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The size after `gzip -9`, when gzip is installed.
fn gzipped_size(path: &Path) -> Option<usize> {
    let output = Command::new("gzip").arg("-9c").arg(path).output().ok()?;
    output.status.success().then_some(output.stdout.len())
}

fn kilobytes(bytes: usize) -> String {
    format!("{:.0} KB", bytes as f64 / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn every_placeholder_is_filled_once() {
        let html = assemble(
            "<style>/*STYLE*/</style><script>/*SCRIPT*/ WASM_BASE64</script>",
            "a{}",
            "go()",
            b"f",
        )
        .unwrap();
        assert_eq!(html, "<style>a{}</style><script>go() Zg==</script>");
        assert!(assemble("/*STYLE*/", "", "", b"").is_err());
    }
}
