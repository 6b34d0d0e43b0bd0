//! The command line: `clap` definitions and the commands that run library code. The
//! variant named on the command line is turned into a rules type here, once.

use crate::rules::Rules;
use crate::variant::Variant;
use crate::with_variant;
use clap::{Parser, Subcommand};

mod analyze;
mod annotate;
mod bench;
mod book;
mod egdb;
mod gen;
mod matches;
mod openings;
mod perft;
pub mod progress;
mod selfplay;
mod serve;
mod train;
mod tune;

pub use analyze::AnalyzeArgs;
pub use annotate::AnnotateArgs;
pub use bench::BenchArgs;
pub use book::BookArgs;
pub use egdb::EgdbArgs;
pub use gen::GenArgs;
pub use matches::MatchArgs;
pub use openings::OpeningsArgs;
pub use perft::PerftArgs;
pub use selfplay::{parse_player, SelfplayArgs};
pub use serve::ServeArgs;
pub use train::TrainArgs;
pub use tune::TuneArgs;

const VARIANTS_HELP: &str = "\
Variants (docs/rules.md):
  dameo          64 squares, men step or move in lines straight/diagonally forward,
                 capture orthogonally; queen-like kings capture orthogonally with the
                 long leap; majority capture. White starts.
  croda          64 squares, 24 men a side stepping forward, orthogonal captures,
                 rook-like kings; majority capture. White starts.
  scandinavian   dark squares, men capture forward only, flying kings, free choice of
                 capture (= German draughts; aliases german, swedish, danish).
  boyer-parton   scandinavian, but men capture with the long leap.
  english        checkers: dark squares, short kings, free choice; Black starts; squares
                 written as PDN numbers 1-32 (aliases checkers, american).

Positions are PDN FENs: <side>:W<squares>:B<squares>, K before a king's square, e.g.
  W:Wa1,c1,Ke5:Bb8,Kd8        (algebraic squares, every variant)
  B:W21-32:B1-12              (PDN numbers and ranges, dark-square variants)";

/// `dama`: a draughts engine for dameo, croda, scandinavian, boyer-parton and english.
#[derive(Parser, Debug)]
#[command(name = "dama", version, about, long_about = None, after_help = VARIANTS_HELP)]
pub struct Cli {
    /// What to do; without a command, dama speaks the Hub protocol on stdin/stdout.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Speak the Hub protocol on stdin/stdout (see protocol.md); the default command.
    Hub,
    /// Count the leaves of the legal-move tree (move-generator check and benchmark).
    #[command(after_help = perft::PERFT_HELP)]
    Perft(PerftArgs),
    /// Search a position and print one line per completed depth, then the best move.
    #[command(after_help = analyze::ANALYZE_HELP)]
    Analyze(AnalyzeArgs),
    /// Annotate whole games: every move of a PDN file rated by what it loses against the
    /// best move, written as PDN with comments and marks or as JSON lines.
    #[command(after_help = annotate::ANNOTATE_HELP)]
    Annotate(AnnotateArgs),
    /// Search a fixed set of positions of every variant at a fixed depth with one thread
    /// and print the node counts: the signature of the search's behaviour.
    Bench(BenchArgs),
    /// Play games between two settings of dama in-process (strength measurement):
    /// every random balanced opening twice with colours swapped.
    #[command(after_help = selfplay::SELFPLAY_HELP)]
    Selfplay(SelfplayArgs),
    /// Tune the evaluation weights: self-play games, then logistic regression of the
    /// evaluation on their results; writes a weights file.
    Tune(TuneArgs),
    /// Play a match between two Hub engines (dama hub or any other), with clocks,
    /// openings, adjudication, PDN output, Elo and SPRT.
    #[command(name = "match", after_help = matches::MATCH_HELP)]
    Match(MatchArgs),
    /// Make a file of test openings that separate engines: lines whose last position
    /// dama rates as somewhat better for one side, with nothing forced.
    #[command(after_help = openings::OPENINGS_HELP)]
    Openings(OpeningsArgs),
    /// Make training data for the learned evaluation: self-play games from random
    /// balanced openings, every quiet position with its search score and the result.
    #[command(after_help = gen::GEN_HELP)]
    Gen(GenArgs),
    /// Train the learned evaluation on `dama gen` data and write a model file.
    #[command(after_help = train::TRAIN_HELP)]
    Train(TrainArgs),
    /// Opening books: build one by drop-out expansion with dama's searches, or probe one.
    #[command(after_help = book::BOOK_HELP)]
    Book(BookArgs),
    /// Endgame databases: build them by retrograde analysis, probe a position, verify
    /// the files.
    #[command(after_help = egdb::EGDB_HELP)]
    Egdb(EgdbArgs),
    /// Serve a board in the browser to play and analyse every variant against dama.
    #[command(after_help = serve::SERVE_HELP)]
    Serve(ServeArgs),
}

