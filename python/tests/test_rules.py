"""The rules through Python: perft as the CLI counts it, legal moves as pydraughts
lists them (english), push/pop and FEN round trips in every variant, pickling."""

import pickle
import re
import subprocess

import pytest

import dama
from conftest import random_playout

PERFT_DEPTH = {"dameo": 5, "croda": 5, "scandinavian": 6, "boyer-parton": 6, "english": 7}


@pytest.mark.parametrize("variant", dama.variants())
def test_perft_equals_the_cli(variant, dama_bin):
    depth = PERFT_DEPTH[variant]
    out = subprocess.run(
        [dama_bin, "perft", "--variant", variant, "--depth", str(depth)],
        capture_output=True, text=True, check=True,
    ).stdout
    cli = int(re.search(r"nodes=(\d+)", out).group(1))
    assert dama.Board(variant).perft(depth) == cli


def test_the_start_positions():
    assert [len(dama.Board(v).legal_moves) for v in dama.variants()] == [
        len(dama.Board(v).legal_moves) for v in ["dameo", "croda", "german", "boyer parton", "checkers"]
    ]
    b = dama.Board("english")
    assert b.turn == "black" and b.ply == 0 and b.variant == "english"
    assert sorted(str(m) for m in b.legal_moves) == sorted(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    assert dama.Board("dameo").turn == "white"
    assert b.result() == "*" and not b.is_game_over() and b.termination() is None
    assert len(b.pieces()) == 24 and set(b.pieces().values()) == {"w", "b"}


def test_moves_carry_their_squares():
    b = dama.Board("scandinavian", "W:WKa1:Bd4,e7,b6,Kg5,h8")
    moves = b.legal_moves
    assert len(moves) == 2
    for m in moves:
        assert m.is_capture() and m.from_square == "a1"
        assert m.path[0] == "a1" and m.path[-1] == m.to_square
        assert len(m.captured) >= 2
    assert b.push("a1xf6xh4") in moves
    assert b.pop() in moves


def test_game_end_rules():
    b = dama.Board("english", "B:W22:B18")
    b.push("18x25")
    assert b.is_game_over() and b.result() == "0-1"
    assert b.termination().startswith("G8")
    # Three times the same position: a draw (G9).
    b = dama.Board("english", "W:WK1:BK32")
    for m in ["1-5", "32-28", "5-1", "28-32"] * 2:
        b.push(m)
    assert b.result() == "1/2-1/2" and b.termination().startswith("G9")


def pydraughts_moves(fen):
    draughts = pytest.importorskip("draughts")
    board = draughts.Board(variant="english", fen=fen)
    return {
        (m.steps_move[0], m.steps_move[-1], frozenset(m.captures))
        for m in board.legal_moves()
    }


def dama_moves(board):
    return {
        (int(m.from_square), int(m.to_square), frozenset(int(c) for c in m.captured))
        for m in board.legal_moves
    }


def test_english_legal_moves_equal_pydraughts(rng):
    pytest.importorskip("draughts")
    checked = 0
    while checked < 2000:
        board = random_playout("english", rng.randrange(0, 80), rng)
        if board.is_game_over():
            continue
        fen = board.fen()
        assert dama_moves(board) == pydraughts_moves(fen), fen
        checked += 1


@pytest.mark.parametrize("variant", dama.variants())
def test_push_pop_and_fen_round_trips(variant, rng):
    for _ in range(20):
        board = dama.Board(variant)
        fens = [board.fen()]
        while not board.is_game_over() and board.ply < 200:
            mv = rng.choice(board.legal_moves)
            text = str(mv)
            assert board.copy().push(text) == mv
            board.push(mv)
            fens.append(board.fen())
            assert dama.Board(variant, board.fen()).fen() == board.fen()
        for fen in reversed(fens[:-1]):
            board.pop()
            assert board.fen() == fen
        with pytest.raises(IndexError):
            board.pop()


@pytest.mark.parametrize("variant", dama.variants())
def test_boards_and_moves_pickle(variant, rng):
    board = random_playout(variant, 30, rng)
    back = pickle.loads(pickle.dumps(board))
    assert back.fen() == board.fen() and back.start_fen() == board.start_fen()
    assert back.move_stack == board.move_stack
    assert back.legal_moves == board.legal_moves
    for m in board.legal_moves:
        again = pickle.loads(pickle.dumps(m))
        assert again == m and hash(again) == hash(m) and str(again) == str(m)


def test_a_move_of_another_variant_or_position_is_refused():
    english = dama.Board("english")
    scandinavian = dama.Board("scandinavian")
    with pytest.raises(dama.IllegalMoveError):
        english.push(scandinavian.legal_moves[0])
    m = english.legal_moves[0]
    english.push(m)
    with pytest.raises(dama.IllegalMoveError, match="not legal"):
        english.push(m)
    with pytest.raises(dama.IllegalMoveError):
        english.push("11-15x")
    with pytest.raises(TypeError):
        english.push(15)
    assert english.ply == 1
