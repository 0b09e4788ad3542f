"""Fixtures for every test folder: `count_game`, a tiny second game behind `Rules`
(players take turns adding 1 or 2 to a count; the first to reach 10 wins), registered
for one test, to show that the core and the hardware serve any game, not only the
card game."""

from __future__ import annotations

import dataclasses
import os
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

import pytest

import camera  # noqa: F401  (OpenCV's image limits, set before any test module loads cv2)
import games
from companion.cli import TRACEBACK_ENV
from companion.errors import BadEvent, BadSetup, IllegalEvent
from companion.plugins import Manifest
from companion.rules import GameSummary, Transition

# The command line's catch-all (companion/cli.py) turns a bug into one sentence and exit 70:
# right for a family, but it hid four bugs from this suite. Here it re-raises instead, so a
# bug in any command, run in-process or as a subprocess (which inherits this), shows its
# traceback and fails the test that ran it (tests/companion/test_cli_catch_all.py).
os.environ[TRACEBACK_ENV] = "1"

PLUGIN = "count_plugin_for_tests"  # the count game's folder (its manifest), made per test


def register_count(monkeypatch, **parts: str) -> None:
    """Register the count game's folder with these parts (Manifest's fields: module names)
    beside those already registered, as games/count/ with its line in games.PLUGINS would.
    Also a fixture (`register_count`), for the folders of tests that have no import path."""
    old = sys.modules.get(PLUGIN)
    manifest = getattr(old, "MANIFEST", Manifest(name="count", rules=""))
    module = types.ModuleType(PLUGIN)
    module.MANIFEST = dataclasses.replace(manifest, **parts)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, PLUGIN, module)
    monkeypatch.setitem(games.PLUGINS, "count", PLUGIN)


@dataclass(frozen=True)
class CountSetup:
    players: tuple[str, ...]
    game = "count"

    def to_json(self) -> dict[str, Any]:
        return {"type": "setup", "game": self.game, "players": list(self.players)}


@dataclass(frozen=True)
class Add:
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "add", "n": self.n}


class CountState(NamedTuple):
    setup: CountSetup
    count: int
    turn: int
    winner: int | None


class CountRules:
    name = "count"
    SETUP: ClassVar[dict[str, Any]] = {"type": "setup", "game": "count",
                                       "players": ["Ana", "Ben"]}  # a game, for tests

    def parse_setup(self, obj: dict[str, Any]) -> CountSetup:
        players = obj.get("players")
        if not isinstance(players, list) or len(players) < 2:
            raise BadSetup("name two players or more")
        return CountSetup(tuple(players))

    def parse_event(self, obj: dict[str, Any]) -> Add:
        if obj.get("type") != "add" or obj.get("n") not in (1, 2):
            raise BadEvent("the only event is add 1 or 2")
        return Add(obj["n"])

    def initial_state(self, setup: CountSetup) -> CountState:
        return CountState(setup, 0, 0, None)

    def apply(self, state: CountState, event: Add) -> Transition:
        if state.winner is not None:
            raise IllegalEvent("the game is over")
        count = state.count + event.n
        winner = state.turn if count >= 10 else None
        after = CountState(state.setup, count, (state.turn + 1) % len(state.setup.players),
                           winner)
        return Transition(after, (("added", state.turn, event.n),))

    def options(self, state: CountState) -> Sequence[Add]:
        return () if state.winner is not None else (Add(1), Add(2))

    def state_json(self, state: CountState) -> dict[str, Any]:
        return {"count": state.count, "turn": state.setup.players[state.turn]}

    def summary(self, state: CountState) -> GameSummary:
        winner = None if state.winner is None else state.setup.players[state.winner]
        return GameSummary(state.setup.players, winner, winner is not None)

    def stats(self, steps: Sequence[Any]) -> dict[str, dict[str, int]]:
        added: dict[str, dict[str, int]] = {}
        for step in steps:
            for _what, seat, n in step.outcomes:
                name = step.before.setup.players[seat]
                added.setdefault(name, {"added": 0})["added"] += n
        return added


