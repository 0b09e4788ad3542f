"""Issues 9 and 21: no line, however long or strange, makes the board raise.

Hypothesis feeds the parser and a LedBoard random lines, mutations of valid =STATE lines
(re-checksummed, so they reach the field checks) and lines near and over the 120-character
limit with long sequence numbers (issue 21: a 114-character line whose `-ERR` answer would
be too long raised), then ticks the board across the pulse, blink and waiting periods.
Exceptions are counted, not stopped at, so `make fuzz` reports how many lines raised; the
goal, and the assertion, is 0. FIRMWARE_FUZZ_LINES sets the number of lines (`make fuzz`:
200,000; `make test`: a few thousand).
"""

from __future__ import annotations

import contextlib
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.firmware import pawnled
from hardware.firmware.ledboard import OFF, LedBoard

LINES = int(os.environ.get("FIRMWARE_FUZZ_LINES", "2000"))
BATCH = 50
FED = {"lines": 0, "accepted": 0, "exceptions": 0}
RAISED: list[str] = []  # the first few lines that raised, for the failure message

FIELDS = ("seq", "players", "turn", "home", "alert", "bri", "col")
VALUES = st.one_of(
    st.sampled_from(["0", "1", "2", "3", "4", "5", "-", "", "-1", "99999999999", "²", "٣",
                     "0,0", "4,4,4,4", "5,0", "1,,2", "r,b", "r,b,y,g", "x", "none", "win",
                     "bust", "255", "256"]),
    st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=12),
    st.text(max_size=6),
)


class Strip(list):
    def __init__(self) -> None:
        super().__init__([OFF] * pawnled.LEDS)

    def write(self) -> None:
        assert len(self) == pawnled.LEDS


@st.composite
def state_line(draw) -> str:
    """A valid =STATE line with 0 to 3 of its fields dropped, replaced or added, checksummed."""
    players = draw(st.integers(0, 4))
    fields = {
        "seq": str(draw(st.integers(0, 2**32 - 1))),
        "players": str(players),
        "turn": ("-" if players == 0 or draw(st.booleans())
                 else str(draw(st.integers(0, players - 1)))),
        "home": ",".join(str(draw(st.integers(0, 4))) for _ in range(players)),
        "alert": draw(st.sampled_from(pawnled.ALERTS)),
        "bri": str(draw(st.integers(0, 255))),
        "col": ",".join(draw(st.permutations("rbyg"))[:players]),
    }
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from(FIELDS))
        if draw(st.integers(0, 3)) == 0:
            fields.pop(key, None)
        else:
            fields[key] = draw(VALUES)
    words = ["=STATE", *(f"{k}={v}" for k, v in fields.items())]
    if draw(st.integers(0, 9)) == 0:
        words = draw(st.permutations(words))
    body = " ".join(words)
    return f"{body}*{pawnled.crc8(body.encode('utf-8', 'replace')):02X}"


@st.composite
def long_line(draw) -> str:
    """A line of 100-140 characters, its seq a long run of digits, checksummed or not."""
    verb = draw(st.sampled_from([*pawnled.VERBS, "=STATEX", "?"]))
    digits = "9" * draw(st.integers(1, 130))
    pad = "x" * draw(st.integers(0, 40))
    body = f"{verb} seq={digits} {pad}"[: draw(st.integers(100, 140))]
    if draw(st.booleans()):
        return f"{body}*{pawnled.crc8(body):02X}"
    return f"{body}*00"


LINE = st.one_of(
    state_line(),
    long_line(),
    st.text(max_size=130),
    st.binary(max_size=130).map(lambda b: b.decode("latin-1")),
    st.sampled_from(["?STATE*A4", "?HELLO proto=1", "+OK seq=1", "-ERR seq=- code=crc"])
    .map(lambda body: body if "*" in body else f"{body}*{pawnled.crc8(body):02X}"),
)


