"""The setup of the multiplayer base game: the board, then the players' decisions.

:func:`new_state` lays out what needs no decision (« ÉTAPES DE MISE EN PLACE »: blockers,
neutral tribes, event tokens face down, trade tokens, Hanging Gardens tiles, ziggurat tokens on
regions 5 and 6, the shuffled Quest deck). Then come the decisions, one small step each:

- ``role <a-d>``: roles are chosen in seat order (« Le premier joueur assis choisit le rôle
  disponible qu'il souhaite, puis le deuxième joueur et ainsi de suite. »);
- ``empire <id>``: empires in role order A to D;
- ``start <region>``: start regions in reverse role order D to A; then every empire is set up
  and the seals are piled on both tracks;
- ``die <colour>`` (the Sumerians' first die), ``colony <region>`` / ``decline`` (the
  Elamite colony and rampart) and ``launch <section>`` (the Eblaite ship,
  :mod:`bot.games.mesopotamia.expansions`), in role order;
- ``return <quest>``: every seat at once keeps 3 of its 4 quest cards.

A decision with one option left is taken for its seat at once (``state["log"]`` says so).
"""

from __future__ import annotations

from bot import chance
from bot.engine import Seat
from bot.games.kit import known
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import expansions, large, modes, siege
from bot.games.mesopotamia.guardians import mode as guardians
from bot.games.mesopotamia.state import (
    MesopotamiaState,
    Player,
    Quests,
    by_role,
    new_player,
    roles_in_play,
    taken_empires,
    taken_regions,
)

VERBS = frozenset({"role", "empire", "start", "die", "colony", "decline", "return", "launch"})


def new_state(seed: int, n_players: int, extra: tuple[str, ...] = ()) -> MesopotamiaState:
    """The board laid out for ``n_players`` (2-6), before any player's decision; the decks of
    the expansions ``extra`` shuffled in (R-expansion-decks)."""
    if not D.MIN_PLAYERS <= n_players <= D.MAX_PLAYERS:
        raise ValueError(f"Mesopotamia is set up here for {D.MIN_PLAYERS} to "
                         f"{D.MAX_PLAYERS} players, not {n_players}")
    large.check_empires(n_players, extra)
    randomness = chance.start(seed)
    draw = chance.Draw({chance.KEY: randomness})
    return {
        "chance": randomness, "n": n_players, "phase": "roles", "current": 0, "bonus": [],
        "turn": 0, "log": [],
        "players": [new_player() for _ in range(n_players)], "units": [],
        "seals": {t: [] for t in D.TRACKS},
        "ziggurats": {r: n for n, r in large.ziggurats_always(n_players).items()},
        "blockers": blocker_regions(n_players),
        "tribes": {r.id: dict(r.tribe) for r in D.REGIONS.values() if r.tribe},
        "sites": _event_sites(draw, extra), "trade": _trade_tokens(draw, n_players, extra),
        "gardens": _gardens(draw, extra), "quests": _quest_deck(draw, n_players, extra),
    }


def blocker_regions(n_players: int) -> list[str]:
    """The regions that receive a blocker: « Dans une partie à 3 joueurs, placez un total de 4
    jetons dans les régions avec le symbole » (a), « à 2 joueurs … 8 jetons … » (a and b)."""
    count, symbols = D.BLOCKERS_BY_PLAYERS.get(n_players, (0, ()))
    regions = [r.id for r in D.REGIONS.values() if r.blocker in symbols]
    if len(regions) != count:
        raise ValueError(f"the map has {len(regions)} blocker regions for {n_players} players")
    return regions


def _event_sites(draw: chance.Draw, extra: tuple[str, ...]) -> dict[str, list[str | bool]]:
    """One token face down on each site, shuffled per terrain with the tokens of the
    expansions ``extra``; the tokens left over are out of the game, unseen
    (R-expansion-events)."""
    sites: dict[str, list[str | bool]] = {}
    for terrain in D.TERRAINS:
        pool = expansions.event_tokens(terrain, extra)
        draw.shuffle(pool)
        slots = D.EVENT_SITES[terrain]
        for region, token in zip(slots, pool[: len(slots)], strict=True):
            sites[region] = [token, False]
    return sites


def _trade_tokens(draw: chance.Draw, n_players: int, extra: tuple[str, ...]) -> dict[str, str]:
    """Tokens drawn at random per level, face up on the slots used with ``n_players``."""
    laid: dict[str, str] = {}
    for level in D.TRADE_TOKENS:
        slots = [s for s in D.USED_SLOTS[n_players] if D.SLOT_LEVEL[s] == level]
        pool = expansions.trade_tokens(level, extra)
        draw.shuffle(pool)
        laid.update(zip(slots, pool[: len(slots)], strict=True))
    return laid


