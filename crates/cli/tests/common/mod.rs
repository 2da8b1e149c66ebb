//! Running the `bitboards` binary from the `fen` and `perft` tests.

use assert_cmd::Command;

/// Kiwipete, the perft position with every special move (castling both
/// ways, en passant, promotions, pins) within three plies.
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Runs `bitboards ARGS` with `NO_COLOR` unset and no terminal, and returns
/// (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let output = Command::cargo_bin("bitboards")
        .expect("the binary is built for integration tests")
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .expect("the binary runs");
    (
        output
            .status
            .code()
            .expect("exited, not killed by a signal"),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

/// Runs a command that must succeed quietly and returns its standard output.
pub fn succeed(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 0, "bitboards {args:?} failed:\n{stderr}");
    assert!(stderr.is_empty(), "unexpected stderr: {stderr}");
    stdout
}

/// Runs a command that must fail as a usage error does (exit code 2, no
/// standard output, no panic) and returns its standard error.
pub fn fail_with_usage_error(args: &[&str]) -> String {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, 2, "bitboards {args:?}: {stderr}");
    assert!(stdout.is_empty(), "bitboards {args:?} printed {stdout}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}