@pytest.fixture
def count_game(monkeypatch):
    module = types.ModuleType("count_game_for_tests")
    module.RULES = CountRules()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    register_count(monkeypatch, rules=module.__name__)
    return module.RULES


@pytest.fixture(name="register_count")
def register_count_fixture(monkeypatch):
    return lambda **parts: register_count(monkeypatch, **parts)


class CountFace:
    """count_game on the hardware (hardware.faces): a seat's button adds 1 on that seat's
    turn, the lamp of the seat whose turn it is is lit (the winner's flashes), and the LED
    board lights whose turn it is."""

    def seat_press(self, session, seat, t):
        state = session.state
        if seat != state.turn:
            raise IllegalEvent(f"it is {state.setup.players[state.turn]}'s turn")
        return session.submit(Add(1))

    def ledboard(self, update, brightness):
        from hardware.firmware.pawnled import LedBoardState

        state = update.state
        seats = len(state.setup.players)
        return LedBoardState(players=seats, turn=None if state.winner is not None else state.turn,
                             home=[0] * seats, alert="none" if state.winner is None else "win",
                             bri=brightness)

    def lamps(self, update):
        from hardware.faces import LampState

        state = update.state
        lit = frozenset() if state.winner is not None else frozenset({state.turn})
        return LampState(lit, state.winner)


@pytest.fixture
def count_face(count_game, monkeypatch):
    """count_game with its hardware face registered (hardware.faces), for one test."""
    module = types.ModuleType("count_face_for_tests")
    module.FACE = CountFace()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    register_count(monkeypatch, face=module.__name__)
    return module.FACE


# --- `--cpu-report N`: the N tests that cost the most CPU (issue 36) ---

def _cpu_now() -> tuple[float, float]:
    """CPU seconds of this process (every thread: Kivy's, llvmpipe's) and of its children
    waited for (the CLIs and apps the tests start)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


_CPU_SPENT: dict[str, tuple[float, float, float]] = {}  # test id: own, children, wall
_SETUP_CPU: dict[str, float] = {}  # test id: CPU of its setup (its fixtures: an app started)


def pytest_addoption(parser):
    parser.addoption("--cpu-report", type=int, default=0, metavar="N",
                     help="after the run, the N tests under tests/ that took the most CPU "
                          "(this process and its children, setup and teardown included, "
                          "the setup's share beside); the load of a shared host moves it "
                          "less than the wall time")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not item.config.getoption("cpu_report"):
        yield
        return
    import time

    own0, children0 = _cpu_now()
    wall0 = time.monotonic()
    yield
    own1, children1 = _cpu_now()
    _CPU_SPENT[item.nodeid] = (own1 - own0, children1 - children0, time.monotonic() - wall0)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    if not item.config.getoption("cpu_report"):
        yield
        return
    before = sum(_cpu_now())
    yield
    _SETUP_CPU[item.nodeid] = sum(_cpu_now()) - before


def pytest_terminal_summary(terminalreporter, config):
    top = config.getoption("cpu_report")
    if not top or not _CPU_SPENT:
        return
    total = sum(own + children for own, children, _wall in _CPU_SPENT.values())
    setups = sum(_SETUP_CPU.values())
    terminalreporter.section(f"the {top} tests that took the most CPU, of {total:.1f} s "
                             f"over {len(_CPU_SPENT)} tests ({setups:.1f} s in setups)")
    ranked = sorted(_CPU_SPENT.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
    for nodeid, (own, children, wall) in ranked[:top]:
        terminalreporter.write_line(f"{own + children:7.2f} s CPU ({children:5.2f} children, "
                                    f"{_SETUP_CPU.get(nodeid, 0.0):5.2f} setup, "
                                    f"{wall:6.2f} s wall)  {nodeid}")
