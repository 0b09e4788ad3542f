"""The board camera in the real app (offscreen window, real journal): with `[camera]`
enabled and a taught board, each card drawn by touch on the card pad is followed by the
move the board shows, logged by the camera through the Session ("seen by the camera" on
the message line and the undo button), with no tap on the board."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2", reason="the camera's extra is not installed: pip install '.[camera]'")

from board_camera_play import DrawPacedFolder, recorded
from ui_helpers import to_board_setup, type_name

import camera.sources
from companion.config import CameraConfig, Config


def start_board(d, edition):
    d.tap_id("start", "count_2")
    for i, name in enumerate(("ANA", "BEN")):
        type_name(d, f"slot{i}", name)
    to_board_setup(d)
    d.tap_id("board_setup", f"edition_{edition}")
    d.tap_id("board_setup", "draws_real")
    d.tap_id("board_setup", "board_start")
    assert d.screen == "board", d.label("board_setup", "setup_message")


def watched(driver, tmp_path, monkeypatch, draws, seed, staged=0.0):
    """The real app on a 2016 board game, its camera reading a recording of our own print
    (frames handed out draw by draw): the driver, the recording and the source."""
    data = tmp_path / "data"
    rec = recorded(tmp_path, data, edition="2016", draws=draws, seed=seed, staged=staged)
    source = DrawPacedFolder(tmp_path / "frames", [t.frame for t in rec.truths])
    monkeypatch.setattr(camera.sources, "open_source", lambda spec: source)
    d = driver(data, config=Config(camera=CameraConfig(enabled=True,
                                                       source=str(tmp_path / "frames"))))
    start_board(d, "2016")
    return d, rec, source


def test_moves_seen_by_the_camera_are_logged_with_no_tap_on_the_board(
        driver, tmp_path, monkeypatch):
    d, rec, source = watched(driver, tmp_path, monkeypatch, draws=4, seed=31)
    model = d.app.models["board"]
    assert [p["color"] for p in model.state["players"]] == rec.setup["colors"], model.state
    session = d.app.session
    for i, truth in enumerate(rec.truths):
        steps = len(session.update.steps)
        d.tap_code(f"card:{truth.card}")
        assert len(session.update.steps) == steps + 1, truth
        source.drawn(i)
        d.wait_for(lambda n=steps + 2: len(session.update.steps) == n, f"move {i} seen")
        move = session.update.steps[-1].event.to_json()
        assert move["legs"] == truth.legs
        d.wait_for(lambda: "seen by the camera" in model.message, "the camera's sentence")
        assert "camera" in model.undo_text, model.undo_text
    assert d.app.camera.watcher is not None and d.app.camera.watcher.is_alive()


def test_a_wrong_move_is_said_in_one_sentence_then_accepted_once_put_right(
        driver, tmp_path, monkeypatch):
    d, rec, source = watched(driver, tmp_path, monkeypatch, draws=2, seed=32, staged=1.0)
    staged = [t for t in rec.truths if t.staged is not None]
    assert staged, "the recording stages a wrong move"
    model = d.app.models["board"]
    said: list[str] = []
    model.bind(message=lambda _m, text: said.append(text))
    session = d.app.session
    truth = staged[0]
    for i, t in enumerate(rec.truths[:rec.truths.index(truth) + 1]):
        steps = len(session.update.steps)
        d.tap_code(f"card:{t.card}")
        source.drawn(i)
        if t.kind is None:  # a forfeit: the draw says it, the board does not change
            continue
        d.wait_for(lambda n=steps + 2: len(session.update.steps) == n, f"move {i} seen")
    mismatches = [s for s in said if "Correct the board" in s]
    # said once per board still 2 s (a pawn put right in two goes is said again)
    assert mismatches and all(". " not in m and "pawn" in m for m in mismatches), said
    assert session.update.steps[-1].event.to_json()["legs"] == truth.legs
    # the worker logs the move on its thread and says so on the UI's next frames: waited
    # for, as the test above does (the steps can count it before the sentence is set)
    d.wait_for(lambda: "seen by the camera" in model.message, "the camera's sentence")
    assert said.index(mismatches[0]) < len(said) - 1  # the move came after, said seen


def test_an_unsure_move_is_answered_with_one_tap(driver, tmp_path, monkeypatch):
    from games.board.camera.watch import Judgement

    d, _, _ = watched(driver, tmp_path, monkeypatch, draws=1, seed=33)
    model = d.app.models["board"]
    session = d.app.session
    d.tap_code("card:7")  # a split: many options; the camera says it is unsure of two
    options = [o["option"] for o in model.snap.options]
    assert len(options) > 2
    watcher = d.app.camera.watcher
    watcher.listener.asked(Judgement(frame=0, draw=1, candidates=(options[1], options[2])))
    d.wait_for(lambda: "not sure" in model.message, "the camera's question")
    assert [r["index"] for r in model.rows] == [1, 2]
    assert len(model.preview) == sum(len(o.legs) for o in options[1:3])
    steps = len(session.update.steps)
    d.tap_code("opt2")
    assert len(session.update.steps) == steps + 1
    assert session.update.steps[-1].event.to_json()["legs"] == [list(leg)
                                                                for leg in options[2].legs]


def test_an_unsure_move_from_real_frames_is_answered_with_one_tap(
        driver, tmp_path, monkeypatch):
    # seed 90's third move is a 4 back onto a slide that slides the pawn back where it
    # stood: the board after it is the board before, so from its frames the camera can
    # only ask (a hand went over the board and left it as it was), and one tap answers
    d, rec, source = watched(driver, tmp_path, monkeypatch, draws=4, seed=90)
    model = d.app.models["board"]
    session = d.app.session
    for i, truth in enumerate(rec.truths[:2]):  # two moves seen and logged first
        steps = len(session.update.steps)
        d.tap_code(f"card:{truth.card}")
        source.drawn(i)
        d.wait_for(lambda n=steps + 2: len(session.update.steps) == n, f"move {i} seen")
    truth = rec.truths[2]
    assert truth.legs is not None and truth.legs[0][0] == truth.legs[0][1], truth
    d.tap_code(f"card:{truth.card}")
    steps = len(session.update.steps)
    source.drawn(2)
    d.wait_for(lambda: "not sure" in model.message or len(session.update.steps) > steps,
               "the camera's question")
    assert "not sure" in model.message, (model.message, truth)
    (index,) = [i for i, o in enumerate(model.snap.options)
                if [list(leg) for leg in o["option"].legs] == truth.legs]
    assert [r["index"] for r in model.rows] == [index], model.rows
    assert len(session.update.steps) == steps  # nothing logged while it asks
    d.tap_code(f"opt{index}")
    assert len(session.update.steps) == steps + 1
    assert session.update.steps[-1].event.to_json()["legs"] == truth.legs
