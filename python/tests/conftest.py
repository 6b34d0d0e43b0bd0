"""Shared helpers of the Python package's tests."""

import os
import pathlib
import random

import pytest

import dama

ROOT = pathlib.Path(__file__).resolve().parents[2]

# A position of each variant with few pieces, for searches and databases.
SMALL = {
    "dameo": "W:Wa1,Kd4:Bh8,Ke7",
    "croda": "W:Wa1,Kd4:Bh8,Ke7",
    "scandinavian": "W:WKa1,c3:Bh8,f6",
    "boyer-parton": "W:WKa1,c3:Bh8,f6",
    "english": "W:W22,K31:BK15",
}


@pytest.fixture(scope="session")
def dama_bin():
    """The CLI built by `cargo build --release` (or $DAMA_BIN)."""
    path = pathlib.Path(os.environ.get("DAMA_BIN", ROOT / "target" / "release" / "dama"))
    if not path.exists():
        pytest.skip(f"{path} is not built: run cargo build --release")
    return str(path)


def random_playout(variant, plies, rng, fen=None):
    """A board after up to `plies` random legal moves (fewer when the game ends)."""
    board = dama.Board(variant, fen)
    for _ in range(plies):
        moves = board.legal_moves
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    return board


@pytest.fixture
def rng():
    return random.Random(20261206)
