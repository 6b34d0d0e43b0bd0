#!/usr/bin/env python3
"""Writes the seed inputs of the fuzz targets under fuzz/seeds/<target>/ (run from
anywhere; the files are committed, this script only remakes them)."""

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Variant bytes: the index in dama's Variant::ALL.
DAMEO, CRODA, SCANDINAVIAN, BOYER_PARTON, ENGLISH = range(5)


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def write(target, name, data):
    d = os.path.join(HERE, "seeds", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def pack(data):
    """egdb::file::pack."""
    out = bytearray()
    i = lit = 0

    def flush(a, b):
        while a < b:
            n = min(b - a, 128)
            out.append(n - 1)
            out.extend(data[a:a + n])
            a += n

    while i < len(data):
        run = 1
        while i + run < len(data) and data[i + run] == data[i] and run < 129:
            run += 1
        if run >= 2:
            flush(lit, i)
            out.append(run + 126)
            out.append(data[i])
            i += run
            lit = i
        else:
            i += 1
    flush(lit, len(data))
    return bytes(out)


def egdb(variant, material, values):
    """egdb::file::encode for one narrow block (fewer than 65536 values)."""
    payload = pack(values)
    head = bytearray(b"DAMAEGDB")
    head += struct.pack("<I", 3)
    head += bytes([len(variant)]) + variant.encode()
    head += bytes(material) + bytes([1])
    head += struct.pack("<QII", len(values), 1 << 16, 1)
    head += struct.pack("<QQ", 0, len(payload))
    head += struct.pack("<Q", fnv1a64(payload))
    head += struct.pack("<Q", fnv1a64(head))
    return bytes(head) + payload


def model(variant, width, heads):
    """A model file of zero weights (eval::model::Model::to_bytes's layout)."""
    arch = f"perspective 256x2 -> 2x{width} crelu -> 32 crelu -> 32 crelu -> 1"
    text = f"variant: {variant}\n"
    text += f"architecture: {arch}" + (f", {heads} heads by piece count" if heads > 1 else "") + "\n"
    text += "scale: 100\n"
    if heads > 1:
        text += "start-pieces: 24\n"
    body = bytearray(b"DAMANET\n") + struct.pack("<II", 1, len(text)) + text.encode()
    weights = (256 * width + width) * 2 + heads * ((2 * width * 32 + 32 * 32 + 32) * 2 + 65 * 4)
    body += bytes(weights)
    return bytes(body) + struct.pack("<Q", fnv1a64(body))


def book(variant_name, path, lines):
    with open(os.path.join(ROOT, path)) as f:
        text = "".join(f.readlines()[:lines])
    return text + "# fnv1a64 %016x\n" % fnv1a64(text.encode())


def main():
    for i, fen in enumerate([
        "W:Wa1,c1,Ke5:Bb8,Kd8",
        "B:W21-32:B1-12",
        "W:WK18:B6,7,14,15",
        "W:We2:Be3,f4,g5,a8",
        "W:WKa1:Bd4,e7,b6,Kg5,h8.",
    ]):
        write("fen", f"{i}", fen)

    seed = bytes(range(8))
    for i, (v, plies, text) in enumerate([
        (ENGLISH, 0, "11-15"),
        (ENGLISH, 20, "18x9x2x11x18"),
        (SCANDINAVIAN, 10, "a1xf6xd8xa5"),
        (DAMEO, 12, "e2xe4xg4xg6"),
        (CRODA, 6, "b3-b4"),
        (BOYER_PARTON, 30, "c3xe5"),
    ]):
        write("move_text", f"{i}", bytes([v, plies]) + seed + text.encode())

    for i, line in enumerate([
        'pos variant=dameo fen="W:We2:Be3,f4,g5,a8" moves="e2-d3"',
        'pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="11-15 23-19 8-11"',
        "set-param name=egdb-path value=/tmp/a b c x=1 d",
        "level depth=3 nodes=1000 move-time=0.5 time=60 inc=1.5 moves=40 infinite",
        "go analyze",
        "perft depth=4",
        'error message="a b"',
    ]):
        write("hub_line", f"{i}", line)

    for i, msg in enumerate([
        '{"type":"new","variant":"english","fen":"B:W21-32:B1-12","moves":"11-15 23-19"}',
        '{"type":"move","from":"11","to":"15","captured":["12"]}',
        '{"type":"engine","side":"white","movetime":500,"depth":8}',
        '{"type":"analyze","on":true,"multipv":3}',
        '{"type":"goto","ply":4}',
    ]):
        write("serve_message", f"{i}", msg)

    write("model", "english-64", bytes([1, ENGLISH]) + model("english", 64, 1))
    write("model", "dameo-64x2", bytes([1, DAMEO]) + model("dameo", 64, 2))

    write("book", "english", bytes([1, ENGLISH]) + book("english", "src/engine/books/english.book", 12).encode())
    write("book", "dameo", bytes([1, DAMEO]) + book("dameo", "src/engine/books/dameo.book", 8).encode())

    values = bytes([0] * 40 + [5, 7, 9, 131, 140] * 8 + [0] * 20)
    write("egdb", "english", bytes([3]) + struct.pack("<I", len(values))[:3] + egdb("english", [1, 0, 1, 0], values))

    for i, (v, text) in enumerate([
        (ENGLISH, "# openings\n11-15 23-19\n9-14 22-17 ; B:W17,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,14\n"),
        (DAMEO, "d3-c4 e7-e5 h1-e4 g8-h7 c4-d5 d6xd4xf4 f3xf5xd5 h7-g6 ; W:Wa1,b1,c1,d1,e1,f1,g1,b2,c2,d2,e2,f2,g2,c3,e3,d5:Bc6,e6,f6,g6,b7,c7,d7,f7,g7,a8,b8,c8,d8,e8,f8,h8 # white -0.18\n"),
        (SCANDINAVIAN, "W:WKa1:Bd4,e7,b6,Kg5,h8 a1xf6xd8xa5\n"),
    ]):
        write("openings", f"{i}", bytes([v]) + text.encode())

    write("pdn", "0", '[Event "x"]\n[Variant "english"]\n\n{before} 1. 11-15?! {slow} 23-19 $4 2. 8-11 (2. 9-14 {the (main) line} 22-17) 22-18!! 1-0\n')
    write("pdn", "1", '[Variant "dameo"]\n[FEN "W:We2:Be3,f4,g5,a8"]\n\n1. e2xe4xg4xg6 *\n')

    for name in ["english", "dameo"]:
        with open(os.path.join(ROOT, "src/eval/weights", name + ".txt")) as f:
            write("weights", name, f.read())

    head = bytearray(64)
    head[0:8] = b"DAMADATA"
    head[8:16] = struct.pack("<II", 1, 32)
    head[16:23] = b"english"
    records = b"".join(
        struct.pack("<QQQhBBI", white, black, kings, score, side, result, game)
        for white, black, kings, score, side, result, game in [
            (0x0000000000AA55AA, 0x55AA550000000000, 0, 12, 0, 1, 7),
            (0x0000000000000001, 0x8000000000000000, 0x8000000000000001, -40, 1, 2, 8),
        ]
    )
    write("train_data", "english", bytes(head) + records)


if __name__ == "__main__":
    main()
