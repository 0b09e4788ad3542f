"""The board watcher (games.board.camera.watch) on recordings of our own generator at a
small size: each move logged right within 5 frames of rest, nothing for a forfeit, a
hand, a nudge or the light; and a board no option gives said in the table's words."""

from __future__ import annotations

from games.board.camera.bench import run_recording
from games.board.camera.read import Reading
from games.board.camera.watch import _Board, difference
from games.board.rules.moves import generate
from games.board.rules.position import Position


def test_every_move_of_a_recording_is_logged_right_and_nothing_else():
    score, frame_ms, frames = run_recording(0, seed=4, size=(480, 270), draws=12)
    assert score.moves >= 5 and score.right == score.moves, score.cases
    assert score.phantom == 0 and score.stray == 0, score.cases
    assert max(score.delays) <= 5 and len(frame_ms) == frames


def _reading_of(pawns: dict[str, list[str]], colors: tuple[str, ...]) -> Reading:
    board = _Board.of(pawns, colors)
    return Reading(squares=dict(board.squares),
                   pixels={k: float(n) for k, n in board.counts.items()})


def _starts(red: float, blue: float) -> dict[str, float]:
    """The pixels a START zone counts for red and blue (their HOMEs empty): the lamp's and
    the pawns' measure the watcher weighs against the board before."""
    return {"red:START": red, "red:HOME": 0.0, "blue:START": blue, "blue:HOME": 0.0}


def test_a_pawn_one_square_short_is_said_in_the_tables_words():
    position = Position.parse({"edition": "classic", "pawns": {
        "red": ["START", "START", "START", "T5"], "blue": ["START"] * 4}})
    (option,) = generate(position, "5", "red")
    assert option.legs == (("T5", "T10"),)
    board = _Board.of(dict(option.pawns), ("red", "blue"))
    reading = _reading_of({"red": ["START", "START", "START", "T9"], "blue": ["START"] * 4},
                          ("red", "blue"))
    counts = {k: float(n) for k, n in board.counts.items()}
    said = difference(reading, counts, board, option)
    assert said == "Red's pawn should be on square 2 of red's long slide, not 1 square short"
    # the screen asks again in its own language: all of it French
    assert difference(reading, counts, board, option, "fr") == (
        "Le pion rouge devrait être sur la case 2 de la grande glissade côté rouge,"
        " pas 1 case avant")


def test_a_board_moved_a_little_since_teaching_is_found_again_by_itself():
    from games.board.camera.model import teach
    from games.board.camera.run import DrawLine, watch
    from games.board.camera.scenes import BoardScene

    scene = BoardScene(seed=12, size=(480, 270), edition="2016", colors=("red", "green"))
    model = teach(scene.teach_photo(), "2016", scene.colors)
    moved = scene.moved(seed=1, by=0.05)
    rec = moved.record(8, seed=1, staged=0.0)
    lines = [DrawLine(t.frame, t.card, Position.parse({"edition": "2016", "pawns": t.pawns}))
             for t in rec.truths]
    judged = list(watch(rec.frames, model, rec.setup, lines, 5.0))
    played = [(t.kind, t.legs) for t in rec.truths if t.kind is not None]
    assert played and [(j.option.kind, [list(x) for x in j.option.legs])
                       for j in judged if j.option is not None] == played


def test_an_empty_square_beside_a_corner_crowded_with_pawns_reads_empty():
    # 2016 seed 41's whole game stalled here: the lamp's gain near the corner (the board's
    # edge repeated for its median) came from the pawns' cells, and T14 read as no pawn
    import cv2
    import numpy as np

    from games.board.camera import cells
    from games.board.camera.find import homography
    from games.board.camera.model import teach
    from games.board.camera.read import read
    from games.board.camera.scenes import BoardScene

    scene = BoardScene(seed=41, size=(480, 270), edition="2016", colors=("red", "blue"))
    model = teach(scene.teach_photo(), "2016", scene.colors)
    rng = np.random.default_rng(27)
    pawns = {"red": ["T13", "T15", "T39"], "blue": ["T17", "S2", "S3"]}
    frame = scene.shoot(scene.pawns_at(pawns, rng), scene.random_light(rng), rng)
    picture = cv2.warpPerspective(frame, homography(model.corners_for(480, 270)),
                                  (cells.SIZE, cells.SIZE))
    squares = read(picture, model.taught).squares
    assert {k: squares[k] for k in ("T13", "T14", "T15", "T16", "T17")} == {
        "T13": "red", "T14": "", "T15": "red", "T16": "", "T17": "blue"}