@settings(max_examples=max(1, LINES // BATCH), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck), database=None)
@given(st.lists(LINE, min_size=BATCH, max_size=BATCH), st.integers(0, 40_000))
def test_no_line_the_parser_accepts_crashes_the_board(lines, start):
    board = LedBoard(Strip(), "fuzz", start)
    for n, text in enumerate(lines):
        FED["lines"] += 1
        try:
            msg = pawnled.parse_line(text)
        except pawnled.LineError:
            msg = None
        if msg is not None and msg.verb == "=STATE":
            try:
                state = pawnled.state_from_message(msg)
            except pawnled.LineError:
                state = None
            if state is not None:
                FED["accepted"] += 1
                assert 0 <= state.players <= pawnled.SEATS
                assert state.turn is None or 0 <= state.turn < state.players
                assert len(state.home) == state.players
                assert all(0 <= h <= pawnled.PAWNS for h in state.home)
        data = text.encode("utf-8", "surrogatepass") + b"\n"
        now = start + n * 97
        try:
            board.receive(data, now)
            for later in (now, now + 250, now + 6000, now + 9000):
                board.tick(later)
        except Exception as exc:  # counted: the figure `make fuzz` reports
            FED["exceptions"] += 1
            if len(RAISED) < 5:
                RAISED.append(f"{text[:140]!r}: {exc!r}")
            board = LedBoard(Strip(), "fuzz", now)  # as the Pico would after a reset
        assert board.faults == 0, f"the board answered code=fault to {text[:140]!r}"


def test_the_crashing_line_of_the_issue_is_refused():
    board = LedBoard(Strip(), "u", 0)
    body = "=STATE seq=1 players=0 turn=0 home= alert=none bri=64"
    replies = board.receive(f"{body}*{pawnled.crc8(body):02X}\n".encode(), 0)
    assert replies == [pawnled.err_line(1, "bad")]
    board.tick(10)


def test_unicode_digits_are_refused_not_a_valueerror():
    body = "=STATE seq=² players=2 turn=0 home=0,0"
    try:
        pawnled.state_from_message(pawnled.parse_line(f"{body}*{pawnled.crc8(body.encode()):02X}"))
    except pawnled.LineError as err:
        assert err.code in ("bad", "crc")


def test_a_line_whose_answer_would_be_too_long_is_refused_with_err():
    """Issue 21, finding 10: the `-ERR` answer echoed a 100-digit seq and was too long."""
    board = LedBoard(Strip(), "u", 0)
    for body in ("=STATE seq=" + "9" * 100 + " x", "?STATE seq=" + "1" * 105):
        replies = board.receive(f"{body}*00\n".encode(), 0)
        assert replies == [pawnled.err_line(None, "crc")], body
    replies = board.receive(b"=" + b"9" * 300 + b"\n", 0)
    assert replies == [pawnled.err_line(None, "long")]
    assert board.faults == 0


def test_a_fault_inside_the_board_is_answered_not_raised():
    """Anything the board fails on (a bug) is one `-ERR code=fault` and the board goes on."""
    board = LedBoard(Strip(), "u", 0)

    def broken(msg: object, now: int) -> list[str]:
        raise ZeroDivisionError("a firmware bug")

    board._handle = broken  # type: ignore[method-assign]
    body = "?STATE"
    replies = board.receive(f"{body}*{pawnled.crc8(body):02X}\n?HELLO*01\n".encode(), 0)
    assert replies == [pawnled.err_line(None, "fault"), pawnled.err_line(None, "crc")]
    assert board.faults == 1


def test_the_fuzz_fed_every_line():
    """Runs after the fuzz test in this module (pytest keeps file order)."""
    assert FED["lines"] >= (LINES // BATCH) * BATCH
    assert FED["accepted"] > 0
    print(f"firmware fuzz: {FED['lines']} lines, {FED['accepted']} accepted =STATE, "
          f"{FED['exceptions']} exceptions")
    assert FED["exceptions"] == 0, "\n".join(RAISED)


class _Stop(BaseException):
    """Ends the firmware's endless loop in the test (not an Exception: the loop lets it by)."""


def test_main_loop_reports_a_fault_and_keeps_serving():
    """main.py runs with stand-ins for the Pico's modules: the first read from the USB line
    fails, the loop answers `-ERR code=fault` and then answers the host's next line."""
    import builtins
    import importlib
    import types
    from pathlib import Path

    body = "?STATE"
    incoming = bytearray(f"{body}*{pawnled.crc8(body):02X}\n".encode())
    reads = {"n": 0}
    out = bytearray()

    class Stdin:
        def read(self, n: int) -> bytes:
            reads["n"] += 1
            if reads["n"] == 1:
                raise OSError(5, "USB hiccup")
            chunk = bytes(incoming[:n])
            del incoming[:n]
            return chunk

    class Poll:
        def register(self, *args: object) -> None:
            pass

        def poll(self, timeout: int) -> bool:
            return bool(incoming)

    ticks = {"now": 0}

    def ticks_ms() -> int:
        ticks["now"] += 5
        if ticks["now"] > 2000:
            raise _Stop
        return ticks["now"]

    pin = types.SimpleNamespace(value=lambda: 1)
    fakes = {
        "machine": types.SimpleNamespace(Pin=type("Pin", (), {
            "IN": 0, "PULL_UP": 1, "__new__": lambda cls, *a: pin}),
            unique_id=lambda: b"\x01\x02"),
        "micropython": types.SimpleNamespace(kbd_intr=lambda n: None),
        "neopixel": types.SimpleNamespace(NeoPixel=lambda pin, n: Strip()),
        "select": types.SimpleNamespace(poll=Poll, POLLIN=1),
        "sys": types.SimpleNamespace(
            stdin=types.SimpleNamespace(buffer=Stdin()),
            stdout=types.SimpleNamespace(buffer=types.SimpleNamespace(write=out.extend))),
        "time": types.SimpleNamespace(ticks_ms=ticks_ms, ticks_diff=lambda a, b: a - b,
                                      sleep_ms=lambda ms: None),
    }

    def pico_import(name: str, *args: object, **kwargs: object) -> object:
        if name in fakes:
            return fakes[name]
        try:  # the firmware's own modules sit side by side on the Pico
            return importlib.import_module(f"hardware.firmware.{name}")
        except ImportError:
            return builtins.__import__(name, *args, **kwargs)  # type: ignore[arg-type]

    source = (Path(pawnled.__file__).parent / "main.py").read_text()
    scope = {"__name__": "main", "__builtins__": {**vars(builtins), "__import__": pico_import}}
    with contextlib.suppress(_Stop):
        exec(compile(source, "main.py", "exec"), scope)
    lines = [line for line in out.decode().splitlines() if not line.startswith("!HELLO")]
    assert lines[0] == pawnled.err_line(None, "fault").strip()
    assert any(line.startswith("=STATE") for line in lines[1:]), lines
