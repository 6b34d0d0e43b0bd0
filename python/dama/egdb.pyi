from typing import Any, Dict, Optional

from . import Board

def probe(board: Board, directory: Optional[str] = None) -> Optional[Dict[str, Any]]: ...
