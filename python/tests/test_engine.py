"""The engine through Python: forced wins, databases, threads, Ctrl-C, processes."""

import _thread
import multiprocessing
import threading
import time

import pytest

import dama
from conftest import SMALL

# A won position of each variant and the plies of its forced win at most.
WINS = {
    "dameo": ("W:WKd4:Bh8", 40),
    "croda": ("W:WKd4,Ka1:Bh8", 40),
    "scandinavian": ("W:WKa1,Kc3,Ke1:Bh8", 60),
    "boyer-parton": ("W:WKa1,Kc3,Ke1:Bh8", 60),
    "english": ("W:WK22,K31:B15", 40),
}


@pytest.mark.parametrize("variant", dama.variants())
def test_analyse_finds_a_forced_win_and_its_pv_replays(variant):
    fen, _ = WINS[variant]
    board = dama.Board(variant, fen)
    engine = dama.Engine(variant, hash_mb=16)
    info = engine.analyse(board, depth=24)
    assert info["win_in"] is not None and info["win_in"] > 0, info
    replay = board.copy()
    for m in info["pv"]:
        replay.push(m)
    assert info["depth"] <= 24 and info["nodes"] > 0
    assert engine.play(board, depth=8) in board.legal_moves


def test_multipv_gives_lines_best_first():
    engine = dama.Engine("english", hash_mb=16)
    lines = engine.analyse(dama.Board("english"), depth=6, multipv=3)
    assert [l["multipv"] for l in lines] == [1, 2, 3]
    assert lines[0]["score"] >= lines[1]["score"] >= lines[2]["score"]
    firsts = {str(l["pv"][0]) for l in lines}
    assert len(firsts) == 3


def test_analysis_yields_each_depth():
    engine = dama.Engine("english", hash_mb=16)
    depths = [i["depth"] for i in engine.analysis(dama.Board("english"), depth=7)]
    assert depths == list(range(1, 8))


def test_the_database_value_comes_back():
    # Scandinavian's built-in slices (4 pieces) are solved in memory.
    board = dama.Board("scandinavian", "W:WKa1,Kc3,Ke1:Bh8")
    assert dama.egdb.probe(board) ["value"] == "win"
    info = dama.Engine("scandinavian", hash_mb=16).analyse(board, depth=4)
    assert info["egdb"] == "win"
    assert dama.egdb.probe(dama.Board("scandinavian")) is None


def test_book_probe():
    moves = dama.book.probe(dama.Board("english"))
    assert moves and all(m["move"] in dama.Board("english").legal_moves for m in moves)
    assert [m["score"] for m in moves] == sorted((m["score"] for m in moves), reverse=True)
    with pytest.raises(dama.FileError, match="no-such-book"):
        dama.book.probe(dama.Board("english"), "no-such-book")


def test_other_threads_run_during_a_search():
    counter = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            counter[0] += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    dama.Engine("english", hash_mb=16).analyse(dama.Board("english"), movetime=500)
    seen = counter[0]
    done.set()
    t.join()
    assert seen > 50, seen


def test_keyboard_interrupt_ends_a_long_search():
    engine = dama.Engine("english", hash_mb=16)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        engine.analyse(dama.Board("english"), movetime=60_000)
    assert time.monotonic() - start < 5
    # The engine searches again afterwards.
    assert engine.analyse(dama.Board("english"), depth=3)["depth"] == 3


def analyse_fen(args):
    variant, fen = args
    info = dama.Engine(variant, threads=1, hash_mb=16).analyse(dama.Board(variant, fen), depth=9)
    return info["score"], [str(m) for m in info["pv"]], info["nodes"]


def test_a_pool_of_processes_gives_the_same_analysis():
    jobs = sorted(SMALL.items())
    one = [analyse_fen(j) for j in jobs]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        two = pool.map(analyse_fen, jobs)
    assert one == two
    # Boards go to workers as they are.
    boards = [dama.Board(v, f) for v, f in jobs]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        fens = pool.map(dama.Board.fen, boards)
    assert fens == [b.fen() for b in boards]


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="unknown variant"):
        dama.Engine("chess")
    with pytest.raises(ValueError, match="threads"):
        dama.Engine("english", threads=0)
    with pytest.raises(dama.FileError, match="missing.nnue"):
        dama.Engine("english", evaluation="missing.nnue")
    with pytest.raises(dama.FileError, match="no-such-dir"):
        dama.Engine("english", egdb="no-such-dir")
    with pytest.raises(ValueError, match="limit"):
        dama.Engine("english").analyse(dama.Board("english"))
    with pytest.raises(ValueError, match="board is dameo, the engine english"):
        dama.Engine("english").analyse(dama.Board("dameo"), depth=2)


def level_game(skill, seed, plies=20):
    """The moves of a game of the engine against itself at `skill` with `seed`."""
    engine = dama.Engine("english", hash_mb=4)
    board = dama.Board("english")
    for _ in range(plies):
        if board.is_game_over():
            break
        move = engine.play(board, movetime=60_000, skill=skill, seed=seed)
        assert move in board.legal_moves
        board.push(move)
    return [tuple(m.path) for m in board.move_stack]


def test_levels_play_at_once_and_a_seed_replays_a_game():
    # A minute a move, but each level's node budget ends its search at once.
    a = level_game(2, seed=9)
    assert a == level_game(2, seed=9)
    assert a != level_game(2, seed=10)
    with pytest.raises(ValueError, match="skill 0 is out of range 1-10"):
        dama.Engine("english").play(dama.Board("english"), depth=2, skill=0)
    with pytest.raises(ValueError, match="skill 11 is out of range 1-10"):
        dama.Engine("english").play(dama.Board("english"), depth=2, skill=11)
