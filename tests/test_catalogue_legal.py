"""The catalogue remembers a decision's legal steps for its state: read again (a panel, a
press, suggestions), they are not worked out again; a new state is never given an old
state's steps; the memory is bounded."""

from __future__ import annotations

from typing import Any

import pytest

from bot import catalogue as catalogue_module
from bot.catalogue import Catalogue
from bot.engine import Action, Seat, State
from host import registry


class Counting:
    """Ur's engine, counting the calls of ``legal``."""

    def __init__(self) -> None:
        self.engine = registry.get("ur").engine
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def legal(self, state: State, seat: Seat) -> list[Action]:
        self.calls += 1
        return self.engine.legal(state, seat)


def test_a_decision_is_worked_out_once_per_state(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = Counting()
    catalogue = Catalogue({"ur": engine})  # type: ignore[dict-item]
    state = engine.setup(4, 3, {})
    seat = engine.active(state)[0]
    first = catalogue.legal("ur", state, seat)
    again = catalogue.legal("ur", state, seat)
    assert first == again == engine.engine.legal(state, seat) and engine.calls == 1
    again.clear()                                   # a caller's list is its own
    assert catalogue.legal("ur", state, seat) == first
    other = (seat + 1) % 3
    assert catalogue.legal("ur", state, other) == engine.engine.legal(state, other)
    assert engine.calls == 2
    moved = engine.apply(state, seat, first[0])
    assert catalogue.legal("ur", moved, seat) == engine.engine.legal(moved, seat)
    copy = dict(state)                              # equal, but another state: asked again
    catalogue.legal("ur", copy, seat)
    assert engine.calls == 4

    monkeypatch.setattr(catalogue_module, "LEGAL_KEPT", 2)
    states = [engine.setup(s, 3, {}) for s in range(3)]
    for s in states:
        catalogue.legal("ur", s, 0)
    calls = engine.calls
    catalogue.legal("ur", states[-1], 0)            # kept
    assert engine.calls == calls
    catalogue.legal("ur", states[0], 0)             # forgotten: worked out again
    assert engine.calls == calls + 1 and len(catalogue._legal) == 2
