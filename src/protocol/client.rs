//! The client side of the Hub protocol: runs an engine process and talks to it with
//! time-outs, so that a crashed, hung or misbehaving engine is detected, not waited for.

use crate::protocol::syntax::{parse_line, quote};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process could not be started.
    Start(String),
    /// The process exited or closed its output.
    Crashed,
    /// No answer in time.
    Hung,
    /// It answered something that is not the protocol.
    Protocol(String),
    /// The wait was cut short by the caller's cancel flag (the match was interrupted).
    Interrupted,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Start(e) => write!(f, "could not start: {e}"),
            Failure::Crashed => write!(f, "crashed"),
            Failure::Hung => write!(f, "did not answer in time"),
            Failure::Protocol(e) => write!(f, "protocol error: {e}"),
            Failure::Interrupted => write!(f, "interrupted"),
        }
    }
}

/// A running Hub engine.
pub struct HubClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// When set, every wait ends early with [`Failure::Interrupted`].
    cancel: Option<Arc<AtomicBool>>,
    /// The name it gave in `id`, if any.
    pub name: Option<String>,
}

/// How often a wait looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// The result of one `go`.
#[derive(Clone, Debug)]
pub struct GoResult {
    /// The `move=` of `done`.
    pub mv: String,
    /// The score of the last `info` (men, side to move's view), if any.
    pub score: Option<f64>,
    /// Time from `go` (or `ponder-hit`) to `done`.
    pub elapsed: Duration,
    /// The `ponder=` of `done`: the reply the engine expects, if it gave one.
    pub ponder: Option<String>,
}

impl HubClient {
    /// Starts `command` (split at spaces, with double quotes grouping) and does the
    /// handshake: `hub` ... `wait`, `set-param name=book value=none` when the engine declares
    /// a `book` parameter and the options do not set it, `set-param` for each option,
    /// `init` ... `ready`.
    pub fn start(
        command: &str,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<HubClient, Failure> {
        HubClient::start_cancellable(command, options, timeout, None)
    }

    /// [`HubClient::start`] with a cancel flag: while it is set, every wait of this
    /// client (the handshake included) ends at once with [`Failure::Interrupted`].
    /// The engine runs in a process group of its own, so that a Ctrl-C typed at the
    /// terminal reaches the caller only, which then ends the engine itself.
    pub fn start_cancellable(
        command: &str,
        options: &[(String, String)],
        timeout: Duration,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<HubClient, Failure> {
        let words = split_command(command);
        let Some((program, args)) = words.split_first() else {
            return Err(Failure::Start("empty command".into()));
        };
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .map_err(|e| Failure::Start(format!("{program}: {e}")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or(Failure::Start("no stdout".into()))?;
        let stdin = child
            .stdin
            .take()
            .ok_or(Failure::Start("no stdin".into()))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut c = HubClient {
            child,
            stdin,
            lines: rx,
            cancel,
            name: None,
        };
        c.send("hub")?;
        let deadline = Instant::now() + timeout;
        let mut declared = Vec::new();
        loop {
            let line = c.recv(deadline)?;
            if let Ok(Some(l)) = parse_line(&line) {
                match l.command.as_str() {
                    "wait" => break,
                    "id" => c.name = l.get("name").map(str::to_string),
                    "param" => declared.extend(l.get("name").map(str::to_string)),
                    _ => {}
                }
            }
        }
        // An engine plays without its opening book unless the options ask for one, so
        // that a match measures the engines' play (dama's `book` parameter).
        if declared.iter().any(|n| n == "book") && !options.iter().any(|(n, _)| n == "book") {
            c.send("set-param name=book value=none")?;
        }
        for (name, value) in options {
            c.send(&format!(
                "set-param name={} value={}",
                quote(name),
                quote(value)
            ))?;
        }
        c.send("init")?;
        c.expect("ready", Instant::now() + timeout)?;
        Ok(c)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Failure::Crashed)
    }

    fn recv(&self, deadline: Instant) -> Result<String, Failure> {
        loop {
            let cancelled = || {
                self.cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::Relaxed))
            };
            if cancelled() {
                return Err(Failure::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = if self.cancel.is_some() {
                left.min(CANCEL_POLL)
            } else {
                left
            };
            match self.lines.recv_timeout(slice) {
                Ok(l) => return Ok(l),
                Err(RecvTimeoutError::Timeout) if slice < left => continue,
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Hung),
                // An engine that dies as the caller is interrupted was not at fault.
                Err(RecvTimeoutError::Disconnected) if cancelled() => {
                    return Err(Failure::Interrupted)
                }
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Crashed),
            }
        }
    }

    fn expect(&self, command: &str, deadline: Instant) -> Result<(), Failure> {
        loop {
            let line = self.recv(deadline)?;
            if line.split_whitespace().next() == Some(command) {
                return Ok(());
            }
        }
    }

    /// `new-game`, then `ping` ... `pong` so that the engine is known to be ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send("new-game")?;
        self.send("ping")?;
        self.expect("pong", Instant::now() + timeout)
    }

    /// Sets the position and level and runs `go think` until `done` or `deadline`.
    pub fn go(
        &mut self,
        pos: &str,
        level: &str,
        deadline_after: Duration,
    ) -> Result<GoResult, Failure> {
        self.send(pos)?;
        self.send(level)?;
        let start = Instant::now();
        self.send("go think")?;
        self.done(start, start + deadline_after)
    }

    /// Starts `go ponder` in `pos` (the expected reply already played) with the levels
    /// that apply at `ponder-hit`; returns at once.
    pub fn ponder(&mut self, pos: &str, level: &str) -> Result<(), Failure> {
        self.send(pos)?;
        self.send(level)?;
        self.send("go ponder")
    }

    /// The expected reply was played: `ponder-hit`, then the search's `done` as for
    /// [`HubClient::go`], timed from the hit.
    pub fn ponder_hit(&mut self, deadline_after: Duration) -> Result<GoResult, Failure> {
        let start = Instant::now();
        self.send("ponder-hit")?;
        self.done(start, start + deadline_after)
    }

    /// Another reply was played: `stop`, and the pondering search's `done` is read and
    /// dropped.
    pub fn ponder_miss(&mut self, timeout: Duration) -> Result<(), Failure> {
        let start = Instant::now();
        self.send("stop")?;
        self.done(start, start + timeout).map(|_| ())
    }

    /// Reads `info` lines until `done`.
    fn done(&mut self, start: Instant, deadline: Instant) -> Result<GoResult, Failure> {
        let mut score = None;
        loop {
            let line = self.recv(deadline)?;
            let Ok(Some(l)) = parse_line(&line) else {
                continue;
            };
            match l.command.as_str() {
                "info" => {
                    if let Some(s) = l.get("score").and_then(|s| s.parse::<f64>().ok()) {
                        score = Some(s);
                    }
                }
                "done" => {
                    let elapsed = start.elapsed();
                    let mv = l
                        .get("move")
                        .ok_or_else(|| Failure::Protocol("done without move=".into()))?;
                    return Ok(GoResult {
                        mv: mv.to_string(),
                        score,
                        elapsed,
                        ponder: l.get("ponder").map(str::to_string),
                    });
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, then makes sure the process is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(200) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HubClient {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Splits a command line at spaces; double quotes group words.
pub fn split_command(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}
