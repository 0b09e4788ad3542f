"""Snap (games/snap), the third game, is one folder and one registry line: the real app
plays it offscreen with no change of its own, by touch, by a seat's GPIO button (gpiozero's
MockFactory) and by the camera (a folder of frames), keeps it in the history and the
stats, exports and replays it on the command line, and resumes it after a restart.

Snap is a test fixture, not a shipped game (docs/DECISIONS.md): the tests register its
folder as its line in games/__init__.py would."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("cv2", reason="the camera's extra is not installed: pip install '.[camera]'")

import cv2
from ui_helpers import press_gpio, type_name

import games
from bench.camera_scenes import Scene
from camera.cards import card_names
from camera.model import save
from camera.teach import teach
from companion.cli import main
from companion.config import CameraConfig, Config

TARGET = 4  # [snap] target: Ana's second pile wins


@pytest.fixture(autouse=True)
def snap(monkeypatch):
    """Snap's folder registered, as its one line in games.PLUGINS would."""
    monkeypatch.setitem(games.PLUGINS, "snap", games.FIXTURES["snap"])


def taught_camera(tmp_path, data, laid: list[str]) -> CameraConfig:
    """The camera taught snap's six pictures (one photo each), watching a folder of frames
    in which `laid` are laid one after the other."""
    scene = Scene(seed=21, size=(640, 480), printing=21)
    cards = card_names("snap")
    photos = scene.teach_photos(cards, 1, seed=0)
    save(teach({c: [(c, photos[c][0])] for c in cards}, "snap").model,
         CameraConfig.model_file(data, "snap"))
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, frame in enumerate(scene.sequence(laid, seed=21, disturb=False).frames):
        cv2.imwrite(str(frames / f"{i:04d}.png"), frame)
    return CameraConfig(enabled=True, source=str(frames))


def snap_config(target: int):
    from games.snap.config import SnapConfig

    return SnapConfig(target=target)


def test_snap_by_touch_button_and_camera_then_history_stats_export_and_replay(
        driver, mock_pins, tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    config = Config(camera=taught_camera(tmp_path, data, ["moon"]),
                    games={"snap": snap_config(TARGET)})
    d = driver(data, config=config, start_hardware=True)
    d.tap(d.button(code="game:snap"))  # the first screen offers it, with its own options
    assert [w.text for w in d.app.screen("start").ids.game_options.walk(restrict=True)
            if hasattr(w, "text")] == ["First to win 4 cards wins"]  # [snap] target
    type_name(d, "slot0", "Ana")
    type_name(d, "slot1", "Ben")
    d.tap_id("start", "start_button")
    d.wait_for(lambda: d.screen == "snap", "snap's own screen")

    # the camera: Ana's card, laid before it, is logged as a tap would be
    d.app.camera.worker.join(120)  # the folder source ends: every frame has been judged
    d.frames(3)  # the Clock brings the worker's sentence to the screen
    snap = d.app.models["snap"]
    assert d.app.session.state.pile == ("moon",)
    assert snap.message == "Moon: seen by the camera."
    assert snap.undo_text == "Undo: Ana laid Moon, seen by the camera"
    assert d.label("snap", "turn_label") == "Ben lays the next card"

    # a tap: Ben lays a moon too, a pair; Ana's GPIO button calls Snap! first
    d.tap_code("flip:moon")
    assert d.label("snap", "top_label") == "Moon"
    assert d.label("snap", "pile_label") == "2 cards on the pile"
    press_gpio(mock_pins.pin_factory.pin(config.gpio.pins[0]))
    d.wait_for(lambda: snap.message == "Snap! Ana wins the pile: 2 cards.", "Ana's button")
    assert d.app.session.update.steps[-1].by == "button"
    assert d.label("snap", "turn_label") == "Ana lays the next card"

    # a wrong call by touch pays a won card under the pile
    d.tap_code("snap:Ana")
    assert snap.message == "No pair: Ana pays 1 card under the pile."
    d.tap_id("snap", "undo_button")  # taken back like any step
    assert d.app.session.state.won == (2, 0) and snap.can_redo

    for card in ("sun", "sun"):
        d.tap_code(f"flip:{card}")
    d.tap_code("snap:Ana")
    assert d.label("snap", "turn_label") == "Ana won the game"
    assert d.app.session.update.summary.winner == "Ana"

    # a press the rules refuse reaches the screen in one sentence
    press_gpio(mock_pins.pin_factory.pin(config.gpio.pins[1]))
    d.wait_for(lambda: snap.message == "The game is over: Ana has won; undo to go back.",
               "the refused press")
    d.app.set_language("fr")  # the same refusal in French, from its code and facts
    d.frames(3)
    d.tap(d.button(code="flip:sun", text="Soleil"))
    assert snap.message == "La partie est finie : Ana a gagné ; annulez pour revenir en arrière."
    assert d.label("snap", "turn_label") == "Ana a gagné la partie"
    d.app.set_language("en")

    d.app.show("history")  # snap's own leaderboard rows, from its slice
    d.frames(2)
    cells = [w.text for w in reversed(d.app.screen("history").ids.leaders_grid.children)]
    assert cells[:6] == ["", "Games", "Wins", "Piles", "Cards", "Wrong calls"]
    assert cells[6:12] == ["Ana", "1", "1", "2", "4", "0"]
    state = d.app.session.update
    expected = state.state
    d.stop()

    # the command line: stats, export, and the export replayed to the same state
    assert main(["--data", str(data), "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert {"game": "snap", "name": "Ana", "games": 1, "wins": 1, "piles": 2, "cards": 4,
            "wrong": 0}.items() <= next(p for p in stats if p["name"] == "Ana").items()
    transcript = tmp_path / "snap.jsonl"
    assert main(["--data", str(data), "export", "-o", str(transcript)]) == 0
    capsys.readouterr()
    lines = transcript.read_text().splitlines()
    assert json.loads(lines[0]) == {"type": "setup", "game": "snap", "players": ["Ana", "Ben"],
                                    "target": TARGET}
    assert main(["replay", "--json", str(transcript)]) == 0
    from games.snap.rules import RULES

    assert json.loads(capsys.readouterr().out) == RULES.state_json(expected)


def test_an_unfinished_snap_game_is_described_and_resumed(driver, tmp_path):
    from games.snap.rules import Setup

    data = tmp_path / "data"
    d = driver(data)
    d.app.start_game(Setup(("Cy", "Di"), 6))
    d.wait_for(lambda: d.screen == "snap", "snap's screen")
    d.frames(3)
    d.tap_code("flip:star")
    assert d.label("snap", "top_label") == "Star"
    d.stop()

    again = driver(data)
    again.wait_for(lambda: again.screen == "resume", "the resume screen")
    assert again.app.screen("resume").description == (
        "Snap: Cy 0, Di 0; 1 card on the pile\n"
        "Resumed after “Cy laid Star”: tap again anything played after it.")
    again.tap(again.app.screen("resume").ids.resume_button)
    again.wait_for(lambda: again.screen == "snap", "the resumed snap game")
    again.frames(3)
    assert again.label("snap", "top_label") == "Star"
    assert again.label("snap", "turn_label") == "Di lays the next card"