def _gardens(draw: chance.Draw, extra: tuple[str, ...]) -> list[list[str | bool]]:
    """One tile at random per storey, face down but the bottom one."""
    return [[draw.choice(expansions.garden_tiles(storey, extra)), storey == D.GARDEN_FACE_UP]
            for storey in range(1, D.GARDEN_STOREYS + 1)]


def _quest_deck(draw: chance.Draw, n_players: int, extra: tuple[str, ...]) -> Quests:
    deck = expansions.quests(extra)
    draw.shuffle(deck)
    return {"deck": deck, "hands": [[] for _ in range(n_players)],
            "returned": [None] * n_players}


# -- the decisions ----------------------------------------------------------------------


def active(state: MesopotamiaState) -> list[Seat]:
    """The seats deciding now: one, or every seat still to return a quest card."""
    if state["phase"] == "quests":
        return [s for s, q in enumerate(state["quests"]["returned"])
                if q is None and not modes.enemy(state, s)]
    return [] if state["current"] is None else [int(state["current"])]


def legal(state: MesopotamiaState, seat: Seat) -> list[str]:
    """Every legal notation of ``seat`` now."""
    if seat not in active(state):
        return []
    phase = state["phase"]
    if phase == "roles":
        roles = {p["role"] for p in state["players"]}
        return [f"role {r}" for r in roles_in_play(state) if r not in roles]
    if phase == "empires":
        return [f"empire {e}" for e in expansions.empires(state)
                if e not in taken_empires(state)]
    if phase == "regions":
        taken = taken_regions(state)
        return [f"start {r}" for _, r in sorted(large.start_regions(state["n"]).items())
                if r not in taken]
    if phase == "bonus":
        if state["bonus"][0][1] == "die":
            return [f"die {c}" for c in D.COLOURS]
        if state["bonus"][0][1] == "launch":
            return [f"launch {s}" for s in expansions.launch_sections(state, seat)]
        return [*(f"colony {r}" for r in colony_regions(state, seat)), "decline"]
    return [f"return {q}" for q in state["quests"]["hands"][seat]]


def colony_regions(state: MesopotamiaState, seat: Seat) -> list[str]:
    """Where the Elamites may put their setup Colony and Rampart (R-elamite-placement): a
    region next to their start region, not numbered, without a tribe or a blocker."""
    start = state["players"][seat]["start"]
    return [r for r in D.REGIONS[known(start)].neighbours
            if D.REGIONS[r].start is None and r not in state["tribes"]
            and r not in state["blockers"]]


