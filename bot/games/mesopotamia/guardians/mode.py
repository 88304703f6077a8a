"""« MODE GARDIENS D'ASSUR » inside the engine's state: the setup, the waves, the enemy's turn
and the end of the game (R-guard-*).

``state["guardians"]`` holds ``seat`` (the enemy's), ``wave`` (the wave under way, 1-6),
``result`` (``won`` or ``lost`` once the game is over) and ``news`` (what the enemy did in the
last step, ``[key, args]`` records for :mod:`.news`). The enemy is a player record with role
B, no empire and its Ziggurat region as its start region; its phalanxes are its ``res``.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Seat
from bot.games import content
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia.guardians import routes
from bot.games.mesopotamia.state import MesopotamiaState, units_of

DATA: dict[str, Any] = content.load("mesopotamia", "guardians")
WAVES: tuple[dict[str, int], ...] = tuple(
    {k: int(w[k]) for k in DATA["kinds"]} for w in DATA["waves"])
"""The wave table: per wave (from 1), how many units of each kind the enemy produces."""
HOME: str = DATA["you"]["ziggurat"]
"""Your Ziggurat's region (R-guard-places)."""
LAIR: str = DATA["enemy"]["ziggurat"]
"""The enemy's Ziggurat's region, where its units start (R-guard-places)."""
EVENT_CASE = int(DATA["enemy"]["event_case"])
QUESTS_DEALT = int(DATA["quests"]["dealt"])
QUESTS_KEPT = int(DATA["quests"]["kept"])
BASE_PHALANXES = int(DATA["phalanxes"]["base"])
MODE = "guardians"


def on(state: MesopotamiaState) -> bool:
    """True in a game of the Guardians of Assur."""
    return "guardians" in state


def plays(state: MesopotamiaState, seat: Seat) -> bool:
    """True when ``seat`` is the Guardians' enemy."""
    box = state.get("guardians")
    return box is not None and int(box["seat"]) == seat


def you(state: MesopotamiaState) -> Seat:
    """The seat of the player (the enemy's is the other)."""
    return 1 - int(state["guardians"]["seat"])


def prepare(state: MesopotamiaState) -> None:
    """The setup of a new two-seat state: your role A and Ziggurat, the enemy's role B and
    Ziggurat; you then choose your empire (« Choisissez votre Empire »)."""
    if state["n"] != 2:
        raise ValueError("the Guardians of Assur is one player against the enemy's seat")
    state["guardians"] = {"seat": 1, "wave": 0, "result": None, "news": []}
    mine, enemy = state["players"]
    mine["role"], mine["start"] = DATA["you"]["role"], HOME
    enemy["role"], enemy["start"] = DATA["enemy"]["role"], LAIR
    state["phase"], state["current"] = "empires", 0


def establish(state: MesopotamiaState) -> None:
    """Once your empire is set up: the enemy's seal on the Event track only (« où il commence à
    la case », R-guard-places), and its first wave."""
    seals = [*state["seals"]["event"], [int(state["guardians"]["seat"]), EVENT_CASE]]
    state["seals"]["event"] = sorted(seals, key=lambda s: -int(s[1]))
    launch(state)


def launch(state: MesopotamiaState) -> None:
    """« Au début de chaque vague, l'ennemi gagne (2 + numéro de la vague) Phalanges », and
    produces the units of the wave table in its Ziggurat's region."""
    box = state["guardians"]
    box["wave"] = wave = int(box["wave"]) + 1
    seat = int(box["seat"])
    gained = BASE_PHALANXES + wave
    state["players"][seat]["res"]["phalanx"] += gained
    for kind, count in WAVES[wave - 1].items():
        state["units"] += [[seat, kind, LAIR] for _ in range(count)]
    box["news"].append(["wave", {"n": wave, "phalanxes": gained}])


def wave_over(state: MesopotamiaState) -> bool:
    """« Quand l'ennemi n'a plus de Phalanges ou que toutes ses Unités sont détruites »: its
    fighting units (a Ram alone cannot move nor fight, R-guard-ram)."""
    seat = int(state["guardians"]["seat"])
    fighting = [u for u in units_of(state, seat) if u[1] in D.LAND]
    return not fighting or state["players"][seat]["res"]["phalanx"] <= 0


def end_of_round(state: MesopotamiaState) -> bool:
    """After the combats: the defeat when an enemy unit holds your Ziggurat's region
    (R-guard-defeat); else a wave repelled gives you the next Hanging Gardens tile and launches
    the next one; the sixth repelled wins (R-guard-waves). True when the game is over."""
    box = state["guardians"]
    if overrun(state):
        _finish(state, "lost")
        return True
    if not wave_over(state):
        return False
    if int(box["wave"]) >= len(WAVES):
        _finish(state, "won")
        return True
    _reward(state)
    launch(state)
    return False


