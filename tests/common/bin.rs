//! The built `dama` binary for the integration tests: its path, a command for it (with
//! or without the developer's endgame databases), and one run's exit code and output.

use std::ffi::OsStr;
use std::process::Command;

/// The path of the `dama` binary cargo built for these tests.
pub fn dama_path() -> &'static str {
    env!("CARGO_BIN_EXE_dama")
}

/// A command that runs the built `dama`.
pub fn command() -> Command {
    Command::new(dama_path())
}

/// As [`command`], with `DAMA_EGDB_DIR` pointing nowhere: databases the developer built
/// must not change what a test sees (it passes `--egdb-dir` or `egdb-path` when it
/// wants some).
pub fn command_without_databases() -> Command {
    let mut c = command();
    c.env("DAMA_EGDB_DIR", "/nonexistent/dama-egdb");
    c
}

/// Runs `cmd` to its end: (exit code, or -1 when killed by a signal; stdout; stderr).
pub fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("run dama");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `dama ARGS...` run to its end: (exit code, stdout, stderr).
pub fn dama<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    run(command().args(args))
}
