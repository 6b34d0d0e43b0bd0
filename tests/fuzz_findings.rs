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

/// The text of a book file of `variant` with its lines and the right checksum line.
fn book_text(variant: &str, lines: &[&str]) -> String {
    let mut text = format!("# dama book 1\n# variant {variant}\n");
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    let sum = dama::engine::book::fnv1a64(text.as_bytes());
    text + &format!("# fnv1a64 {sum:016x}\n")
}

/// book (review of the target): a book move scored near `i32::MIN` made `choose`
/// overflow in `best - margin`.
#[test]
fn book_choose_with_the_lowest_score() {
    use dama::engine::book::Book;
    use dama::rules::English;
    let text = book_text(
        "english",
        &["B:W21-32:B1-12 | 11-15 -2147483648 1 | 9-13 -2147483647 1"],
    );
    let book = Book::<English>::parse(&text).unwrap();
    let start = dama::Position::<English>::start();
    for margin in [0, 1, 100] {
        assert!(book.choose(&start, margin, 3).is_some());
    }
}

/// egdb: a slice file whose block table ends at `u64::MAX` (header checksum right)
/// overflowed `payload + offsets[blocks]` in `SliceFile::open` (a panic with overflow
/// checks, as the fuzz build has). The input as found: `fuzz/artifacts` are not kept,
/// so the file is made again here the way the target's checksum repair made it.
#[test]
fn egdb_block_table_ending_at_u64_max() {
    use dama::egdb::file::{checksum, decode, encode};
    use dama::egdb::material::Material;
    let material = Material {
        white_men: 1,
        white_kings: 0,
        black_men: 1,
        black_kings: 0,
    };
    let values: Vec<u16> = (0..100).map(|i| i % 7).collect();
    let mut file = encode("english", material, &values);
    assert_eq!(decode(&file, "english", material, 100), Ok(values));
    let fixed = 13 + "english".len() + 4 + 1 + 8 + 4 + 4;
    let blocks = 1;
    let header_len = fixed + 16 * blocks + 8;
    file[fixed + 8..fixed + 16].copy_from_slice(&u64::MAX.to_le_bytes());
    let sum = checksum(&file[..header_len]);
    file[header_len..header_len + 8].copy_from_slice(&sum.to_le_bytes());
    let e = decode(&file, "english", material, 100).unwrap_err();
    assert!(e.contains("block table"), "{e}");
}

/// egdb (review of the target): reads past the end of the bytes, and runs that unpack
/// to more values than a block holds, are errors before anything is allocated.
#[test]
fn egdb_reads_and_runs_out_of_bounds() {
    use dama::egdb::file::{unpack, Source};
    let bytes: &[u8] = &[1, 2, 3];
    assert!(bytes.read_at(u64::MAX, 2).is_err());
    assert!(bytes.read_at(2, usize::MAX).is_err());
    let mut out = Vec::new();
    // 129 copies of 7, then a literal of 128 bytes, where 2 values were expected.
    let mut packed = vec![255u8, 7, 127];
    packed.extend([0u8; 128]);
    assert!(unpack(&packed, 2, &mut out).is_err());
    assert!(out.len() <= 2, "{} bytes written", out.len());
}

/// train_data (review of the target, whose first input would panic):
/// `Record::from_bytes` indexed its bytes
/// before checking there were 32 of them.
#[test]
fn train_data_record_of_the_wrong_length() {
    use dama::learn::data::Record;
    for n in [0, 1, 26, 31, 33] {
        let e = Record::from_bytes(&vec![0u8; n]).unwrap_err();
        assert!(e.contains("32 bytes"), "{n}: {e}");
    }
    assert!(Record::from_bytes(&[0u8; 32]).is_ok());
}

/// weights: a weights file with `rank3 222222226` read, and the evaluation then
/// overflowed `i32` (a panic with overflow checks, a wrapped score without). The file
/// as found is `tests/fixtures/fuzz/weights/multiply-overflow.txt`.
#[test]
fn weights_too_large_to_evaluate() {
    use dama::eval::classic::Weights;
    let bytes = include_bytes!("fixtures/fuzz/weights/multiply-overflow.txt");
    let e = Weights::parse(&String::from_utf8_lossy(bytes)).unwrap_err();
    assert!(e.contains("out of range"), "{e}");
    let mut w = Weights::parse(include_str!("../src/eval/weights/english.txt")).unwrap();
    w.values.iter_mut().for_each(|v| *v = i32::MAX);
    w.tempo = i32::MAX;
    let s = dama::eval::classic::evaluate(&dama::Position::<dama::rules::English>::start(), &w);
    assert!(s.abs() <= dama::types::MATE_BOUND / 2, "{s}");
}
