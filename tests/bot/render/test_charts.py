"""The charts of a game's story (VP by round) and of a member's rating: their size, text
legible in Discord's 550-pixel preview, every letter of Russian and Polish drawn, each
player's line in their colour with their shape, 1 to 500 ratings, and alt texts within
Discord's limit. Pixels are read from the decoded PNG, never compared as bytes."""

from __future__ import annotations

import io
import itertools
import random
import unicodedata
from collections.abc import Iterator, Sequence

import pytest
from PIL import Image, ImageFont

from bot.play.vp_by_round import vp_by_round
from bot.render import charts, fonts, theme
from bot.render.charts import (
    PREVIEW_MIN_PX,
    PREVIEW_WIDTH,
    SIZE,
    TEXT_SIZES,
    Mark,
    rating_chart,
    rating_marks,
    vp_chart,
    vp_marks,
)
from bot.render.fonts import FONT_DIR, FONT_FILES, DrawnText
from bot.text.chart_words import rating_chart_text, vp_chart_text
from bot.text.limits import ALT_LIMIT
from bot.text.strings import text
from engine import GameConfig
from engine.selfplay import play_random_game

LOCALES = ("en", "ru", "pl")
NAMES = ("Ярослава", "Żółć", "Łukasz Wąż", "Ёжик Щукин")
LONG_NAMES = (
    "Ярослава Владимировна Щукина-Ёж",
    "Grzegorz Brzęczyszczykiewicz-Łoś",
    "Anna Maria Katharina von Oldenbu",
    "Ёлкина-Палкина Ангелина Ивановна",
)