def _judged(monkeypatch, position, card, rest_pixels, readings, frames, drawn_at=0):
    """Red draws `card` on `position` at frame `drawn_at` (red and blue seated; the board
    before read with `rest_pixels` in START and HOME); `readings` stand for the reads of
    the next frames: the watcher's judgement at each of `frames`."""
    from types import SimpleNamespace

    import games.board.camera.watch as watch

    colors = ("red", "blue")
    model = SimpleNamespace(colors=colors, per_pawn={"red": 100.0, "blue": 100.0},
                            taught=SimpleNamespace(refresh=lambda lit, keys: None))
    before = _reading_of(position.pawns_json(), colors)
    before.pixels = dict(rest_pixels)
    watcher = watch.BoardWatcher(model, 5.0)  # type: ignore[arg-type]
    watcher._rest_reading = before
    watcher.frame = drawn_at - 1  # the frame before: the draw comes with the next
    assert watcher.drawn(0, position, card, "red")
    readings = list(readings)
    monkeypatch.setattr(watch, "read", lambda picture, taught: readings.pop(0))
    monkeypatch.setattr(watcher, "_rectified", lambda frame: None)
    assert watcher._draw is not None
    judged = []
    for frame in frames:
        watcher.frame = frame
        judged.append(watcher._judge(watcher._draw, None))
    return judged


def test_a_lamp_changed_before_the_move_does_not_change_a_starts_count(monkeypatch):
    # 20,000 recording 10 (held out, then read): the lamp brightened after the card was
    # drawn and before the move, and left blue's pawns too pale for their hue: blue's
    # START counted 2 pawns short of the board before, the move never fitted (missed, and
    # a stray mismatch). Every move changes a square, so with every square as before the
    # STARTs' pixels are taken again, in the light now.
    colors = ("red", "blue")
    position = Position.parse({"edition": "classic", "pawns": {
        "red": ["START", "START", "START", "T5"], "blue": ["START"] * 4}})
    (option,) = generate(position, "5", "red")
    washed = _starts(290.0, 150.0)
    readings = [_reading_of(position.pawns_json(), colors),  # still thinking, lamp changed
                _reading_of(dict(option.pawns), colors)]  # the move, in the same light
    for reading in readings:
        reading.pixels = dict(washed)
    rest = _starts(300.0, 400.0)
    thinking, judged = _judged(monkeypatch, position, "5", rest, readings, (10, 20))
    assert thinking is None
    assert judged is not None and judged.option == option, judged


def test_a_pawn_lifted_from_start_and_held_off_the_squares_is_not_taken_as_the_lamp(
        monkeypatch):
    # 10,000 recording 13 (development): the pawn lifted from START for a start move, held
    # off the squares for a frame, was taken as a START the lamp had changed; once put
    # down, START counted the pawn still there and the move never fitted. An option's
    # counts fit that board better than the board before: its pixels are kept.
    colors = ("red", "blue")
    position = Position.parse({"edition": "classic", "pawns": {
        "red": ["START"] * 4, "blue": ["START"] * 4}})
    (option,) = [o for o in generate(position, "1", "red") if o.kind == "start"]
    held = _reading_of(position.pawns_json(), colors)  # every square as before
    put = _reading_of(dict(option.pawns), colors)
    for reading in (held, put):
        reading.pixels = _starts(300.0, 400.0)
    rest = _starts(400.0, 400.0)
    waiting, judged = _judged(monkeypatch, position, "1", rest, (held, put), (3, 4))
    assert waiting is None
    assert judged is not None and judged.option == option, judged


def test_a_pawn_lifted_from_start_for_a_bump_is_not_taken_as_the_lamp(monkeypatch):
    # 60,000 recordings 24 and 34 (then development seeds): a start move onto an
    # opponent's pawn, its pawn lifted from START and held off the squares: START one
    # pawn down fitted the start option, but the opponent's START (its bumped pawn not
    # yet back) fitted the board before, so summed over the zones the board before fitted
    # as well and START was taken as the lamp's; once the move was down START counted the
    # pawn still there and the move was asked. A zone an option fits better is a pawn on
    # its way, whatever the others show.
    colors = ("red", "blue")
    position = Position.parse({"edition": "classic", "pawns": {
        "red": ["START"] * 4, "blue": ["T4", "START", "START", "START"]}})
    (option,) = [o for o in generate(position, "1", "red") if o.kind == "start"]
    assert "blue" in option.bumped
    held = _reading_of(position.pawns_json(), colors)  # every square as before
    put = _reading_of(dict(option.pawns), colors)
    held.pixels = _starts(300.0, 300.0)
    put.pixels = _starts(300.0, 400.0)
    rest = _starts(400.0, 300.0)
    waiting, judged = _judged(monkeypatch, position, "1", rest, (held, put), (3, 4))
    assert waiting is None
    assert judged is not None and judged.option == option, judged


