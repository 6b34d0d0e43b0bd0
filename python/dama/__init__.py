"""dama: the rules, the engine and the endgame databases of five draughts games
(dameo, croda, scandinavian, boyer-parton, english), in the same process.

    >>> import dama
    >>> board = dama.Board("english")
    >>> len(board.legal_moves)
    7
    >>> board.push("11-15")
    Move('11-15')
    >>> engine = dama.Engine("english")
    >>> line = engine.analyse(board, depth=6)
    >>> sorted(line)[:3]
    ['depth', 'egdb', 'egdb_distance']

The API follows python-chess's shape; see docs/python.md in the repository.
"""

from ._dama import (
    Analysis,
    Board,
    DamaError,
    Engine,
    FenError,
    FileError,
    Game,
    IllegalMoveError,
    Move,
    PdnError,
    annotate,
    read_pdn,
    variants,
)
from . import book, egdb

__all__ = [
    "Analysis",
    "Board",
    "DamaError",
    "Engine",
    "FenError",
    "FileError",
    "Game",
    "IllegalMoveError",
    "Move",
    "PdnError",
    "annotate",
    "book",
    "egdb",
    "read_pdn",
    "variants",
]
