"""The AI levels' anchor ratings: AI-vs-AI games, one openskill rating fitted per level
and seat count; prints figures, asserts nothing.

    python -m tests.benchmarks.ai_anchors [--games 24] [--seed 1] [--jobs 2]
        [--players 2,3,4] [--budget-ms MS] [--save FILE] [--load FILE ...]

Why: the bot rates members with openskill's Plackett–Luce model, and an AI seat plays
with a FIXED rating per level and seat count (``bot/store/ai_anchors.py``), so that a
rating means the same on a small server as on a big one. Those fixed ratings are
measured here. Per seat count, because the levels are much further apart with two seats
than with four: one rating per level would overrate beating the easy AI at two seats
(and underrate it at four).

The games. ``--games N`` games for each seat count (2, 3 and 4 seats), in cycles that put
every level against every other with the seat order rotated: 2 seats, each pair of
levels (easy:normal, easy:hard, normal:hard) in both seats; 3 seats, the three levels in
both orders round the table (easy, normal, hard and easy, hard, normal), each rotated
through the three seats; 4 seats, the three levels plus one of them again (each level
doubled once), rotated through the four seats. That is 6, 6 and 12 games a cycle; a
multiple of twice the longest cycle (24) keeps both halves of the games whole cycles.
All the games of a cycle share their dice (common random numbers: the same chance
outcomes while the games agree, the same first seat), so a rotation changes who sits
where and nothing else; every game is determined by ``--seed`` and its number. The
levels are ``engine.ai.make_ai`` players; the hard level searches a fixed number of
states per turn (``budget_ms=None``: what ``ai_tournament.py`` plays, and what the bot
plays unless ``AI_BUDGET_MS`` is set), so its strength is the same however busy the
machine is. ``--budget-ms`` measures it with a time cap per turn instead (a strength
that depends on the machine).

The ranks. A game's order is the engine's outcome (``engine.scoring.outcome``) carried
down the whole table: VP, then the tie-break order (alien tech cards, ore, fuel); seats
equal on all four share a rank. The seats ranked first are checked to be the
outcome's winners.

The fit, and why it is a maximum of openskill's own likelihood. openskill's
Plackett–Luce update (Weng & Lin 2011, algorithm 4) moves a seat's mu by sigma² times
the gradient, in mu, of the log-likelihood of the observed order
``sum over q of (theta_q - log sum over s ranked at or below q of exp(theta_s))``
with ``theta = mu / c`` and ``c = sqrt(sum over the seats of (sigma² + tau² + beta²))``;
the bot rates a game with shared ranks as the mean of the strict orders they allow
(``bot.store.ratings.updated``), so such a game's likelihood here is the mean of theirs.
So the ratings that the bot's updates leave where they are, on average over the games,
are the maximum of that likelihood
summed over the games: that is what ``fit_ratings`` computes, directly (Newton's method:
the likelihood is concave in the mu's), with one mu per level shared by all its seats,
each seat's sigma that level's anchor sigma (as the bot will rate them) and the model's
beta and tau, so ``c`` is what openskill computes for these seats. Repeated passes of
openskill's own updates over shuffled games would wander round the same point with a
step size that depends on the order and on how sigma shrinks; the direct fit has
neither. Only differences of mu are measured, so the normal level is held at mu = 25,
openskill's default: a newcomer starts as strong as the normal AI until their games
show otherwise. Every other level gets a newcomer's prior (mu 25, sigma 25/3, openskill's
own), which keeps the fit finite when a level wins every game (a pure maximum would be
infinite); against hundreds of games it moves the fit by hundredths. The check printed
last is openskill's own ``rate`` (ties averaged as the bot does) at the anchors of each
seat count, over its games: it should move no level.

The sigma of a level is the uncertainty of the fit (the Laplace approximation: the
inverse of the curvature of the log-posterior) of its mu relative to the normal level's
(0 for normal itself: it is the scale's origin), never below 1.0 (an AI seat's sigma only
sets how much an opponent's update trusts the seat's mu; a seat with almost no
uncertainty still gives an ordinary openskill update, while a sigma near 0 would claim
an exactness no number of AI games gives to how a member plays against it) and never
above 25/3 (a newcomer's). As ``c`` depends on the anchors' sigma, the fit is repeated
until the sigma it gives is the sigma it used.

Printed: the games played per seat count (with the mean game length); the win rates of
each level against each other (the share of the meetings of two seats in a game that
the row's level finished ahead, a shared rank counting half) per seat count and in all,
and how often each level came first; the fitted mu and sigma per level over all the
games, then per seat count, and the anchors per seat count (normal at 25; what
``bot/store/ai_anchors.py`` holds); per seat count, the anchors fitted on each half of
the games (for each seed, the first and the second half of the game numbers) and how
far they moved; and the openskill check. ``--save FILE`` writes every game's result (JSON lines) and
``--load FILE ...`` fits saved results again (several runs pooled) without playing.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from openskill.models import PlackettLuce

from bot.store.ratings import strict_orders
from engine import CHANCE, GameConfig, GameState, apply_in_place, new_game, outcome, sample_chance
from engine.ai import LEVELS, Level, make_ai
from engine.ai.base import mix
from engine.scoring import places
from tests.benchmarks.progress import tqdm

MAX_ACTIONS = 20_000
REFERENCE = "normal"  # the level put at openskill's default mu
SIGMA_FLOOR = 1.0
SEAT_COUNTS = (2, 3, 4)
AI_LEVEL: dict[str, Level] = {lv: lv for lv in LEVELS}

# One game's result as the fit reads it: per seat, its level and its rank (0: first).
Placing = tuple[Sequence[str], Sequence[int]]


@dataclass(frozen=True)
class GameSpec:
    players: int
    seed: int
    index: int  # the game's number among those of its seat count
    levels: tuple[str, ...]  # per seat
    cycle: int  # the games of a cycle share their dice
    budget_ms: int | None = None


@dataclass(frozen=True)
class GameResult:
    players: int
    seed: int
    index: int
    levels: tuple[str, ...]
    ranks: tuple[int, ...]  # per seat, 0 for first; equal for seats sharing a place
    rounds: int
    finished: bool
    seconds: float  # CPU time of the game in its process

    @property
    def placing(self) -> Placing:
        return (self.levels, self.ranks)


def lineups(players: int, levels: Sequence[str]) -> list[tuple[str, ...]]:
    """The line-ups of a cycle before rotation: every level meets every other."""
    if players == 2:
        return list(combinations(levels, 2))
    out: list[tuple[str, ...]] = []
    for a, b, c in combinations(levels, 3):
        if players == 3:
            out += [(a, b, c), (a, c, b)]  # both orders round the table
        elif players == 4:
            out += [(a, b, c, x) for x in (a, b, c)]  # each level doubled once
        else:
            raise ValueError(f"2 to 4 seats, not {players}")
    return out


def schedule(
    players: int,
    games: int,
    seed: int,
    levels: Sequence[str] = LEVELS,
    budget_ms: int | None = None,
) -> list[GameSpec]:
    """``games`` games of ``players`` seats: the cycle's line-ups, each in every rotation."""
    cycle = [lineup[r:] + lineup[:r] for lineup in lineups(players, levels) for r in range(players)]
    return [
        GameSpec(players, seed, g, cycle[g % len(cycle)], g // len(cycle), budget_ms)
        for g in range(games)
    ]


def placings(s: GameState) -> tuple[int, ...]:
    """Per seat, its rank at the end (0: first): ``engine.scoring.places`` (VP, then the
    tie-break order of ``outcome``: cards, ore, fuel), checked against the winners."""
    o = outcome(s)
    if o is None:
        raise ValueError("the game is not over")
    ranks = tuple(place - 1 for place in places(s))
    firsts = tuple(p for p, r in enumerate(ranks) if r == 0)
    if firsts != o.winners:
        raise AssertionError(f"ranks {ranks} disagree with the outcome's winners {o.winners}")
    return ranks


def play(spec: GameSpec) -> GameResult:
    """One seeded AI-vs-AI game."""
    start = time.process_time()
    seeds = [mix(spec.seed, spec.players, spec.index, seat) for seat in range(spec.players)]
    seats = [
        make_ai(AI_LEVEL[level], seed=seed, budget_ms=spec.budget_ms)
        for level, seed in zip(spec.levels, seeds, strict=True)
    ]
    rng = random.Random(mix(spec.seed, spec.players, spec.cycle, 99))  # the cycle's dice
    s = new_game(GameConfig(players=spec.players))
    actions = 0
    while not s.over and actions < MAX_ACTIONS:
        seat = s.to_act()
        a = sample_chance(s, rng) if seat == CHANCE else seats[seat].choose(s)
        apply_in_place(s, a)
        actions += 1
    ranks = placings(s) if s.over else tuple(0 for _ in spec.levels)
    return GameResult(
        spec.players,
        spec.seed,
        spec.index,
        spec.levels,
        ranks,
        s.round,
        s.over,
        time.process_time() - start,
    )


# ---- the fit ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Fit:
    """One openskill rating per level. ``mu`` has the reference level at the model's
    default mu; ``spread`` is the fit's uncertainty of each level's mu
    relative to the reference's (0 for the reference); ``sigma`` is the anchor's sigma
    (``spread`` kept within [floor, the model's default sigma]), the one the fit used."""

    mu: dict[str, float]
    spread: dict[str, float]
    sigma: dict[str, float]
    games: int

    def anchors(self) -> dict[str, tuple[float, float]]:
        """Per level, ``(mu, sigma)`` rounded to 2 decimals, as ``bot/store/ai_anchors.py``."""
        return {lv: (round(self.mu[lv], 2), round(self.sigma[lv], 2)) for lv in self.mu}


def fit_ratings(
    games: Sequence[Placing],
    levels: Sequence[str] = LEVELS,
    reference: str = REFERENCE,
    model: PlackettLuce | None = None,
    floor: float = SIGMA_FLOOR,
    prior_sigma: float | None = None,
) -> Fit:
    """The openskill Plackett–Luce rating of each level that best explains ``games``
    (per game: each seat's level and rank, 0 first): the maximum of openskill's
    likelihood of the orders with openskill's prior on each level (``prior_sigma``, the
    model's sigma unless given), its sigma made consistent with the ``c`` it uses (see
    the module's docstring)."""
    model = model or PlackettLuce()
    index = {lv: i for i, lv in enumerate(levels)}
    if reference not in index:
        raise ValueError(f"the reference level {reference!r} is not among {list(levels)}")
    prior = model.sigma if prior_sigma is None else prior_sigma
    coded = [([index[lv] for lv in seat_levels], list(ranks)) for seat_levels, ranks in games]
    ref = index[reference]
    free = [i for i in range(len(levels)) if i != ref]
    sigma = [floor] * len(levels)
    spread = [0.0] * len(levels)
    x = [model.mu] * len(levels)  # the reference stays at the model's mu
    for _ in range(50):
        x = _maximum(coded, sigma, model, prior, free, x)
        hess = _derivatives(coded, sigma, model, prior, free, x)[2]
        cov = _inverse([[-h for h in row] for row in hess])
        spread = [0.0] * len(levels)
        for k, i in enumerate(free):
            spread[i] = math.sqrt(max(0.0, cov[k][k]))
        settled = [min(model.sigma, max(floor, sp)) for sp in spread]
        moved = max(abs(a - b) for a, b in zip(settled, sigma, strict=True))
        sigma = settled
        if moved < 1e-6:
            break
    return Fit(
        mu={lv: x[i] for lv, i in index.items()},
        spread={lv: spread[i] for lv, i in index.items()},
        sigma={lv: sigma[i] for lv, i in index.items()},
        games=len(games),
    )


def _game_terms(
    seat_levels: list[int],
    ranks: list[int],
    sigma: list[float],
    model: PlackettLuce,
    x: list[float],
) -> tuple[float, list[float], list[list[float]]]:
    """One game's log-likelihood and its gradient and Hessian in the levels' mu's: a game
    with shared ranks is the mean over the strict orders they allow (as the bot rates
    ties: ``bot.store.ratings.updated``)."""
    orders = list(strict_orders(ranks))
    k = len(sigma)
    ll = 0.0
    grad = [0.0] * k
    hess = [[0.0] * k for _ in range(k)]
    for order in orders:
        o_ll, o_grad, o_hess = _order_terms(seat_levels, order, sigma, model, x)
        ll += o_ll / len(orders)
        for i in range(k):
            grad[i] += o_grad[i] / len(orders)
            for j in range(k):
                hess[i][j] += o_hess[i][j] / len(orders)
    return ll, grad, hess


def _order_terms(
    seat_levels: list[int],
    ranks: list[int],
    sigma: list[float],
    model: PlackettLuce,
    x: list[float],
) -> tuple[float, list[float], list[list[float]]]:
    """The log-likelihood of one strict order, and its gradient and Hessian."""
    k = len(sigma)
    c = math.sqrt(sum(sigma[lv] ** 2 + model.tau**2 + model.beta**2 for lv in seat_levels))
    theta = [x[lv] / c for lv in seat_levels]
    n = len(theta)
    ll = 0.0
    g_theta = [0.0] * n
    h_theta = [[0.0] * n for _ in range(n)]
    for q in range(n):
        below = [s for s in range(n) if ranks[s] >= ranks[q]]
        top = max(theta[s] for s in below)
        e = {s: math.exp(theta[s] - top) for s in below}
        total = sum(e.values())
        ll += theta[q] - top - math.log(total)
        g_theta[q] += 1.0
        p = {s: e[s] / total for s in below}
        for s in below:
            g_theta[s] -= p[s]
            h_theta[s][s] -= p[s]
            for t in below:
                h_theta[s][t] += p[s] * p[t]
    grad = [0.0] * k
    hess = [[0.0] * k for _ in range(k)]
    for s in range(n):
        grad[seat_levels[s]] += g_theta[s] / c
        for t in range(n):
            hess[seat_levels[s]][seat_levels[t]] += h_theta[s][t] / (c * c)
    return ll, grad, hess


def _derivatives(
    games: list[tuple[list[int], list[int]]],
    sigma: list[float],
    model: PlackettLuce,
    prior: float,
    free: list[int],
    x: list[float],
) -> tuple[float, list[float], list[list[float]]]:
    """The log-posterior of the levels' mu's ``x``, and its gradient and Hessian in the
    free levels' mu's (the reference level's is held where it is)."""
    ll = 0.0
    grad = [0.0] * len(x)
    hess = [[0.0] * len(x) for _ in x]
    for seat_levels, ranks in games:
        g_ll, g_grad, g_hess = _game_terms(seat_levels, ranks, sigma, model, x)
        ll += g_ll
        for i, g in enumerate(g_grad):
            grad[i] += g
            for j, h in enumerate(g_hess[i]):
                hess[i][j] += h
    v = prior * prior
    ll -= sum((x[i] - model.mu) ** 2 for i in free) / (2 * v)
    return (
        ll,
        [grad[i] - (x[i] - model.mu) / v for i in free],
        [[hess[i][j] - (1.0 / v if i == j else 0.0) for j in free] for i in free],
    )


def _maximum(
    games: list[tuple[list[int], list[int]]],
    sigma: list[float],
    model: PlackettLuce,
    prior: float,
    free: list[int],
    start: list[float],
) -> list[float]:
    """Newton's method with step halving in the free levels' mu's (the log-posterior is
    strictly concave in them)."""
    x = list(start)
    ll, grad, hess = _derivatives(games, sigma, model, prior, free, x)
    for _ in range(100):
        step = _solve([[-h for h in row] for row in hess], grad)
        t = 1.0
        while True:
            trial = list(x)
            for k, i in enumerate(free):
                trial[i] += t * step[k]
            t_ll, t_grad, t_hess = _derivatives(games, sigma, model, prior, free, trial)
            if t_ll >= ll - 1e-12 or t < 1e-6:
                break
            t /= 2
        x, ll, grad, hess = trial, t_ll, t_grad, t_hess
        if max(abs(t * sk) for sk in step) < 1e-9:
            break
    return x


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a⁻¹ b`` by Gaussian elimination with partial pivoting (a is small)."""
    n = len(b)
    m = [[*row, bi] for row, bi in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [vr - f * vc for vr, vc in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    columns = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def openskill_drift(
    games: Sequence[Placing],
    anchors: Mapping[str, tuple[float, float]],
    model: PlackettLuce | None = None,
) -> dict[str, float]:
    """Per level, the mean change of mu that openskill's own ``rate`` gives its seats
    when every game is rated from the anchors (a game with shared ranks as the mean of
    its strict orders, as the bot rates it): near 0 for anchors that fit the games."""
    model = model or PlackettLuce()
    moved: dict[str, float] = {lv: 0.0 for lv in anchors}
    seats: dict[str, int] = {lv: 0 for lv in anchors}
    for seat_levels, ranks in games:
        teams = [[model.rating(*anchors[lv])] for lv in seat_levels]
        orders = list(strict_orders(ranks))
        for order in orders:
            rated = model.rate(teams, ranks=[float(r) for r in order])
            for lv, team, before in zip(seat_levels, rated, teams, strict=True):
                moved[lv] += (team[0].mu - before[0].mu) / len(orders)
        for lv in seat_levels:
            seats[lv] += 1
    return {lv: moved[lv] / seats[lv] if seats[lv] else 0.0 for lv in anchors}


# ---- the figures -----------------------------------------------------------------------


def win_rates(
    results: Sequence[GameResult], levels: Sequence[str]
) -> dict[tuple[str, str], tuple[float, int]]:
    """For each ordered pair of levels (A, B): the points A scored in the meetings of an
    A seat and a B seat in a game (1 for finishing ahead, 1/2 for a shared rank), and
    the number of meetings."""
    points: dict[tuple[str, str], float] = {}
    meetings: dict[tuple[str, str], int] = {}
    for r in results:
        for i, j in combinations(range(r.players), 2):
            a, b = r.levels[i], r.levels[j]
            if a == b:
                continue
            share = 1.0 if r.ranks[i] < r.ranks[j] else 0.5 if r.ranks[i] == r.ranks[j] else 0.0
            for key, got in (((a, b), share), ((b, a), 1.0 - share)):
                points[key] = points.get(key, 0.0) + got
                meetings[key] = meetings.get(key, 0) + 1
    return {key: (points[key], meetings[key]) for key in meetings}


def print_win_rates(title: str, results: Sequence[GameResult], levels: Sequence[str]) -> None:
    rates = win_rates(results, levels)
    print(f"  {title}: row level ahead of column level (meetings)")
    print("    " + " " * 8 + "".join(f"{lv:>16}" for lv in levels))
    for a in levels:
        cells = []
        for b in levels:
            if (a, b) in rates:
                p, n = rates[(a, b)]
                cells.append(f"{100 * p / n:7.1f} % ({n:4d})")
            else:
                cells.append(f"{'-':>16}")
        print(f"    {a:<8}" + "".join(f"{c:>16}" for c in cells))


def print_firsts(results: Sequence[GameResult], levels: Sequence[str]) -> None:
    """How often a seat of each level came first (a shared first place counts its share)."""
    for players in sorted({r.players for r in results}):
        games = [r for r in results if r.players == players]
        parts = []
        for lv in levels:
            seats = sum(r.levels.count(lv) for r in games)
            won = sum(
                1.0 / r.ranks.count(0)
                for r in games
                for seat, level in enumerate(r.levels)
                if level == lv and r.ranks[seat] == 0
            )
            if seats:
                parts.append(f"{lv} {100 * won / seats:.1f} % of {seats} seats")
        print(
            f"  {players} seats, first place: {', '.join(parts)}"
            f" (equal play: {100 / players:.1f} %)"
        )


def print_fit(title: str, fit: Fit, levels: Sequence[str]) -> None:
    print(f"{title} ({fit.games} games):")
    for lv in levels:
        print(
            f"  {lv:<8} mu {fit.mu[lv]:6.2f}  sigma {fit.sigma[lv]:4.2f}"
            f"  (uncertainty of the fit relative to {REFERENCE}: {fit.spread[lv]:.2f})"
        )


def halves(results: Sequence[GameResult]) -> tuple[list[GameResult], list[GameResult]]:
    """For each seed and seat count, the games of the first and of the second half of
    the game numbers."""
    first: list[GameResult] = []
    second: list[GameResult] = []
    groups: dict[tuple[int, int], list[GameResult]] = {}
    for r in results:
        groups.setdefault((r.seed, r.players), []).append(r)
    for group in groups.values():
        group.sort(key=lambda r: r.index)
        cut = (max(r.index for r in group) + 1) // 2
        first += [r for r in group if r.index < cut]
        second += [r for r in group if r.index >= cut]
    return first, second


def report(results: Sequence[GameResult], levels: Sequence[str]) -> None:
    done = [r for r in results if r.finished]
    print("games played:")
    for players in sorted({r.players for r in results}):
        mine = [r for r in done if r.players == players]
        rounds = sum(r.rounds for r in mine) / len(mine) if mine else float("nan")
        seeds = sorted({r.seed for r in mine})
        print(
            f"  {players} seats: {len(mine)} games (seeds {', '.join(map(str, seeds))}),"
            f" {rounds:.1f} rounds on average"
        )
    if len(done) < len(results):
        print(f"  {len(results) - len(done)} games stopped unfinished after {MAX_ACTIONS} actions")
    print("win rates:")
    for players in sorted({r.players for r in done}):
        print_win_rates(f"{players} seats", [r for r in done if r.players == players], levels)
    print_win_rates("all seat counts", done, levels)
    print_firsts(done, levels)
    fit = fit_ratings([r.placing for r in done], levels)
    print_fit("fitted ratings over all seat counts, normal at openskill's default mu", fit, levels)
    per_seats = {
        players: fit_ratings([r.placing for r in done if r.players == players], levels)
        for players in sorted({r.players for r in done})
    }
    for players, alone in per_seats.items():
        print_fit(f"fitted ratings at {players} seats", alone, levels)
    print("anchors per seat count (bot/store/ai_anchors.py):")
    for players, alone in per_seats.items():
        cells = ", ".join(
            f"{lv!r}: ({mu:.2f}, {sigma:.2f})" for lv, (mu, sigma) in alone.anchors().items()
        )
        print(f"  {players}: {{{cells}}},")
    for players in per_seats:
        a, b = halves([r for r in done if r.players == players])
        if not (a and b):
            continue
        fit_a = fit_ratings([r.placing for r in a], levels)
        fit_b = fit_ratings([r.placing for r in b], levels)
        print(f"stability at {players} seats: the fit on each half of the games")
        for lv in levels:
            print(
                f"  {lv:<8} first half mu {fit_a.mu[lv]:6.2f} ({fit_a.games} games),"
                f" second half {fit_b.mu[lv]:6.2f} ({fit_b.games} games),"
                f" moved {fit_b.mu[lv] - fit_a.mu[lv]:+.2f}"
            )
    print("check: openskill's own rate() at the anchors, mean change of mu per seat:")
    for players, alone in per_seats.items():
        placings = [r.placing for r in done if r.players == players]
        drift = openskill_drift(placings, alone.anchors())
        print(f"  {players} seats: " + ", ".join(f"{lv} {d:+.4f}" for lv, d in drift.items()))


def load(paths: Sequence[Path]) -> list[GameResult]:
    out: list[GameResult] = []
    for path in paths:
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                row["levels"] = tuple(row["levels"])
                row["ranks"] = tuple(row["ranks"])
                out.append(GameResult(**row))
    return out


def run(specs: list[GameSpec], jobs: int) -> Iterator[GameResult]:
    bar = tqdm(total=len(specs), unit="game", mininterval=1.0 if sys.stderr.isatty() else 30.0)
    try:
        if jobs > 1:
            # The longest games (most hard seats) first, so no process is left alone at the end.
            specs = sorted(specs, key=lambda s: (-s.levels.count("hard"), -s.players))
            with Pool(jobs) as pool:
                for result in pool.imap_unordered(play, specs, chunksize=1):
                    bar.update()
                    yield result
        else:
            for spec in specs:
                result = play(spec)
                bar.update()
                yield result
    finally:
        bar.close()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--games", type=int, default=24, help="games per seat count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--players", default=",".join(map(str, SEAT_COUNTS)))
    ap.add_argument(
        "--budget-ms", type=int, default=None, help="a time cap per hard turn (default: none)"
    )
    ap.add_argument("--save", type=Path, help="write every game's result (JSON lines)")
    ap.add_argument("--load", type=Path, nargs="+", help="fit saved results, play nothing")
    args = ap.parse_args(argv)
    levels = list(LEVELS)
    if args.load:
        results = load(args.load)
        print(f"{len(results)} games from {', '.join(map(str, args.load))}")
    else:
        specs = [
            spec
            for players in (int(x) for x in args.players.split(","))
            for spec in schedule(players, args.games, args.seed, levels, args.budget_ms)
        ]
        hard = "fixed node budget" if args.budget_ms is None else f"{args.budget_ms} ms a turn"
        print(
            f"seed {args.seed}, {args.games} games per seat count, {args.jobs} processes;"
            f" hard level: {hard}",
            flush=True,
        )
        start = time.perf_counter()
        results = []
        out = args.save.open("w") if args.save else None
        try:
            for result in run(specs, args.jobs):
                results.append(result)
                if out:
                    out.write(json.dumps(asdict(result)) + "\n")
                    out.flush()
        finally:
            if out:
                out.close()
        cpu = sum(r.seconds for r in results)
        print(f"wall time {time.perf_counter() - start:.0f} s, CPU time of the games {cpu:.0f} s")
    report(results, levels)


if __name__ == "__main__":
    main()