def test_a_doubtful_pawn_where_every_board_has_none_does_not_hold_the_move_back(
        monkeypatch):
    # 60,000 recording 20 (then a development seed): after the lamp changed, a print on
    # T34 read doubtfully as a yellow pawn; no board had one there (before the move nor
    # any option), so it cost every board the same half location, the move's best fit
    # was no longer under FIT and the move was asked. Such a doubt tells no board apart.
    colors = ("red", "blue")
    position = Position.parse({"edition": "classic", "pawns": {
        "red": ["START", "START", "START", "T5"], "blue": ["START"] * 4}})
    (option,) = generate(position, "5", "red")
    pixels = _starts(300.0, 400.0)
    put = _reading_of(dict(option.pawns), colors)
    put.pixels = dict(pixels)
    put.squares["T34"] = "blue"
    put.doubtful.add("T34")
    (judged,) = _judged(monkeypatch, position, "5", pixels, (put,), (3,))
    assert judged is not None and judged.option == option, judged
    # surely read, a pawn where no board has one is a board no option gives: not logged
    sure = _reading_of(dict(option.pawns), colors)
    sure.pixels = dict(pixels)
    sure.squares["T34"] = "blue"
    (waiting,) = _judged(monkeypatch, position, "5", pixels, (sure,), (3,))
    assert waiting is None or waiting.option is None, waiting


def test_a_start_move_onto_a_print_of_its_own_hue_is_not_taken_back_as_the_lamp(
        monkeypatch):
    # 10,000 recording 0 draw 5 (development): yellow's pawn left START for its own slide's
    # end, printed yellow: the pawn on it read only doubtfully (a doubt costs half), so the
    # board before (START a pawn short, less the slack) fitted as well as the move, and its
    # START was taken again as the lamp's: the move never fitted again and was missed. A
    # START an option fits better is a pawn on its way here too: kept, and the move asked.
    colors = ("red", "blue")
    position = Position.parse({"edition": "classic", "pawns": {
        "red": ["START", "START", "START", "T20"], "blue": ["START"] * 4}})
    (option,) = [o for o in generate(position, "1", "red") if o.kind == "start"]
    (start_square,) = [leg[1] for leg in option.legs]
    readings = []
    for red_start in (222.0, 218.0, 218.0):  # a pawn's worth is 100: START 2.2 pawns
        reading = _reading_of(dict(option.pawns), colors)
        reading.squares[start_square] = ""
        reading.doubtful.add(start_square)
        reading.pixels = _starts(red_start, 400.0)
        readings.append(reading)
    early, still, rested = _judged(monkeypatch, position, "1", _starts(300.0, 400.0),
                                   readings, (3, 4, 20))
    assert early is None and still is None
    assert rested is not None and rested.candidates == (option,), rested


def test_a_board_misread_since_before_the_draw_is_said_2_s_after_the_draw_not_at_once(
        monkeypatch):
    # 10,000 recording 0 draw 6 (development): yellow's pawn on its own slide's end read
    # empty, doubtfully, while the board lay still; the next card was drawn and, the board
    # still for long, the mismatch was said at the draw's own frame, before the player
    # had reached for a pawn (a stray). The 2 s count from the draw at the earliest.
    colors = ("red", "blue")
    position = Position.parse({"edition": "classic", "pawns": {
        "red": ["START", "START", "START", "T5"], "blue": ["START"] * 4}})
    misread = _reading_of(position.pawns_json(), colors)
    misread.squares["T5"] = ""
    misread.squares["T6"] = "red"  # no option's board: red's pawn one square on
    pixels = _starts(300.0, 400.0)
    misread.pixels = dict(pixels)
    first, rested = _judged(monkeypatch, position, "5", pixels, (misread, misread),
                            (51, 59), drawn_at=50)
    assert first is None
    assert rested is not None and rested.mismatch is not None, rested
