"""Issue 9, finding 7: every line the board's parser accepts is safe for Board.tick.

Hypothesis feeds the parser and a Board random lines and mutations of valid =STATE lines
(re-checksummed, so they reach the field checks), then ticks the board across the pulse,
blink and waiting periods. No exception may escape. FIRMWARE_FUZZ_LINES sets the number of
lines (`make fuzz`: 200,000; `make test`: a few thousand).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardware.firmware import pawnled
from hardware.firmware.board import OFF, Board

LINES = int(os.environ.get("FIRMWARE_FUZZ_LINES", "4000"))
BATCH = 50
FED = {"lines": 0, "accepted": 0}

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


LINE = st.one_of(
    state_line(),
    st.text(max_size=130),
    st.binary(max_size=130).map(lambda b: b.decode("latin-1")),
    st.sampled_from(["?STATE*A4", "?HELLO proto=1", "+OK seq=1", "-ERR seq=- code=crc"])
    .map(lambda body: body if "*" in body else f"{body}*{pawnled.crc8(body):02X}"),
)


@settings(max_examples=max(1, LINES // BATCH), deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck), database=None)
@given(st.lists(LINE, min_size=BATCH, max_size=BATCH), st.integers(0, 40_000))
def test_no_line_the_parser_accepts_crashes_the_board(lines, start):
    board = Board(Strip(), "fuzz", start)
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
        board.receive(data, now)
        for later in (now, now + 250, now + 6000, now + 9000):
            board.tick(later)  # an exception here fails the test: that is the finding


def test_the_crashing_line_of_the_issue_is_refused():
    board = Board(Strip(), "u", 0)
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


def test_the_fuzz_fed_every_line():
    """Runs after the fuzz test in this module (pytest keeps file order)."""
    assert FED["lines"] >= (LINES // BATCH) * BATCH
    assert FED["accepted"] > 0
    print(f"firmware fuzz: {FED['lines']} lines, {FED['accepted']} accepted =STATE, "
          "0 exceptions")