pub(crate) fn parse_variant(s: &str) -> Result<Variant, String> {
    s.parse()
}

/// The exit status of a process whose standard output was closed under it: 128 plus
/// SIGPIPE (13), as a shell reports a Unix tool stopped by the signal.
pub const BROKEN_PIPE_STATUS: i32 = 141;

/// Makes a standard output or error closed by the reader (`dama analyze ... | head -1`)
/// end the process at once with [`BROKEN_PIPE_STATUS`], as Unix tools do, instead of a
/// panic and its backtrace. Only the panic that `print!` raises on a broken pipe is
/// taken; every other panic goes to the hook that was there before. Writers that ignore
/// their errors (perft's lines, the Hub protocol's) never raise it.
fn exit_quietly_on_broken_pipe() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info.to_string();
        let printing = text.contains("failed printing to stdout")
            || text.contains("failed printing to stderr");
        if printing && (text.contains("Broken pipe") || text.contains("os error 32")) {
            std::process::exit(BROKEN_PIPE_STATUS);
        }
        previous(info);
    }));
}

/// Parses the arguments, runs the command and returns the process exit code.
pub fn run() -> i32 {
    exit_quietly_on_broken_pipe();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Hub) {
        Command::Hub => crate::protocol::run_stdio(),
        Command::Perft(args) => with_variant!(args.variant, R => perft::run::<R>(&args)),
        Command::Analyze(args) => with_variant!(args.variant, R => analyze::run::<R>(&args)),
        Command::Annotate(args) => annotate::start(&args),
        Command::Bench(args) => crate::engine::bench::run(args.depth, &args.evaluation),
        Command::Selfplay(args) => with_variant!(args.variant, R => selfplay::run::<R>(&args)),
        Command::Tune(args) => with_variant!(args.variant, R => tune::run::<R>(&args)),
        Command::Match(args) => with_variant!(args.variant, R => matches::run::<R>(&args)),
        Command::Openings(args) => with_variant!(args.variant, R => openings::run::<R>(&args)),
        Command::Gen(args) => with_variant!(args.variant, R => gen::run_gen::<R>(&args)),
        Command::Train(args) => with_variant!(args.variant, R => train::run_train::<R>(&args)),
        Command::Book(args) => with_variant!(args.variant(), R => book::run::<R>(&args)),
        Command::Egdb(args) => with_variant!(egdb::variant_of(&args), R => egdb::run::<R>(&args)),
        Command::Serve(args) => serve::run(&args),
    }
}

pub(crate) fn tally_line(t: &crate::play::stats::Tally) -> String {
    let (elo, margin) = t.elo();
    format!(
        "+{} ={} -{} score {:.1}% elo {:+.1} +/- {:.1}",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        elo,
        margin
    )
}

/// The game given by `--fen` and `--moves`, or a message saying what is wrong.
pub fn game_from_args<R: Rules>(
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<crate::game::Game<R>, String> {
    crate::pdn::read_game(
        fen,
        moves.unwrap_or("").split_whitespace(),
        crate::notation::parse_move::<R>,
        crate::pdn::PastEnd::Allow,
    )
    .map_err(|e| e.by_ply())
}