def apply(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    """Play the legal step ``notation`` of ``seat`` on ``state`` (a copy the caller owns),
    then every forced step after it."""
    state["log"] = []
    _play(state, seat, notation)
    while state["phase"] in ("roles", "empires", "regions") and state["current"] is not None:
        options = legal(state, state["current"])
        if len(options) != 1:
            break
        state["log"].append([state["current"], options[0]])
        _play(state, state["current"], options[0])


def _play(state: MesopotamiaState, seat: Seat, notation: str) -> None:
    verb, *args = notation.split()
    player = state["players"][seat]
    if verb == "role":
        player["role"] = args[0]
        _next_sequential(state, "roles", list(range(state["n"])), "role")
    elif verb == "empire":
        player["empire"] = args[0]
        _next_sequential(state, "empires", by_role(state), "empire")
    elif verb == "start":
        player["start"] = args[0]
        _next_sequential(state, "regions", by_role(state)[::-1], "start")
    elif verb == "die":
        player["dice"].append(args[0])
        _next_bonus(state)
    elif verb == "launch":
        expansions.launch(state, seat, args[0])
        _next_bonus(state)
    elif verb in ("colony", "decline"):
        if args:
            player["colonies"].append(args[0])
            player["ramparts"].append(args[0])
        _next_bonus(state)
    else:
        _return_quest(state, seat, args[0])


def _choice(player: Player, field: str) -> str | None:
    """What ``player`` chose as its ``role``, ``empire`` or ``start`` (``field``)."""
    return player["role"] if field == "role" else \
        player["empire"] if field == "empire" else player["start"]


def _next_sequential(state: MesopotamiaState, phase: str, order: list[Seat], field: str) -> None:
    """The next seat of ``order`` still to choose ``field``, or the next phase."""
    waiting = [s for s in order if _choice(state["players"][s], field) is None
               and not modes.enemy(state, s)]
    if waiting:
        state["current"] = waiting[0]
    elif phase == "roles":
        state["phase"], state["current"] = "empires", by_role(state)[0]
    elif phase == "empires" and siege.box(state) is not None:
        siege.place_starts(state)
        _establish(state)
    elif phase == "empires" and not guardians.on(state):
        state["phase"], state["current"] = "regions", by_role(state)[-1]
    else:
        _establish(state)


def _establish(state: MesopotamiaState) -> None:
    """Every empire set up in its start region, the seals piled, ziggurat tokens on the
    start regions nobody took; then the setup bonuses, in role order."""
    for seat, player in enumerate(state["players"]):
        if siege.defends(state, seat):
            siege.set_up_defenders(state, seat, player)
        elif not guardians.plays(state, seat):
            _set_up_empire(state, seat, player)
    taken = taken_regions(state)
    for number, region in large.start_regions(state["n"]).items():
        if region not in taken:
            state["ziggurats"][region] = number
    state["ziggurats"] = dict(sorted(state["ziggurats"].items(), key=lambda kv: kv[1]))
    for track in D.TRACKS:
        state["seals"][track] = _pile(state, track)
    if guardians.on(state):
        guardians.establish(state)
    for seat in (s for s in by_role(state) if not modes.enemy(state, s)):
        empire = D.ALL_EMPIRES[known(state["players"][seat]["empire"])]
        state["bonus"] += [[seat, "die"]] * empire.dice
        if empire.colony_rampart:
            state["bonus"].append([seat, "colony"])
        if empire.ship:
            state["bonus"].append([seat, "launch"])
    state["phase"] = "bonus"
    _next_bonus(state, first=True)


def _set_up_empire(state: MesopotamiaState, seat: Seat, player: Player) -> None:
    """« Tous les Empires commencent la partie avec les ressources et Unités suivantes », and
    each empire's own starting technologies, storeys and civilization cards."""
    empire = D.ALL_EMPIRES[known(player["empire"])]
    player["res"].update(empire.resources)
    for kind, count in empire.units:
        state["units"] += [[seat, kind, player["start"]]] * count
    levels = dict(empire.technologies)
    board = {D.TECH_CARD[tech][0]: card for card, tech in empire.card_tech
             if D.TECH_CARD[tech][1] == levels[D.TECH_CARD[tech][0]]}
    player["tech"] = {a: board[a] for a in D.ACTIONS}
    player["civ"] = [c for c in empire.civilization if c not in board.values()]
    player["ziggurat"] = empire.ziggurat


def _pile(state: MesopotamiaState, track: str) -> list[list[int]]:
    """The seals of ``track``, most advanced first: a higher case first, then the order of the
    pile, top first (« dans l'ordre suivant, de haut en bas »; R-stack-order); the Defenders of
    Ur on the first box, under you (R-siege-seals)."""
    order = D.STACK_ORDER[track]
    seats = []
    for seat, player in enumerate(state["players"]):
        if guardians.plays(state, seat):
            continue
        empire = known(player["empire"])
        under = siege.defends(state, seat)
        case = 1 if under else dict(D.ALL_EMPIRES[empire].track)[track]
        rank = order.index(empire) if empire in order else len(order)
        seats.append((-case, under, rank, seat))
    return [[seat, -case] for case, _, _, seat in sorted(seats)]


def _next_bonus(state: MesopotamiaState, first: bool = False) -> None:
    """Drop the bonus just decided; then the next one, or the quests."""
    if not first:
        state["bonus"].pop(0)
    if state["bonus"]:
        state["current"] = state["bonus"][0][0]
        return
    state["phase"], state["current"] = "quests", None
    quests = state["quests"]
    dealt = modes.quests(state)[0]
    for seat in active(state):
        quests["hands"][seat] = quests["deck"][:dealt]
        del quests["deck"][:dealt]


def _return_quest(state: MesopotamiaState, seat: Seat, quest: str) -> None:
    """« Chacun en choisit 3 à garder, et remet la 4e dans le paquet. » Once every seat has
    chosen, the returned cards are shuffled into the deck."""
    quests = state["quests"]
    quests["hands"][seat].remove(quest)
    quests["returned"][seat] = quest
    if not active(state):
        quests["deck"] += [q for q in quests["returned"] if q is not None]
        chance.Draw(state).shuffle(quests["deck"])
        state["phase"] = "ready"
