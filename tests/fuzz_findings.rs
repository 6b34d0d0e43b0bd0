//! What the fuzz targets of `fuzz/` found, each input kept as it was found (or
//! minimised) and named after what went wrong; see `fuzz/README.md`. Every reader of
//! outside input must return an error, never panic, hang or allocate without bound.

use dama::protocol::syntax::{parse_line, quote};

/// hub_line: `quote` wrote a value holding a form feed bare, so the line read back split
/// it at the form feed (`parse_line` splits at any whitespace).
#[test]
fn hub_line_quote_keeps_a_value_with_a_form_feed_whole() {
    let value = "\0\0\0\u{c}nam\u{8}e\u{13}ss";
    let line = format!("error message={}", quote(value));
    let read = parse_line(&line).unwrap().unwrap();
    assert_eq!(read.get("message"), Some(value));
    for odd in ["a\u{b}b", "a\u{a0}b", "a\u{2003}b", "a\u{85}b"] {
        let line = format!("x v={}", quote(odd));
        assert_eq!(
            parse_line(&line).unwrap().unwrap().get("v"),
            Some(odd),
            "{odd:?}"
        );
    }
}
