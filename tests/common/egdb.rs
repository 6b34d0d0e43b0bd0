//! The 3-piece english endgame databases that the protocol and server tests use, built
//! by `dama egdb build` into a temporary folder that is removed when dropped.

use std::path::{Path, PathBuf};

/// A folder of databases built for one test, removed when dropped.
pub struct Databases {
    dir: PathBuf,
}

impl Databases {
    /// The folder to pass as `--egdb-dir` or `egdb-path`.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Databases {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `dama egdb build --variant english --pieces 3` into a fresh folder of the temporary
/// folder named after `name` and this process (a tenth of a second).
pub fn english_three_pieces(name: &str) -> Databases {
    let dir = std::env::temp_dir().join(format!("dama-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = super::bin::command()
        .args([
            "egdb",
            "build",
            "--variant",
            "english",
            "--pieces",
            "3",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .expect("run dama egdb build");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Databases { dir }
}
