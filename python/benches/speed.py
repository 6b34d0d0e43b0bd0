"""Speed of dama's Python package, measured (not asserted), in one run:

1. against pydraughts, the pure-Python draughts library, on the same machine: the legal
   moves of the same english positions, and perft from the english start;
2. `Engine.analyse` against `dama analyze` (the CLI) on the same positions and depth:
   the nodes a second of each.

Run: python3 python/benches/speed.py [path of the dama binary]
"""

import random
import re
import subprocess
import sys
import time

import dama

try:
    import draughts
except ImportError:  # pragma: no cover
    draughts = None


def positions(n, seed=1):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board = dama.Board("english")
        for _ in range(rng.randrange(0, 60)):
            moves = board.legal_moves
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if board.legal_moves and not board.is_game_over():
            out.append(board.fen())
    return out


def best_of(runs, f):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def pydraughts_perft(board, depth):
    if depth == 0:
        return 1
    total = 0
    for m in board.legal_moves():
        board.push(m)
        total += pydraughts_perft(board, depth - 1)
        board.pop()
    return total


def main():
    fens = positions(300)
    dama_boards = [dama.Board("english", f) for f in fens]
    t_dama = best_of(5, lambda: [b.legal_moves for b in dama_boards])
    print(f"legal moves of {len(fens)} english positions: dama {t_dama * 1e3:.2f} ms")
    if draughts:
        py_boards = [draughts.Board(variant="english", fen=f) for f in fens]
        t_py = best_of(3, lambda: [b.legal_moves() for b in py_boards])
        print(f"  pydraughts {t_py * 1e3:.1f} ms: dama is {t_py / t_dama:.0f}x faster")
    depth = 5
    start = dama.Board("english")
    t_dama = best_of(5, lambda: start.perft(depth))
    n = start.perft(depth)
    print(f"perft {depth} from the english start ({n} leaves): dama {t_dama * 1e3:.2f} ms")
    if draughts:
        b = draughts.Board(variant="english")
        t = time.perf_counter()
        n_py = pydraughts_perft(b, depth)
        t_py = time.perf_counter() - t
        print(f"  pydraughts {t_py:.1f} s ({n_py} leaves): dama is {t_py / t_dama:.0f}x faster")
    if len(sys.argv) > 1:
        cli = sys.argv[1]
        py_nodes = py_time = cli_nodes = cli_time = 0
        for fen in fens[:20]:
            # A fresh engine a position, as each CLI run has (its table's pages are
            # touched for the first time during the search in both).
            engine = dama.Engine("english", threads=1, hash_mb=64)
            info = engine.analyse(dama.Board("english", fen), depth=14)
            py_nodes += info["nodes"]
            py_time += info["time"]
            out = subprocess.run(
                [cli, "analyze", "--variant", "english", "--fen", fen, "--depth", "14", "--hash", "64"],
                capture_output=True, text=True, check=True,
            ).stdout
            last = [l for l in out.splitlines() if l.startswith("depth")][-1]
            cli_nodes += int(re.search(r"nodes (\d+)", last).group(1))
            cli_time += float(re.search(r"time ([\d.]+)", last).group(1))
        print(
            f"analyse to depth 14 on 20 positions: Python {py_nodes} nodes, {py_nodes / py_time:,.0f} nodes/s; "
            f"CLI {cli_nodes} nodes, {cli_nodes / cli_time:,.0f} nodes/s; ratio {py_nodes / py_time / (cli_nodes / cli_time):.3f}"
        )


if __name__ == "__main__":
    main()
