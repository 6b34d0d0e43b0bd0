//! `dama serve`: the board in the browser.

use crate::serve::table::EngineConfig;
use crate::serve::ServeConfig;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `dama serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; give --host 0.0.0.0
    /// (or an address of this machine) to let other machines in.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// Search threads of each page's engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Transposition table of each page's engine, MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// Endgame database directory (default: $DAMA_EGDB_DIR, else the XDG data directory,
    /// as `dama egdb build` uses).
    #[arg(long)]
    pub egdb_dir: Option<PathBuf>,
    /// The opening book for dama's moves: `builtin` (the one shipped for each variant)
    /// or `none`; dama plays one of the book moves within 0.10 men of the best, at
    /// random, so that games vary.
    #[arg(long, default_value = "builtin", value_parser = ["builtin", "none"])]
    pub book: String,
}

/// What `dama serve --help` adds.
pub const SERVE_HELP: &str = "\
The page plays and analyses all five variants: pick the variant, play by clicking or
dragging (a multi-capture square by square), let the engine play White or Black at a
move time or depth, turn on the analysis with several lines, import and export PDN and
FEN. A position can be linked: /?variant=dameo&fen=W:Wa1:Bh8&moves=...

Each page has its own game and engine (--threads, --hash each). The server stops on
Ctrl-C. It serves this machine only unless --host is given.";

/// Runs the server until Ctrl-C; returns the exit code.
pub fn run(a: &ServeArgs) -> i32 {
    let config = ServeConfig {
        host: a.host.clone(),
        port: a.port,
        engine: EngineConfig {
            threads: a.threads as usize,
            hash_mib: a.hash as usize,
            egdb_dir: a.egdb_dir.clone(),
            book: a.book.clone(),
        },
    };
    let open = a.open;
    let result = crate::serve::run(config, |addr| {
        let url = format!("http://{addr}/");
        println!("dama serve: listening on {url} (Ctrl-C stops)");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        if open {
            if let Err(e) = open_browser(&url) {
                eprintln!("dama serve: cannot open a browser ({e}); open {url} yourself");
            }
        }
    });
    match result {
        Ok(()) => {
            println!("dama serve: stopped");
            0
        }
        Err(e) => {
            eprintln!("dama serve: {e}");
            2
        }
    }
}

fn open_browser(url: &str) -> std::io::Result<()> {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    std::process::Command::new(program)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
}
