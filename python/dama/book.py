"""Opening books."""

from ._dama import book_probe as _probe


def probe(board, book="builtin"):
    """The book's moves of ``board``'s position, best first: a list of dicts with
    ``move`` (a ``dama.Move``), ``score`` (hundredths of a man, the side to move's view)
    and ``count`` (the book positions under it); empty when the book does not hold the
    position. ``book`` is ``"builtin"`` or the path of a book file (``dama book build``);
    a missing or damaged file raises ``dama.FileError``."""
    return _probe(board, book)
