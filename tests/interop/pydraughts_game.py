"""Drive dama with pydraughts' HubEngine.go(...) through a whole english game (PDN FENs).

Usage: python3 tests/interop/pydraughts_game.py PATH_TO_DAMA (tests/interop.rs runs it
under `cargo test`). Every move dama sends must be one pydraughts accepts on its own
board (Move(board, hub_move=...) raises otherwise); dama must leave on `quit` with 0.
"""
import logging, sys, time
from draughts import Board, Move
from draughts.engine import HubEngine

logging.basicConfig(level=logging.DEBUG, format="%(message)s", stream=sys.stdout)
engine = HubEngine([sys.argv[1], "hub"])
engine.setoption("variant", "english")
engine.init()
board = Board(variant="english")
start_fen = board.fen
moves = []
while not board.is_over() and len(moves) < 200:
    best, ponder = engine.go(start_fen, moves=" ".join(moves) if moves else None, movetime=0.05)
    move = Move(board, hub_move=best)
    board.push(move)
    moves.append(best)
print("RESULT", board.winner(), "plies", len(moves))
print("PDN", " ".join(moves))
engine.quit()
code = engine.p.wait(timeout=10)
print("dama exited with", code)
sys.exit(code)
