//! The text of a game file as other programs write it: UTF-8 with or without a
//! byte-order mark, or Latin-1 / Windows-1252 (told apart line by line, so that a file
//! put together from both reads whole), with lines ended by LF, CRLF or CR alone.
//! [`TextLines`] reads such a file as a stream of numbered lines in bounded memory.

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

/// Windows-1252's characters for the bytes 0x80 to 0x9F. The five bytes it leaves
/// undefined keep their Latin-1 code points (the C1 controls), so no byte is lost.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// The character of one byte in Windows-1252 (Latin-1 for every byte but 0x80-0x9F).
fn cp1252(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// One line's bytes as text: UTF-8 when they are valid UTF-8, else Windows-1252.
pub fn decode_line(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| cp1252(b)).collect()),
    }
}

/// A whole file's bytes as text, as [`TextLines`] reads it: the byte-order mark
/// dropped, each line decoded on its own, every line ending made `\n`.
pub fn decode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut lines = TextLines::new(bytes);
    while let Ok(Some((_, line))) = lines.next_line() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The longest piece read as one line. A longer line (a file of one line, or with
/// CR line ends) is read in pieces of this size, cut after its last CR when it has one.
const MAX_PIECE: u64 = 1 << 20;

/// The lines of a text stream, numbered from 1, decoded by [`decode_line`].
pub struct TextLines<B> {
    source: B,
    /// Bytes read but not yet given out as a line (a piece cut at a CR, or an
    /// incomplete UTF-8 character at a piece's end).
    carry: Vec<u8>,
    /// Lines split off a piece at lone CRs, waiting to be given out.
    queue: std::collections::VecDeque<String>,
    line: usize,
    bytes: u64,
    first: bool,
    /// Whether the last piece ended in a CR that may be the first half of a CRLF.
    after_cr: bool,
    ended: bool,
}

impl<B: BufRead> TextLines<B> {
    /// Lines of `source`.
    pub fn new(source: B) -> TextLines<B> {
        TextLines {
            source,
            carry: Vec::new(),
            queue: Default::default(),
            line: 0,
            bytes: 0,
            first: true,
            after_cr: false,
            ended: false,
        }
    }

    /// The bytes read from the source so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes
    }

    /// The next line and its number, without its line ending; `None` at the end.
    pub fn next_line(&mut self) -> io::Result<Option<(usize, String)>> {
        loop {
            if let Some(l) = self.queue.pop_front() {
                self.line += 1;
                return Ok(Some((self.line, l)));
            }
            if self.ended {
                return Ok(None);
            }
            self.read_piece()?;
        }
    }

    /// Reads the next piece (a line up to LF, or at most [`MAX_PIECE`] bytes) and
    /// queues its lines.
    fn read_piece(&mut self) -> io::Result<()> {
        let mut buf = std::mem::take(&mut self.carry);
        let had = buf.len();
        let n = (&mut self.source)
            .take(MAX_PIECE)
            .read_until(b'\n', &mut buf)?;
        self.bytes += n as u64;
        if n == 0 {
            self.ended = true;
            if buf.is_empty() {
                return Ok(());
            }
        }
        if self.first {
            self.first = false;
            if buf.starts_with(b"\xEF\xBB\xBF") {
                buf.drain(..3);
            }
        }
        // A CRLF split between two pieces: its LF ends no further line.
        if std::mem::take(&mut self.after_cr) && had == 0 && buf.first() == Some(&b'\n') {
            buf.remove(0);
            if buf.is_empty() {
                return Ok(());
            }
        }
        let whole_line = buf.last() == Some(&b'\n') || self.ended;
        if !whole_line {
            // A piece cut in a long line: keep what follows its last CR (or an
            // incomplete character at its end) for the next piece.
            let cut = match buf.iter().rposition(|&b| b == b'\r') {
                Some(i) => i + 1,
                None => char_boundary(&buf),
            };
            if cut > 0 && cut < buf.len() {
                self.carry = buf.split_off(cut);
            }
            if buf.last() == Some(&b'\r') {
                self.after_cr = true;
            }
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        } else if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        let text = decode_line(&buf);
        self.queue.extend(text.split('\r').map(str::to_string));
        Ok(())
    }
}

/// Where `buf` can be cut without splitting a UTF-8 character at its end.
fn char_boundary(buf: &[u8]) -> usize {
    match std::str::from_utf8(buf) {
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        _ => buf.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<(usize, String)> {
        let mut t = TextLines::new(bytes);
        let mut out = Vec::new();
        while let Some(l) = t.next_line().unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn line_endings_and_byte_order_mark() {
        let want: Vec<(usize, String)> = vec![(1, "a".into()), (2, "".into()), (3, "b".into())];
        assert_eq!(lines(b"a\n\nb\n"), want);
        assert_eq!(lines(b"a\r\n\r\nb\r\n"), want);
        assert_eq!(lines(b"a\r\rb\r"), want);
        assert_eq!(lines(b"\xEF\xBB\xBFa\n\nb"), want);
        assert_eq!(lines(b""), vec![]);
    }

    #[test]
    fn latin1_and_windows1252_keep_their_letters() {
        assert_eq!(decode(b"[White \"Ren\xE9\"]\n"), "[White \"René\"]\n");
        assert_eq!(decode(b"\x80 \x93x\x94 \x81"), "€ “x” \u{81}\n");
        // A UTF-8 line beside a Latin-1 one: each read as what it is.
        assert_eq!(decode("é\n\u{e9}".as_bytes()), "é\né\n");
        assert_eq!(decode(b"Ren\xC3\xA9\nRen\xE9\n"), "René\nRené\n");
    }

    #[test]
    fn long_lines_are_read_in_pieces_cut_at_a_cr() {
        // A file with CR line ends, longer than a piece: every line whole.
        let line = "x".repeat(1000);
        let text = format!("{line}\r").repeat(3000);
        let got = lines(text.as_bytes());
        assert_eq!(got.len(), 3000);
        assert!(got.iter().all(|(_, l)| *l == line));
        // A UTF-8 character across the cut of a line with no line end.
        let text = "é".repeat(MAX_PIECE as usize);
        let got = lines(text.as_bytes());
        assert_eq!(
            got.iter().map(|(_, l)| l.as_str()).collect::<String>(),
            text
        );
    }
}
