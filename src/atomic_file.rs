//! Files that are always whole on disk: a file written at once goes through
//! `<path>.tmp` and a rename ([`write()`]); a record log gets each record appended in one
//! write and synced before the next ([`Appender`]). A crash or an interrupt then leaves
//! the old file or the new one, never a half-written one.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The temporary name used by [`write()`]: `<path>.tmp`.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes `contents` to `path` whole: to `<path>.tmp` first, synced, then renamed over
/// `path`. On failure the temporary file is removed and `path` is left as it was.
/// The error names the file.
pub fn write(path: &Path, contents: &[u8]) -> Result<(), String> {
    let tmp = temp_path(path);
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_data()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e}", path.display())
    })
}

/// A file that grows by whole records: each [`Appender::append`] writes its text in
/// one call (the file is opened in append mode) and syncs it to disk, so a crash loses
/// at most the record being written and never leaves a part of one behind the others
/// (short of a full disk, which is reported).
pub struct Appender {
    file: File,
    path: PathBuf,
}

impl Appender {
    /// Opens `path` for appending, creating it; `truncate` empties it first.
    pub fn open(path: &Path, truncate: bool) -> Result<Appender, String> {
        let mut opts = OpenOptions::new();
        if truncate {
            opts.write(true).create(true).truncate(true);
        } else {
            opts.append(true).create(true);
        }
        let file = opts
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Appender {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends `text` whole and syncs it to disk.
    pub fn append(&mut self, text: &str) -> Result<(), String> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.flush())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_replaces_whole_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("dama-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("out.txt");
        write(&p, b"first").unwrap();
        write(&p, b"second").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "second");
        assert!(!temp_path(&p).exists());
        let mut a = Appender::open(&p, false).unwrap();
        a.append(" and more").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "second and more");
        let mut a = Appender::open(&p, true).unwrap();
        a.append("new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        // A file in a missing folder: a clear error naming it, nothing left behind.
        let bad = dir.join("no/such/dir/out.txt");
        let e = write(&bad, b"x").unwrap_err();
        assert!(e.contains("no/such/dir/out.txt"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