def decoded(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    value = image.getpixel(xy)
    assert isinstance(value, tuple)
    return value


def near(colour: tuple[int, ...], rgb: Sequence[int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(colour, rgb, strict=False))


def count_near(image: Image.Image, rgb: Sequence[int], tol: int = 40) -> int:
    data = image.tobytes()
    return sum(1 for i in range(0, len(data), 3) if near(tuple(data[i : i + 3]), rgb, tol))


def game_series(players: int, seed: int = 3) -> list[list[int]]:
    result = play_random_game(GameConfig(players=players), seed)
    return vp_by_round(result.config, [str(a) for a in result.log])


def ratings(n: int, seed: int = 1) -> list[int]:
    rng = random.Random(seed)
    points = [1000]
    while len(points) < n:
        points.append(points[-1] + rng.randint(-25, 25))
    return points


@pytest.fixture
def drawn() -> Iterator[list[DrawnText]]:
    """Every text drawn while the test renders (the masks' cache does not hide any)."""
    fonts.TEXT_LOG = []
    try:
        yield fonts.TEXT_LOG
    finally:
        fonts.TEXT_LOG = None


# ---- size and legibility ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_vp_chart_is_twice_discords_preview_for_2_3_and_4_players(players: int) -> None:
    image = decoded(vp_chart(game_series(players), NAMES[:players], "en"))
    assert image.size == SIZE
    assert SIZE[0] == 2 * PREVIEW_WIDTH


@pytest.mark.parametrize("n", [1, 2, 500])
def test_rating_chart_is_twice_discords_preview_for_1_2_and_500_games(n: int) -> None:
    assert decoded(rating_chart(ratings(n), "Anna", "en")).size == SIZE


def test_every_text_is_at_least_10_px_in_discords_preview(drawn: list[DrawnText]) -> None:
    scale = PREVIEW_WIDTH / SIZE[0]
    assert all(size * scale >= PREVIEW_MIN_PX for size in TEXT_SIZES)
    for locale in LOCALES:
        vp_chart(game_series(4), LONG_NAMES, locale)
        rating_chart(ratings(30), LONG_NAMES[0], locale)
    assert {d.size for d in drawn} <= set(TEXT_SIZES)
    small = [d for d in drawn if d.size * scale < PREVIEW_MIN_PX]
    assert not small, small
    said = {d.text for d in drawn}
    for locale in LOCALES:  # the titles and axes were among the texts measured
        for key in ("chart.vp.title", "chart.vp.x", "chart.vp.y", "chart.rating.x"):
            assert text(key, locale) in said, key
    assert text("chart.provisional", "en") in said


# ---- letters ------------------------------------------------------------------------------


def _missing(face: ImageFont.FreeTypeFont, words: str) -> set[str]:
    notdef = bytes(face.getmask("\U000e0fff"))  # a code point no font has: the .notdef box
    return {ch for ch in words if not ch.isspace() and bytes(face.getmask(ch)) == notdef}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_letter_of_russian_and_polish_names_and_labels_is_drawn(
    locale: str, drawn: list[DrawnText]
) -> None:
    vp_chart([[0, 2, 3], [1, 1, 4], [0, 3, 5], [2, 2, 2]], NAMES, locale)
    rating_chart(ratings(12), "Żółć", locale)
    rating_chart(ratings(3), "Ярослава", locale)
    said = " ".join(d.text for d in drawn)
    for name in (*NAMES, "Żółć", "Ярослава"):
        assert name in said, name  # the names are drawn whole (short enough)
    missing = {
        (d.face, ch)
        for d in drawn
        for ch in _missing(ImageFont.truetype(str(FONT_DIR / FONT_FILES[d.face]), d.size), d.text)
    }
    assert not missing, missing
    face = ImageFont.truetype(str(FONT_DIR / FONT_FILES["regular"]), 20)
    assert _missing(face, "a\U000e0ffe") == {"\U000e0ffe"}  # the check can fail


def test_a_name_loses_only_the_characters_the_font_cannot_draw(
    drawn: list[DrawnText],
) -> None:
    vp_chart([[1, 2], [2, 3]], ["Zoë 🚀", "🚀"], "en")
    said = {d.text for d in drawn}
    assert "Zoë" in said
    assert "P2" in said  # nothing left of the name: the seat instead
    assert not any("🚀" in s for s in said)


def test_a_long_name_is_shortened_at_the_end_of_its_line(drawn: list[DrawnText]) -> None:
    vp_chart([[1, 2], [2, 3]], [LONG_NAMES[1], "Bo"], "en")
    names = [d.text for d in drawn if d.size == charts.NAME_SIZE]
    assert "Bo" in names
    short = next(n for n in names if n.startswith("Grzegorz"))
    assert short.endswith("…") and len(short) < len(LONG_NAMES[1])


# ---- lines, shapes, labels ----------------------------------------------------------------


def _pixels_near(image: Image.Image, mark: Mark, rgb: Sequence[int]) -> list[tuple[int, int]]:
    """The pixels of ``rgb`` in the box around a marker (its rim, not its line)."""
    half = round(mark.radius * 1.6)
    cx, cy = round(mark.x), round(mark.y)
    return [
        (x, y)
        for x in range(cx - half, cx + half + 1)
        for y in range(cy - half, cy + half + 1)
        if near(pixel(image, (x, y)), rgb)
    ]


def shape_at(image: Image.Image, mark: Mark, rgb: Sequence[int]) -> str:
    """Which shape a marker has, from how much of its bounding box it fills (square 1,
    circle pi/4, triangle and diamond 1/2) and where its weight is (a triangle's low)."""
    pixels = _pixels_near(image, mark, rgb)
    assert len(pixels) > 40, (mark, rgb)
    xs, ys = [x for x, _ in pixels], [y for _, y in pixels]
    width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    fill = len(pixels) / (width * height)
    low = (sum(ys) / len(ys) - (min(ys) + max(ys)) / 2) / height
    if fill > 0.95:
        return "square"
    if fill > 0.7:
        return "circle"
    return "triangle" if low > 0.08 else "diamond"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_has_their_shape_in_their_colour(players: int) -> None:
    """One round, every player at another VP: each marker alone, its shape readable."""
    series = [[1 + 2 * p] for p in range(players)]
    image = decoded(vp_chart(series, NAMES[:players], "en"))
    for p, line in enumerate(vp_marks(series)):
        assert shape_at(image, line[0], theme.player_rgb(p)) == theme.player_shape(p)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_has_a_line_in_their_colour_through_every_round(players: int) -> None:
    series = [[1 + 2 * p] * 6 for p in range(players)]  # level lines, apart
    image = decoded(vp_chart(series, NAMES[:players], "en"))
    for p, line in enumerate(vp_marks(series)):
        rgb = theme.player_rgb(p)
        assert len(line) == 6
        for a, b in itertools.pairwise(line):
            middle = (round((a.x + b.x) / 2), round((a.y + b.y) / 2))
            assert near(pixel(image, middle), rgb), (p, middle)
            assert near(pixel(image, (round(a.x), round(a.y))), rgb)
    for p in range(players, 4):  # no seat's colour without a player
        assert count_near(image, theme.player_rgb(p), 20) < 30


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_real_games_chart_has_every_players_colour(players: int) -> None:
    series = game_series(players)
    image = decoded(vp_chart(series, NAMES[:players], "pl"))
    for p in range(players):
        assert count_near(image, theme.player_rgb(p), 20) > 40 * len(series[p]), p


def test_tied_players_are_drawn_side_by_side_not_over_each_other() -> None:
    series = [[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]]
    marks = vp_marks(series)
    for i in range(4):
        centres = [(line[i].x, line[i].y) for line in marks]
        assert len(set(centres)) == 4
        xs = sorted(x for x, _ in centres)
        assert all(b - a >= marks[0][i].radius for a, b in itertools.pairwise(xs))
    image = decoded(vp_chart(series, NAMES, "en"))
    for p in range(4):  # every line shows (none is hidden under the last one drawn)
        assert count_near(image, theme.player_rgb(p), 20) > 200, p


def test_names_at_the_same_final_vp_do_not_overlap(drawn: list[DrawnText]) -> None:
    series = [[3, 5], [2, 5], [4, 5], [1, 5]]
    heights = charts._label_heights([100.0] * 4, 26, 50, 500)
    assert heights == [100, 126, 152, 178]
    assert charts._label_heights([490.0, 495.0], 26, 50, 500) == [474, 500]
    image = decoded(vp_chart(series, NAMES, "en"))
    assert image.size == SIZE
    assert sum(1 for d in drawn if d.text in NAMES) == 4


# ---- the rating ---------------------------------------------------------------------------


def test_a_single_rating_is_one_provisional_point() -> None:
    (mark,) = rating_marks([1000])
    assert mark.provisional and mark.index == 1
    image = decoded(rating_chart([1000], "Anna", "en"))
    centre = pixel(image, (round(mark.x), round(mark.y)))
    assert near(centre, charts.FRAME, 12)  # hollow
    ring = _pixels_near(image, mark, charts.PROVISIONAL)
    assert len(ring) > 20
    assert count_near(image, charts.RATING, 20) < 30  # nothing settled yet


def test_two_ratings_are_two_points() -> None:
    marks = rating_marks([1000, 1012])
    assert [m.index for m in marks] == [1, 2]
    assert marks[0].y > marks[1].y  # higher rating, higher up


def test_provisional_games_are_muted_and_the_settled_ones_gold() -> None:
    points = ratings(10)
    marks = rating_marks(points, provisional_until=5)
    assert [m.provisional for m in marks] == [True] * 4 + [False] * 6
    image = decoded(rating_chart(points, "Anna", "en", provisional_until=5))
    for m in marks:
        centre = pixel(image, (round(m.x), round(m.y)))
        if m.provisional:
            assert near(centre, charts.FRAME, 12), m
        else:
            assert near(centre, charts.RATING, 30), m


def test_500_ratings_thin_the_markers_and_the_labels(drawn: list[DrawnText]) -> None:
    points = ratings(500)
    marks = rating_marks(points)
    assert 20 <= len(marks) < 500
    assert marks[-1].index == 500 and marks[0].index == 1
    xs = [m.x for m in marks]
    assert all(b - a >= charts.MARKER_GAP for a, b in itertools.pairwise(xs))
    decoded(rating_chart(points, "Anna", "en"))
    ticks = [d.text for d in drawn if d.size == charts.TICK_SIZE and d.text.isdigit()]
    assert "500" in ticks and len(ticks) < 30
    assert str(points[-1]) in {d.text for d in drawn if d.size == charts.VALUE_SIZE}


# ---- alt texts ----------------------------------------------------------------------------


def test_vp_alt_text_says_every_value_of_a_short_game() -> None:
    said = vp_chart_text([[0, 2, 5], [1, 1, 4]], ["Anna", "Bruno"], "en")
    assert said == (
        "Chart of victory points by round (3 rounds). Anna: 0, 2, final 5. Bruno: 1, 1, final 4."
    )
    assert vp_chart_text([[3], [2]], ["Anna", "Bruno 🚀"], "en") == (
        "Chart of victory points by round (1 round). Anna: final 3. Bruno: final 2."
    )


def _no_emoji(words: str) -> bool:
    return not any(unicodedata.category(ch) in ("So", "Cs") for ch in words)


@pytest.mark.parametrize("locale", LOCALES)
def test_vp_alt_text_of_4_long_names_in_a_long_game_fits_discords_limit(locale: str) -> None:
    rng = random.Random(7)
    series = [[0] for _ in range(4)]
    for _ in range(79):  # 80 rounds
        for line in series:
            line.append(max(0, line[-1] + rng.choice((-1, 0, 1, 1, 2))))
    names = [f"{n} 🚀" for n in LONG_NAMES]
    said = vp_chart_text(series, names, locale)
    assert len(said) <= ALT_LIMIT
    assert " … " in said  # the middle rounds are left out
    assert _no_emoji(said)
    for name, line in zip(LONG_NAMES, series, strict=True):
        assert name in said
        sentence = said.split(name + ": ", 1)[1].split(". ", 1)[0].rstrip(".")
        assert sentence.startswith(", ".join(str(v) for v in line[:3]))  # the first rounds
        assert sentence.endswith(f" {line[-1]}")  # and the final VP
    # Only whole words: each is one of the text saying every round.
    every = [text("chart.vp.alt", locale, {"rounds": 80})] + [
        text(
            "chart.vp.alt.player",
            locale,
            {"name": n, "values": ", ".join(str(v) for v in line[:-1]), "vp": line[-1]},
        )
        for n, line in zip(LONG_NAMES, series, strict=True)
    ]
    words = {w.strip(",.") for w in " ".join(every).split()}
    assert {w.strip(",.") for w in said.split()} - {"…"} <= words


@pytest.mark.parametrize("locale", LOCALES)
def test_vp_alt_text_of_a_real_4_player_game_fits(locale: str) -> None:
    series = game_series(4, seed=0)
    said = vp_chart_text(series, LONG_NAMES, locale)
    assert len(said) <= ALT_LIMIT
    for name in LONG_NAMES:
        assert name in said


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("n", [1, 2, 500])
def test_rating_alt_text_fits_and_says_the_latest_rating(locale: str, n: int) -> None:
    points = ratings(n)
    said = rating_chart_text(points, LONG_NAMES[0] + " 🎲", locale)
    assert len(said) <= ALT_LIMIT and _no_emoji(said)
    assert LONG_NAMES[0] in said
    assert str(points[-1]) in said
    if n == 500:
        assert " … " in said
        assert str(max(points)) in said and str(min(points)) in said


def test_rating_alt_text_in_english() -> None:
    assert rating_chart_text([1000, 1010, 1004, 1020, 1031, 1025], "Anna", "en") == (
        "Rating of Anna over 6 rated games: 1000, 1010, 1004, 1020, 1031, 1025. "
        "Highest 1031, lowest 1000. The rating after the first 4 games is provisional."
    )
    assert rating_chart_text([1000], "Anna", "en") == (
        "Rating of Anna over 1 rated game: 1000. The rating after the first 1 game is provisional."
    )


def test_an_absurdly_long_name_is_cut_between_words() -> None:
    name = " ".join(["Ярослава"] * 200)
    said = rating_chart_text([1000, 1010], name, "en")
    assert len(said) <= ALT_LIMIT and said.endswith("Ярослава…")
