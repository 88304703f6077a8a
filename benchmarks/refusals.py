"""Do refusals say why? Plausible illegal steps drawn from random positions, and the
reason each one is refused, per game.

Usage::

    python benchmarks/refusals.py [--games ur,civsets,flood,mesopotamia] [--count 1000]
        [--seeds 30] [--seed 1] [--players N] [--option name=value ...] [--json FILE]

No Discord: for each game, random legal playouts (``--seeds`` of them, a typical table:
ur 3, civsets 4, flood 3, mesopotamia 3 seats, or ``--players``; the games' options, or
those ``--option`` names) give positions and the game's own steps.
The verbs are the first words of the legal notations met, and every notation met is
kept with its verb. Then ``--count`` illegal steps are drawn, at random positions:

* ``wrong_target``: a verb the deciding seat may use now, with the words of that verb
  met in another position;
* ``wrong_moment``: a whole step met in another position, of a verb not allowed now;
* ``random_target``: any verb with the words of another verb's step;
* ``wrong_seat``: a step legal now for a deciding seat, typed by a seat not deciding.

Only illegal steps are kept (not a legal notation of that seat, and refused). Each goes
the way a typed ``/play`` step goes (``bot/service/turns.py``, ``play_by_id``): a seat
not deciding is told whose decision it is (``service.not_your_turn``), else
``bot.notation.parse_typed`` then ``engine.apply``, whose ``GameError`` carries the
reason. The step is typed in English (canonical notation) for the English reason, and
in French words (``bot.notation.localized``) for the French one.

**Generic refusals**, operationally: a refusal is generic when its key's English text
either holds a catch-all phrase (:data:`CATCH_ALL`, "not possible now": the sentence is
the same whatever the rule), or has no argument besides the echo of the typed step and
was given, in this sample, to steps of at least :data:`SHARED_VERBS` different verbs
(the same sentence for very different steps, naming neither their target nor a rule
of theirs). The target is 0.

Also counted: French texts equal to the English one, holding English words besides
the echoed step, or whose key is missing from the French catalogue (untranslated); texts
with an unfilled ``{placeholder}``; French texts that quote the step in its canonical
English words although the player typed French words (``guerre A4`` refused as
« war A4 »).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.wording import OTHER_LANGUAGE, PLACEHOLDER
from bot.engine import Game, GameError, Seat, State, Text
from bot.i18n import catalogue, translate
from bot.notation import localized, parse_typed
from host import registry

GAMES = ("ur", "civsets", "flood", "mesopotamia")
SEATS = {"ur": 3, "civsets": 4, "flood": 3, "mesopotamia": 3}
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
KINDS = {"wrong_target": 0.35, "wrong_moment": 0.3, "random_target": 0.2, "wrong_seat": 0.15}
"""The kinds of illegal steps drawn, and their shares."""
CATCH_ALL = ("not possible now",)
"""Phrases of an English refusal that say nothing of the rule."""
SHARED_VERBS = 3
MAX_PLAYOUT = 600
"""Steps of one random playout at most (random Mesopotamia games last thousands)."""
POSITIONS_PER_PLAYOUT = 20


@dataclass
class Position:
    """A state met in a playout, and the legal notations of each deciding seat."""

    state: State
    legal: dict[Seat, list[str]]


@dataclass
class Refusal:
    """One illegal step and why it was refused."""

    kind: str
    seat: Seat
    typed: str
    key: str
    en: str
    fr: str
    fr_key: str
    typed_fr: str
    """The step in French words (as typed for the French reason)."""
    echo_only: bool
    """The reason has no argument besides the echo of the typed step."""

    @property
    def verb(self) -> str:
        return self.typed.split()[0]


@dataclass
class Pool:
    """What the playouts of a game met."""

    positions: list[Position] = field(default_factory=list)
    steps: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    """Every legal notation met, by verb."""


def playouts(engine: Game, seats: int, seeds: range, rng: random.Random,
             options: dict[str, str]) -> Pool:
    """Random legal playouts from each seed; positions picked at random along each."""
    pool = Pool()
    for seed in seeds:
        state = engine.setup(seed, seats, options)
        met = []
        for _ in range(MAX_PLAYOUT):
            active = engine.active(state)
            if not active:
                break
            legal = {seat: [a.notation for a in engine.legal(state, seat)] for seat in active}
            for notations in legal.values():
                for notation in notations:
                    pool.steps[notation.split()[0]].add(notation)
            met.append(Position(state, legal))
            seat = rng.choice(active)
            state = engine.apply(state, seat, rng.choice(legal[seat]))
        pool.positions += rng.sample(met, min(POSITIONS_PER_PLAYOUT, len(met)))
    return pool


def draw(pool: Pool, seats: int, rng: random.Random) -> tuple[str, Position, Seat, str] | None:
    """A plausible illegal step: (kind, position, seat, notation), or None this time."""
    kind = rng.choices(list(KINDS), weights=list(KINDS.values()))[0]
    position = rng.choice(pool.positions)
    deciding = list(position.legal)
    seat = rng.choice(deciding)
    legal = position.legal[seat]
    verbs = sorted(pool.steps)
    now = sorted({n.split()[0] for n in legal})
    if kind == "wrong_target":
        verb = rng.choice(now)
        notation = rng.choice(sorted(pool.steps[verb]))
    elif kind == "wrong_moment":
        others = [v for v in verbs if v not in now]
        if not others:
            return None
        notation = rng.choice(sorted(pool.steps[rng.choice(others)]))
    elif kind == "random_target":
        verb, other = rng.choice(verbs), rng.choice(verbs)
        words = rng.choice(sorted(pool.steps[other])).split()[1:]
        if verb == other or not words:
            return None
        notation = " ".join([verb, *words])
    else:
        idle = [s for s in range(seats) if s not in deciding]
        if not idle or not legal:
            return None
        seat, notation = rng.choice(idle), rng.choice(legal)
    if seat in position.legal and notation in position.legal[seat]:
        return None
    return kind, position, seat, notation


def reason(engine: Game, state: State, seat: Seat, typed: str, lang: str) -> Text | None:
    """Why the service refuses ``typed`` by ``seat`` (see the module docstring), or None
    when it would play it."""
    active = engine.active(state)
    if seat not in active:
        return Text.of("service.not_your_turn", players=", ".join(NAMES[s] for s in active))
    try:
        engine.apply(state, seat, parse_typed(engine, state, seat, typed, lang))
    except GameError as error:
        return error.reason
    return None


def echo_only(text: Text, typed: str) -> bool:
    """Whether ``text`` has no argument besides the echo of ``typed``."""
    return all(isinstance(value, str) and value.strip().lower() == typed.strip().lower()
               for _, value in text.args)


def refusals(game: str, count: int, seeds: int, seed: int, players: int | None = None,
             options: dict[str, str] | None = None) -> list[Refusal]:
    """``count`` illegal steps of ``game`` (``players`` seats, default :data:`SEATS`; with
    ``options``) and their reasons."""
    engine = registry.get(game).engine
    rng = random.Random(f"{seed}:{game}")
    seats = players or SEATS[game]
    pool = playouts(engine, seats, range(seed, seed + seeds), rng, options or {})
    names = NAMES[:seats]
    found: list[Refusal] = []
    for _ in range(count * 50):
        if len(found) == count:
            break
        drawn = draw(pool, seats, rng)
        if drawn is None:
            continue
        kind, position, seat, notation = drawn
        english = reason(engine, position.state, seat, notation, "en")
        if english is None:
            continue
        french_typed = localized(game, notation, "fr")
        french = reason(engine, position.state, seat, french_typed, "fr") or english
        found.append(Refusal(
            kind, seat, notation, english.key, translate(english, "en", names),
            translate(french, "fr", names), french.key, french_typed,
            echo_only(english, notation)))
    return found


def generic_keys(found: Sequence[Refusal]) -> dict[str, str]:
    """The generic keys among ``found`` and why (see the module docstring)."""
    verbs: dict[str, set[str]] = defaultdict(set)
    bare: defaultdict[str, bool] = defaultdict(lambda: True)
    for refusal in found:
        verbs[refusal.key].add(refusal.verb)
        bare[refusal.key] &= refusal.echo_only
    generic = {}
    english = catalogue("en")
    for key in verbs:
        template = str(english.get(key, ""))
        if any(phrase in template for phrase in CATCH_ALL):
            generic[key] = "catch-all phrase"
        elif bare[key] and len(verbs[key]) >= SHARED_VERBS:
            generic[key] = f"no argument, {len(verbs[key])} verbs"
    return generic


def untranslated(refusal: Refusal) -> bool:
    """Whether the French text is not French (see the module docstring)."""
    without_echo = refusal.fr.replace(refusal.typed_fr, "").replace(refusal.typed, "")
    return (refusal.fr == refusal.en or refusal.fr_key not in catalogue("fr")
            or bool(OTHER_LANGUAGE["fr"].search(without_echo)))


def echoes_canonical(refusal: Refusal) -> bool:
    """Whether the French text quotes the step in canonical (English) words although the
    player typed it in French words."""
    return refusal.typed_fr != refusal.typed and refusal.typed in refusal.fr \
        and refusal.typed_fr not in refusal.fr


def figures(game: str, found: Sequence[Refusal]) -> dict[str, Any]:
    """The figures of one game."""
    generic = generic_keys(found)
    by_key = Counter(r.key for r in found)
    keys = []
    for key, n in by_key.most_common():
        example = next(r for r in found if r.key == key)
        keys.append({"key": key, "count": n, "generic": generic.get(key, ""),
                     "verbs": sorted({r.verb for r in found if r.key == key}),
                     "kinds": dict(Counter(r.kind for r in found if r.key == key)),
                     "example": example.typed, "en": example.en, "fr": example.fr})
    return {
        "game": game, "drawn": len(found), "keys": len(by_key),
        "generic": sum(n for key, n in by_key.items() if key in generic),
        "kinds": dict(Counter(r.kind for r in found)),
        "untranslated": sum(untranslated(r) for r in found),
        "placeholders": sum(bool(PLACEHOLDER.search(r.en + r.fr)) for r in found),
        "french_key_differs": sum(r.fr_key != r.key for r in found),
        "echoes_canonical": sum(echoes_canonical(r) for r in found),
        "by_key": keys,
    }


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None,
                        help="seats at every table (default: a typical table per game)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option of the tables (repeatable)")
    parser.add_argument("--json", default="")
    opts = parser.parse_args(argv)
    if bad := [item for item in opts.option if "=" not in item]:
        parser.error(f"--option takes name=value, not {', '.join(bad)}")
    options = dict(item.split("=", 1) for item in opts.option)
    results = []
    for game in opts.games.split(","):
        fig = figures(game, refusals(game, opts.count, opts.seeds, opts.seed, opts.players,
                                     options))
        results.append(fig)
        print(f"\n== {game}: {fig['drawn']} refusals, {fig['keys']} keys, generic "
              f"{fig['generic']}, untranslated {fig['untranslated']}, unfilled placeholders "
              f"{fig['placeholders']}, French quoting English words {fig['echoes_canonical']}"
              f" (kinds {fig['kinds']})")
        for item in fig["by_key"]:
            print(f"  {item['count']:>5}  {item['key']}"
                  f"{'  GENERIC (' + item['generic'] + ')' if item['generic'] else ''}"
                  f"  verbs {','.join(item['verbs'])}\n"
                  f"         `{item['example']}`  en: {item['en']}\n"
                  f"{'':9}{'':{len(item['example']) + 2}}  fr: {item['fr']}")
    print(f"\n{'game':<12} {'drawn':>6} {'keys':>5} {'generic':>8} {'untransl.':>9}"
          f" {'{..}':>5}")
    for fig in results:
        print(f"{fig['game']:<12} {fig['drawn']:>6} {fig['keys']:>5} {fig['generic']:>8}"
              f" {fig['untranslated']:>9} {fig['placeholders']:>5}")
    if opts.json:
        Path(opts.json).write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return results


if __name__ == "__main__":
    main()
