"""How long each playing level takes to answer, measured (not asserted).

For every level of every variant, `Engine.play` with ten seconds a move (so that only the
level's node budget ends the search) from the same positions of real play: positions of
games of dama against itself at level 8 (the first 100 plies of games from random
openings). Prints the mean and the largest time a move per level.

Run: python3 python/benches/levels.py [variants...] (default: english)
"""

import random
import sys
import time

import dama


def positions(variant, n, seed=1):
    """`n` positions from games of dama at level 8, each game from 4 random plies."""
    rng = random.Random(seed)
    engine = dama.Engine(variant, hash_mb=16)
    out = []
    while len(out) < n:
        board = dama.Board(variant)
        for _ in range(4):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        engine.new_game()
        while not board.is_game_over() and board.ply < 100 and len(out) < n:
            out.append(board.copy())
            board.push(engine.play(board, movetime=10_000, skill=8, seed=rng.randrange(1, 2**32)))
    return out


def main():
    variants = sys.argv[1:] or ["english"]
    for variant in variants:
        boards = positions(variant, 200)
        print(f"{variant}: {len(boards)} positions, 10 s a move given, one thread")
        print("level  mean ms  max ms")
        for level in range(1, 11):
            engine = dama.Engine(variant, hash_mb=64)
            times = []
            moves = boards if level < 10 else boards[:20]
            for b in moves:
                t = time.perf_counter()
                engine.play(b, movetime=10_000 if level < 10 else 1_000, skill=level)
                times.append(time.perf_counter() - t)
            mean = 1000 * sum(times) / len(times)
            print(f"{level:>5}  {mean:7.1f}  {1000 * max(times):6.1f}"
                  + ("   (level 10: 1 s a move given, 20 positions)" if level == 10 else ""))


if __name__ == "__main__":
    main()