def _reward(state: MesopotamiaState) -> None:
    """« Chaque fois que vous repoussez une vague, récupérez la tuile Jardins suspendus
    suivante » (free: R-guard-gardens)."""
    player = state["players"][you(state)]
    built = len(player.get("gardens", []))
    box = state["guardians"]
    if built >= len(state["gardens"]):
        return
    tile = str(state["gardens"][built][0])
    state["gardens"][built][1] = True
    player.setdefault("gardens", []).append(tile)
    if built + 1 < len(state["gardens"]):
        state["gardens"][built + 1][1] = True
    box["news"].append(["repelled", {"n": int(box["wave"]), "tile": tile}])


def _finish(state: MesopotamiaState, result: str) -> None:
    state["guardians"]["result"] = result
    state["guardians"]["news"].append([result, {"n": int(state["guardians"]["wave"])}])
    state["phase"], state["current"], state["t"] = "over", None, None


def ground(state: MesopotamiaState) -> routes.Ground:
    """What the enemy's march avoids or seeks now."""
    mine = you(state)
    running = frozenset(r["region"] for r in state.get("running", []) if r["seat"] == mine)
    return routes.Ground(frozenset(state["blockers"]),
                         frozenset(r for r, t in state["tribes"].items() if t),
                         frozenset(state["players"][mine]["ramparts"]), running,
                         bool(units_of(state, int(state["guardians"]["seat"]), "ram")))


def march(state: MesopotamiaState) -> None:
    """The enemy's turn: every unit one region towards your Ziggurat (« d'une région par
    Manche »), a Ram bound to a unit of its region that follows it (R-guard-ram); then the
    defeat when one entered your Ziggurat's region with none of your units there."""
    seat = int(state["guardians"]["seat"])
    moved: set[int] = set()
    ram_first = sorted(range(len(state["units"])),
                       key=lambda i: (state["units"][i][1] != "ram", i))
    for i in ram_first:
        unit = state["units"][i]
        if i in moved or unit[0] != seat or (unit[1] not in D.LAND and unit[1] != "ram"):
            continue
        to = routes.step(str(unit[1]), str(unit[2]), HOME, ground(state))
        if to is None:
            continue
        if unit[1] == "ram":
            partner = _partner(state, seat, str(unit[2]), moved)
            if partner is None:
                continue
            moved.add(partner)
            _enter(state, partner, to)
        moved.add(i)
        _enter(state, i, to)
    if overrun(state):
        _finish(state, "lost")


def overrun(state: MesopotamiaState) -> bool:
    """« Vous perdez si au moins une Unité ennemie entre dans la région de votre Ziggurat et
    que vous n'avez aucune Unité en défense. » (R-guard-defeat)."""
    seat, mine = int(state["guardians"]["seat"]), you(state)
    defended = any(u[0] == mine and u[1] in D.LAND and u[2] == HOME for u in state["units"])
    return not defended and any(u[0] == seat and u[2] == HOME for u in state["units"])


def _partner(state: MesopotamiaState, seat: Seat, region: str, moved: set[int]) -> int | None:
    """The unit a Ram of ``region`` is bound to: the first of the enemy's land units there
    not moved yet, in the wave table's order of kinds (R-guard-ram)."""
    free = [i for i, u in enumerate(state["units"]) if u[0] == seat and u[2] == region
            and u[1] in D.LAND and i not in moved]
    return min(free, key=lambda i: (DATA["kinds"].index(state["units"][i][1]), i),
               default=None)


def _enter(state: MesopotamiaState, index: int, region: str) -> None:
    """Unit ``index`` enters ``region``: a neutral tribe there is beaten and removed with its
    event, an active six-round event of yours is destroyed with its die (« L'ennemi ne peut pas
    Explorer d'Événements »: a face-down one stays face down)."""
    unit = state["units"][index]
    news = state["guardians"]["news"]
    news.append(["move", {"kind": str(unit[1]), "from": str(unit[2]), "to": region}])
    unit[2] = region
    if state["tribes"].get(region):
        state["tribes"][region] = {}
        state["sites"].pop(region, None)
        news.append(["tribe", {"region": region}])
    runs = [r for r in state.get("running", []) if r["region"] == region]
    for run in runs:
        state["running"].remove(run)
        state["sites"].pop(region, None)
        news.append(["event", {"region": region, "card": str(run["card"])}])


AI: dict[str, float] = {k: float(v) for k, v in DATA["ai"].items() if not k.startswith("_")}


def safety(state: MesopotamiaState) -> float:
    """What the AI adds to your worth against the waves (weights: ``ai`` in
    ``guardians.json``): the waves repelled, your units defending your Ziggurat and your
    phalanxes, less each enemy land unit by its nearness to your Ziggurat; the end of the game
    outweighs all."""
    box = state["guardians"]
    if box["result"] is not None:
        return AI["end"] if box["result"] == "won" else -AI["end"]
    seat, mine = int(box["seat"]), you(state)
    far = routes.distances([HOME], frozenset(state["blockers"]))
    threat = sum(1.0 / (1 + far.get(str(u[2]), 9)) for u in units_of(state, seat)
                 if u[1] in D.LAND)
    home = sum(1 for u in units_of(state, mine) if u[1] in D.LAND and u[2] == HOME)
    return AI["wave"] * (int(box["wave"]) - 1) + AI["defender"] * home + \
        AI["phalanx"] * int(state["players"][mine]["res"]["phalanx"]) - AI["threat"] * threat
