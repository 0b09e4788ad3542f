"""PAWNLED/1 lines (hardware/firmware/pawnled.py), the module both ends of the cable use."""

from __future__ import annotations

import pytest

from hardware.firmware import pawnled
from hardware.firmware.pawnled import LedBoardState, LineError, LineReader, build_line, crc8


def messages(data: bytes) -> list:
    return LineReader().feed(data)


def test_crc8_is_smbus():
    assert crc8(b"123456789") == 0xF4  # the catalogue check value of CRC-8/SMBUS
    assert crc8("") == 0
    assert crc8("?STATE") == crc8(b"?STATE")


@pytest.mark.parametrize("line", [
    pawnled.hello_line("E661A4", "1.0.0"),
    pawnled.greet_line(),
    pawnled.query_state_line(),
    pawnled.ok_line(7),
    pawnled.err_line(7, "crc"),
    pawnled.err_line(None, "long"),
    LedBoardState(4, 2, [0, 1, 2, 4], "steal", 200).line(9),
])
def test_every_line_form_round_trips(line: str):
    assert line.endswith("\n") and len(line) - 1 <= pawnled.MAX_LINE
    (msg,) = messages(line.encode())
    assert isinstance(msg, pawnled.Message)
    assert msg.text + "\n" == line
    assert msg.verb == line.split(" ")[0].split("*")[0]


def test_the_spec_examples_parse_to_their_fields():
    (hello,) = messages(pawnled.hello_line("ABC", "1.0.0").encode())
    assert hello.fields == {"dev": "pawnled", "proto": "1", "fw": "1.0.0", "leds": "20",
                            "uid": "ABC"}
    (err,) = messages(pawnled.err_line(12, "crc").encode())
    assert (err.verb, err.fields) == ("-ERR", {"seq": "12", "code": "crc"})


def test_state_lines_carry_the_whole_state():
    sent = LedBoardState(3, None, [0, 4, 2], "win", 255, "gyb")
    (msg,) = messages(sent.line(41).encode())
    got = pawnled.state_from_message(msg)
    assert got == sent and got.seq == 41
    assert (got.players, got.turn, got.home, got.alert, got.bri, got.colors) == (
        3, None, (0, 4, 2), "win", 255, "gyb")


def test_unknown_fields_are_ignored_and_missing_colours_default_to_seating():
    body = "=STATE seq=1 players=2 turn=1 home=3,0 alert=none bri=10 future=yes"
    (msg,) = messages(build_line(body).encode())
    state = pawnled.state_from_message(msg)
    assert (state.turn, state.home, state.colors) == (1, (3, 0), "rb")


def test_an_unknown_alert_shows_the_state_without_it():
    body = "=STATE seq=1 players=2 turn=0 home=1,1 alert=fireworks bri=10"
    (msg,) = messages(build_line(body).encode())
    assert pawnled.state_from_message(msg).alert == "none"


@pytest.mark.parametrize("body", [
    "=STATE seq=1 players=5 turn=0 home=1,1,1,1,1 alert=none bri=1",
    "=STATE seq=1 players=2 turn=2 home=1,1 alert=none bri=1",
    "=STATE seq=1 players=2 turn=0 home=1 alert=none bri=1",
    "=STATE seq=1 players=2 turn=0 home=1,5 alert=none bri=1",
    "=STATE seq=1 players=2 turn=0 home=1,1 alert=none bri=256",
    "=STATE seq=x players=2 turn=0 home=1,1 alert=none bri=1",
])
def test_a_state_that_makes_no_sense_is_refused_as_bad(body: str):
    (msg,) = messages(build_line(body).encode())
    with pytest.raises(LineError) as err:
        pawnled.state_from_message(msg)
    assert err.value.code == "bad"


def test_a_bad_checksum_is_a_crc_error_that_still_names_the_seq():
    line = LedBoardState(2, 0, [1, 1]).line(5)
    broken = line.replace("home=1,1", "home=1,2")
    (err,) = messages(broken.encode())
    assert isinstance(err, LineError) and (err.code, err.seq) == ("crc", 5)


@pytest.mark.parametrize("raw", [b"?STATE\n", b"?STATE*A\n", b"?STATE*a4\n", b"?STATE*ZZ\n"])
def test_a_missing_or_malformed_checksum_is_a_crc_error(raw: bytes):
    (err,) = messages(raw)
    assert isinstance(err, LineError) and err.code == "crc"


def test_an_unknown_verb_is_a_verb_error():
    (err,) = messages(build_line("=COLOUR red").encode())
    assert isinstance(err, LineError) and err.code == "verb"


def test_over_long_lines_are_dropped_to_their_newline_and_reported_once():
    long = b"=STATE seq=3 " + b"x" * 300 + b"\n"
    items = messages(long + pawnled.query_state_line().encode())
    assert [type(i).__name__ for i in items] == ["LineError", "Message"]
    assert items[0].code == "long" and items[0].seq == 3
    assert items[1].verb == "?STATE"


def test_a_line_of_exactly_120_characters_is_accepted():
    body = "?STATE pad=" + "p" * (pawnled.MAX_LINE - 3 - len("?STATE pad="))
    line = build_line(body)
    assert len(line) == pawnled.MAX_LINE + 1
    (msg,) = messages(line.encode())
    assert msg.verb == "?STATE"
    with pytest.raises(LineError):
        build_line(body + "p")


def test_noise_before_a_verb_is_skipped_so_the_stream_resynchronises():
    noise = bytes(range(0, 33)) + b"\xff\xfegarbage*ZZ"
    items = messages(noise + pawnled.ok_line(1).encode() + b"\r\n" + pawnled.ok_line(2).encode())
    assert [i.fields["seq"] for i in items] == ["1", "2"]


def test_bytes_that_are_not_printable_ascii_spoil_their_line_only():
    bad = b"+OK seq=1\x00\x81*00\n"
    items = messages(bad + pawnled.ok_line(2).encode())
    assert isinstance(items[0], LineError) and items[0].code == "crc"
    assert items[1].fields == {"seq": "2"}


def test_a_line_split_across_reads_is_joined():
    line = pawnled.hello_line("U1", "1.0.0").encode()
    reader = LineReader()
    got = [item for i in range(len(line)) for item in reader.feed(line[i:i + 1])]
    assert len(got) == 1 and got[0].fields["uid"] == "U1"


def test_proto_major():
    assert [pawnled.proto_major(v) for v in ("1", "1.4", "2", "x", "")] == [1, 1, 2, None, None]
