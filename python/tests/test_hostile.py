"""Hostile input never panics: every entry point given strange strings raises a Python
error of its own kind (ValueError, TypeError, OSError), never a Rust panic."""

import random

import pytest

import dama

STRINGS = [
    "", " ", "\x00", "W", "B:", "W:W", "W:W99:B1", "W:Wa1,a1", "W:WK", "W:W1-40", "W:W32-1",
    "[", "[Event", "{", "(", ")", "%", ";", "1.", "1...", "$", "$999999999999",
    "11-15", "11x15x", "a1-a1", "x", "-", "99-100", "🙂", "é" * 1000, "1" * 100000,
    "\ufeff[Event \"x\"]\r1. 11-15 *", "W:W" + ",".join(str(i) for i in range(1, 33)),
    "nan", "-1", "0", "18446744073709551616",
]


def hostile(rng):
    out = list(STRINGS)
    alphabet = "WBK:,.-x0123456789abcdefgh[]{}()\"$!?*/ \n\r\t\ufeff\x00é"
    for _ in range(300):
        out.append("".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40))))
    return out


def no_panic(f, *args, **kwargs):
    try:
        f(*args, **kwargs)
    except (ValueError, TypeError, OSError, IndexError, OverflowError):
        pass
    # A pyo3 PanicException derives from BaseException, not Exception: it escapes here.


def test_hostile_strings_at_every_entry_point(rng, tmp_path):
    board = dama.Board("english")
    for s in hostile(rng):
        no_panic(dama.Board, s)
        for v in dama.variants():
            no_panic(dama.Board, v, s)
            no_panic(dama.Board(v).push, s)
        no_panic(board.copy().push, s)
        no_panic(dama.read_pdn, s)
        no_panic(dama.read_pdn, s, skip_bad=True)
        no_panic(dama.book.probe, board, s)
        no_panic(dama.egdb.probe, board, s)
        no_panic(dama.Game(moves=[s]).board, "english")
        no_panic(dama.Game(tags=[("FEN", s)]).board, "english")
    for s in STRINGS[:20]:
        no_panic(dama.Engine, "english", evaluation=s, hash_mb=1)
        no_panic(dama.Engine, s)
    # Damaged files.
    for name, data in [("model.nnue", b"\x00" * 100), ("book.txt", b"garbage\n"), ("x.pdn", b"\xff\xfe[")]:
        p = tmp_path / name
        p.write_bytes(data)
        no_panic(dama.Engine, "english", evaluation=str(p), hash_mb=1)
        no_panic(dama.book.probe, board, str(p))
        no_panic(dama.read_pdn, p)
    d = tmp_path / "egdb"
    d.mkdir()
    (d / "english-2000.egdb").write_bytes(b"\x00" * 64)
    no_panic(dama.egdb.probe, dama.Board("english", "W:W22:B15"), str(d))
    no_panic(dama._dama._board_from_state, "english", "W:W22:B15", ["x"])
    no_panic(dama._dama._move_from_state, "english", 200, 0, 0, "", [], [])
    no_panic(dama.Board("english").perft, 0)
    for bad in [-1, 21, 2**40]:
        no_panic(dama.Board("english").perft, bad)
