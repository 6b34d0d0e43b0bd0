"""Endgame databases: the exact value of a position with few pieces."""

from ._dama import egdb_probe as _probe


def probe(board, directory=None):
    """The databases' value of ``board``'s position from the side to move's view:
    ``{"value": "win" | "draw" | "loss", "distance": plies or None}``, or ``None`` when
    they do not hold it. ``directory`` is the databases' folder (by default the CLI's:
    ``$DAMA_EGDB_DIR``, else ``~/.local/share/dama/egdb``); the variant's built-in slices
    (scandinavian, up to 4 pieces) are solved in memory once per process. A directory
    that does not exist or holds a damaged file raises ``dama.FileError``."""
    return _probe(board, directory)
