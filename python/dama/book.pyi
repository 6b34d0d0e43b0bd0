from typing import Any, Dict, List

from . import Board

def probe(board: Board, book: str = "builtin") -> List[Dict[str, Any]]: ...
