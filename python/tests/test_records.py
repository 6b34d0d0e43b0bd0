"""Game records through Python: PDN read and written back, annotation, the SVG."""

import pathlib
import xml.etree.ElementTree as ET

import pytest

import dama
from conftest import ROOT, random_playout

FIXTURES = ROOT / "tests" / "fixtures" / "pdn"


def test_read_pdn_then_pdn_gives_the_same_moves():
    for path in sorted(FIXTURES.glob("*.pdn")):
        games = dama.read_pdn(path, skip_bad=True)
        for g in games:
            again = dama.read_pdn(g.pdn())
            assert len(again) == 1 and again[0].moves == g.moves and again[0].tags == g.tags


def test_every_encoding_reads_the_same_games_with_the_names_intact():
    want = [g.moves for g in dama.read_pdn(FIXTURES / "utf8-lf.pdn")]
    for name in ["utf8-bom-crlf.pdn", "utf8-cr.pdn", "latin1-lf.pdn", "windows1252-crlf.pdn"]:
        games = dama.read_pdn(str(FIXTURES / name))
        assert [g.moves for g in games] == want
        assert games[0].tags["White"] == "René Müller"
        assert games[0].board().fen() == dama.read_pdn(FIXTURES / "utf8-lf.pdn")[0].board().fen()
    # Text as well as paths.
    text = (FIXTURES / "utf8-lf.pdn").read_text()
    assert [g.moves for g in dama.read_pdn(text)] == want


def test_a_bad_game_raises_with_its_number():
    with pytest.raises(dama.PdnError, match=r"game 2 \(line 6\)"):
        dama.read_pdn(FIXTURES / "bad-games.pdn")
    games = dama.read_pdn(FIXTURES / "bad-games.pdn", skip_bad=True)
    assert [g.number for g in games] == [1, 3, 4]
    with pytest.raises(dama.IllegalMoveError, match=r"game 3 \(line 12\): illegal move 19-16"):
        games[1].board()


def test_annotate_gives_the_rows_of_the_cli():
    game = dama.read_pdn(FIXTURES / "utf8-lf.pdn")[2]
    rows = dama.annotate(game, depth=3)
    assert [r["move"] for r in rows] == game.moves
    assert all(r["game"] == 3 and r["limit"] == "depth 3" for r in rows)
    board = game.board()
    assert [r["move"] for r in dama.annotate(board, depth=3)] == game.moves


@pytest.mark.parametrize("variant", dama.variants())
def test_the_svg_parses_and_has_a_piece_element_per_piece(variant, rng):
    board = random_playout(variant, 40, rng)
    root = ET.fromstring(board._repr_svg_())
    ns = "{http://www.w3.org/2000/svg}"
    pieces = [g for g in root.iter(ns + "g") if "piece" in g.get("class", "").split()]
    assert len(pieces) == len(board.pieces())
    kings = [g for g in pieces if "king" in g.get("class").split()]
    assert len(kings) == sum(1 for p in board.pieces().values() if p.isupper())
    marked = [r for r in root.iter(ns + "rect") if r.get("class") == "last-move"]
    assert len(marked) == (2 if board.ply and board.move_stack[-1].from_square != board.move_stack[-1].to_square else (1 if board.ply else 0))
