//! `dama serve`: the board in the browser.

use crate::serve::resources::EngineConfig;
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
    /// Searches that run at once, shared by all pages (default: the number of cores).
    /// A page's search waits in a queue for a free one: the engine's moves first, then
    /// the analyses, which take turns of a second each when there are more than slots.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub searches: Option<u16>,
    /// Search threads of each search slot.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Transposition table of each search slot, MiB (allocated once, at the start).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=16384))]
    pub hash: u32,
    /// Most pages open at once; one more is refused with "the server is busy" (scripts
    /// count too).
    #[arg(long, default_value_t = crate::serve::DEFAULT_MAX_PAGES, value_parser = parse_pages)]
    pub max_pages: usize,
    /// A page that sends no message for this many seconds is closed, with the reason
    /// (default: 30 minutes).
    #[arg(long, default_value_t = crate::serve::DEFAULT_IDLE_SECONDS, value_parser = clap::value_parser!(u64).range(1..=7 * 24 * 3600))]
    pub idle_timeout: u64,
    /// Endgame database directory (default: $DAMA_EGDB_DIR, else the XDG data directory,
    /// as `dama egdb build` uses).
    #[arg(long)]
    pub egdb_dir: Option<PathBuf>,
    /// Do not solve the variant's small endgame databases in memory when the directory
    /// lacks them (scandinavian: every slice of up to 4 pieces, about 2 s before the
    /// server listens).
    #[arg(long)]
    pub no_egdb_builtin: bool,
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

Each page has its own game; the searches are a fixed pool that every page shares
(--searches slots, each with --threads threads and a --hash MiB table, allocated at the
start), so memory is about slots x hash, plus a little per page, however many pages
there are. At most --max-pages pages are open at once; one more is told that the server
is busy. The server stops on Ctrl-C. It serves this machine only unless --host is
given.";

/// Runs the server until Ctrl-C; returns the exit code.
pub fn run(a: &ServeArgs) -> i32 {
    let config = ServeConfig {
        host: a.host.clone(),
        port: a.port,
        engine: EngineConfig {
            threads: a.threads as usize,
            hash_mib: a.hash as usize,
            egdb_dir: a.egdb_dir.clone(),
            egdb_builtin: !a.no_egdb_builtin,
            book: a.book.clone(),
        },
        searches: a
            .searches
            .map_or_else(crate::serve::default_searches, usize::from),
        max_pages: a.max_pages,
        idle: std::time::Duration::from_secs(a.idle_timeout),
    };
    let open = a.open;
    if config.engine.egdb_builtin {
        // Solving takes seconds: said before, not only after.
        eprintln!(
            "dama serve: solving the built-in endgame databases before listening (scandinavian, \
             up to 4 pieces: a few seconds; --no-egdb-builtin skips it)"
        );
    }
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

fn parse_pages(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=100_000).contains(&n) => Ok(n),
        _ => Err(format!("{s} is not a number of pages from 1 to 100000")),
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
