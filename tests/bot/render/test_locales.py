"""The board image in Russian and Polish: every label measured against its box fits, none
is cut, with the same layout; ``python -m bot.render --demo DIR --locale ru`` works."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from bot.render import BOARD_SIZE, LIVE_SIZE, clear_caches, fonts, layout_for, render_board_image
from bot.render.__main__ import main as demo_main
from bot.render.fonts import FitRecord, font
from bot.render.sample_states import finished, mid_game
from bot.text.strings import text, thing_name
from engine import GameState
from engine.tables import CARDS, FIELDS, TERRITORIES
from tests.engine.scenario import scenario

NAMES = ("Ада", "Zofia", "Chidi", "Борис")


def showcase() -> Iterator[GameState]:
    """States that put every name and label of the board on it: every card in a hand (used
    and not), on display and as the VP cards, every field (two on one territory), the
    relic ship on the desert and owned, a ship used up on the Terraforming Station, the
    finite supply and a market rate, pending decisions, a finished game."""
    cards = list(CARDS)
    yield scenario(
        docks={"terraform": "p1:6", "market": "p1:3 p1:3"},
        cards={0: cards[0:4], 1: cards[4:8], 2: cards[8:11], 3: cards[11:]},
        display=("gravity", "decoy", "teleporter"),
        fields={"isolation": "burroughs", "positron": "lem", "repulsor": "lem"},
        colonies={"burroughs": [2, 0, 0, 0], "lem": [1, 1, 0, 0]},
        fuel=[7, 1, 0, 3],
        ore=[8, 0, 2, 1],
        supply=(19, 9),
        mind_control_helm=True,
    )
    yield scenario(
        cards={0: ["teleporter", "polarity", "monument"], 1: ["helm", "crystal"]},
        display=("teleporter", "city", "helm"),
        fields={"isolation": "vanvogt", "positron": "vanvogt", "repulsor": "heinlein"},
        players=3,
        mind_control_helm=True,
    )
    yield scenario(players=2, display=("warper", "stasis", "booster"))
    yield mid_game(4, 1)
    yield mid_game(2, 3)
    yield finished(4, 1)
    yield finished(3, 2)


@pytest.fixture
def fits() -> Iterator[list[FitRecord]]:
    """Every label measured while rendering (cached drawings cleared first)."""
    clear_caches()
    fonts.FIT_LOG = []
    try:
        yield fonts.FIT_LOG
    finally:
        fonts.FIT_LOG = None
        clear_caches()


@pytest.mark.parametrize("locale", ["ru", "pl", "en"])
def test_every_label_fits_its_box(locale: str, fits: list[FitRecord]) -> None:
    for state in showcase():
        image = render_board_image(state, NAMES[: state.num_players], locale)
        assert image.size == BOARD_SIZE  # the same layout in every language
    assert fits, "no label was measured"
    cut = [r.text for r in fits if r.fitted is None]
    assert not cut, f"texts cut with an ellipsis: {cut}"
    for r in fits:
        assert r.fitted is not None
        assert r.fitted.fits, (r.text, r.width, r.fitted)
        for line in r.fitted.lines:
            assert font(r.face, r.fitted.size).getlength(line) <= r.width, (line, r.width)
        assert " ".join(r.fitted.lines).split() == r.text.split(), r  # no word lost
    measured = {r.text for r in fits}
    # Every name of the board was measured: facilities, territories, every card, fields.
    for thing in (*TERRITORIES, *CARDS, "terraform", "hub", "bay", "solar", "raiders"):
        assert thing_name(thing, locale) in measured, thing
    for key in ("board.display", "board.log", "board.colonies", "board.ships", "board.cards"):
        assert text(key, locale) in measured, key
    assert text("board.legend", locale) in measured  # what a territory's frame means
    for t in TERRITORIES:
        assert text(f"board.bonus.{t}", locale) in measured, t  # what controlling it gives
    for f in FIELDS:
        shown = {thing_name(f, locale), text(f"board.field_short.{f}", locale)}
        assert any(s in measured for s in shown) or any(
            thing_name(f, locale) in r.text for r in fits
        ), f


def test_russian_words_are_shrunk_or_wrapped_not_cut(fits: list[FitRecord]) -> None:
    """The test above can fail: the longest Russian names need a smaller size or a 2nd line."""
    render_board_image(next(showcase()), NAMES, "ru")
    title = next(r for r in fits if r.text == "Станция терраформирования")
    assert title.fitted is not None and title.fitted.fits
    assert title.fitted.lines == ("Станция", "терраформирования")
    card = next(r for r in fits if r.text == "Голографическая приманка" and r.face == "cond_bold")
    assert card.fitted is not None and card.fitted.size < 15 and card.fitted.fits
    layout = layout_for(4)
    assert layout.facilities["terraform"].w - 30 < font("cond_bold", 17).getlength(title.text)


def test_demo_writes_sample_boards_in_russian_and_polish(tmp_path: Path) -> None:
    for locale in ("ru", "pl"):
        out = tmp_path / locale
        assert demo_main(["--demo", str(out), "--locale", locale]) == 0
        files = sorted(p.name for p in out.glob("*.png"))
        boards = ["mid_2p.png", "mid_3p.png", "mid_4p.png", "over_4p.png"]
        assert files == [f"{kind}_{b}" for kind in ("full", "live") for b in boards]
        with Image.open(out / "full_mid_4p.png") as image:
            assert image.size == BOARD_SIZE
        with Image.open(out / "live_mid_4p.png") as image:
            assert image.size == LIVE_SIZE


def test_demo_refuses_an_unknown_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        demo_main(["--demo", str(tmp_path / "xx"), "--locale", "xx"])
    assert exit_.value.code == 2
    assert "unknown language 'xx': the known ones are en, pl, ru" in capsys.readouterr().err
    assert not (tmp_path / "xx").exists()


def test_colonies_are_counted_alike_on_the_boards_and_in_status(fits: list[FitRecord]) -> None:
    """Colonies left include the one on the Colony Hub, on both boards and in /af status."""
    from bot.render import render_live_board_image
    from bot.text.describe import player_line
    from engine.views import view

    s = scenario(hub={0: 3}, colonies={"lem": [2, 0, 0, 0]})  # of 6: 2 placed, 1 on the hub
    line = player_line(view(s), 0, ["Ann", "Bob", "Cleo", "Dan"])
    assert "4 left, 2 on the planet" in line
    render_board_image(s)
    render_live_board_image(s)
    measured = {r.text for r in fits}
    assert "4 left · 2 on the planet" in measured  # the full board
    assert "4 left" in measured  # the live board
