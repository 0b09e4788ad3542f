"""The LED board host over real pseudo-terminals: handshake, updates, reconnects, bad boards."""

from __future__ import annotations

import queue
import threading

import pytest
from hw_helpers import RawBoard, ScriptedClock
from serial.tools.list_ports_common import ListPortInfo

from companion.session import Session
from games.revenge.rules import Card, Play, Press
from hardware.firmware import pawnled
from hardware.ledboardhost import LedBoardHost
from hardware.ledboardlink import check_baud
from hardware.ports import PortConfigError, PortFinder, matching_ports, parse_usb_id
from hardware.simulator import SimulatedLedBoard
from hardware.status import Status, StatusKind

QUICK = {"hello_wait": 0.3, "answer_wait": 5.0, "rescan": 0.1}


def answer_greeting(raw: RawBoard, *replies: bytes | str) -> None:
    """Wait for the host's ?HELLO (so its port is open and flushed), then reply."""
    assert raw.read_until(lambda m: m.verb == "?HELLO"), "the host never greeted"
    for reply in replies:
        raw.write(reply)


class Statuses:
    """Collects the host's status changes (they arrive on its worker thread)."""

    def __init__(self) -> None:
        self.queue: queue.Queue[Status] = queue.Queue()
        self.seen: list[Status] = []

    def __call__(self, status: Status) -> None:
        self.queue.put(status)

    def wait_for(self, kind: StatusKind, timeout: float = 10.0) -> Status:
        for status in self.seen:
            if status.kind is kind:
                self.seen.remove(status)
                return status
        while True:
            try:
                status = self.queue.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no {kind} status within {timeout} s; "
                                     f"saw {[str(s) for s in self.seen]}") from None
            if status.kind is kind:
                return status
            self.seen.append(status)


@pytest.fixture
def statuses() -> Statuses:
    return Statuses()


@pytest.fixture
def sim():
    with SimulatedLedBoard(uid="SIMA") as board:
        yield board


@pytest.fixture
def hosts():
    started: list[LedBoardHost] = []

    def start(ports, statuses: Statuses, **options) -> LedBoardHost:
        options = {**QUICK, **options}
        host = LedBoardHost(ports=ports, on_status=statuses, **options).start()
        started.append(host)
        return host

    yield start
    for host in started:
        host.close()


def showing(state: tuple):
    def check(sim: SimulatedLedBoard) -> bool:
        s = sim.state
        return s is not None and (s.players, s.turn, s.home, s.alert) == state
    return check


# --- the good path ---


def test_handshake_greets_the_board_and_remembers_its_uid(sim, hosts, statuses):
    host = hosts(lambda: [sim.path], statuses, hello_wait=3.0)
    status = statuses.wait_for(StatusKind.CONNECTED)
    assert str(status) == "connected SIMA" and host.status == status
    assert sim.wait_for(lambda s: any(m.verb == "?HELLO" for m in s.received))
    assert sim.ledboard.greeted


def test_a_state_change_reaches_the_board(sim, hosts, statuses, session: Session):
    host = hosts(lambda: [sim.path], statuses)
    host.follow(session)
    statuses.wait_for(StatusKind.CONNECTED)
    assert sim.wait_for(showing((4, 0, (0, 0, 0, 0), "none")))
    session.submit(Play(Card.parse("slide:21")))  # Ana reaches 21; Ben's turn
    assert sim.wait_for(showing((4, 1, (0, 0, 0, 0), "21")))
    session.submit(Press("Cy", session.clock()))
    assert sim.wait_for(showing((4, 1, (0, 0, 0, 0), "steal")))
    session.close_window()  # Cy steals the round
    assert sim.wait_for(showing((4, 1, (0, 0, 1, 0), "steal")))
    assert sim.state.colors == "rbyg" and sim.state.bri == 64


def test_the_board_is_replaced_and_the_new_one_shows_the_state(hosts, statuses, session):
    current = [SimulatedLedBoard(uid="OLD")]
    host = hosts(lambda: [current[0].path], statuses, hello_wait=3.0, rescan=1.0)
    host.follow(session)
    assert statuses.wait_for(StatusKind.CONNECTED).detail == "OLD"
    session.submit(Play(Card.parse("slide:21")))
    session.close_window()  # Ana keeps it: home 1
    assert current[0].wait_for(showing((4, 1, (1, 0, 0, 0), "none")))
    current[0].close()  # unplugged
    gone = statuses.wait_for(StatusKind.RECONNECTING)
    assert "went away" in gone.detail
    session.submit(Play(Card.parse("10")))  # the game goes on meanwhile
    with SimulatedLedBoard(uid="NEW") as new:
        current[0] = new
        assert statuses.wait_for(StatusKind.CONNECTED).detail == "NEW"
        assert new.wait_for(showing((4, 2, (1, 0, 0, 0), "none")))


def test_heartbeat_resends_the_whole_state_every_2_s_of_the_hosts_clock(sim, hosts, statuses,
                                                                     session):
    clock = ScriptedClock(0.0)
    host = hosts(lambda: [sim.path], statuses, clock=clock)
    host.follow(session)
    assert sim.wait_for(lambda s: s.state is not None)

    def states(s: SimulatedLedBoard) -> list[pawnled.Message]:
        return [m for m in s.received if m.verb == "=STATE"]

    first = len(states(sim))
    clock.advance(2.0)
    assert sim.wait_for(lambda s: len(states(s)) > first)
    a, b = (pawnled.state_from_message(m) for m in states(sim)[first - 1:first + 1])
    assert a == b and b.seq > a.seq  # the same state, numbered anew


def test_brightness_can_change_while_running(sim, hosts, statuses, session):
    host = hosts(lambda: [sim.path], statuses)
    host.follow(session)
    assert sim.wait_for(lambda s: s.state is not None and s.state.bri == 64)
    host.set_brightness(200)
    assert sim.wait_for(lambda s: s.state.bri == 200)
    with pytest.raises(ValueError, match="0 to 255"):
        host.set_brightness(256)


# --- boards that misbehave ---


def test_a_board_that_never_answers_is_greeted_then_retried(hosts, statuses):
    raw = RawBoard()
    try:
        hosts(lambda: [raw.path], statuses, answer_wait=0.3)
        assert raw.read_until(lambda m: m.verb == "?HELLO")
        status = statuses.wait_for(StatusKind.ABSENT)
        assert status.detail == (f"the device on {raw.path} did not say !HELLO within 0.6 s; "
                                 "is it a PAWNLED board with its firmware (hardware/README.md)?")
        assert raw.read_until(lambda m: m.verb == "?HELLO")  # it keeps trying
    finally:
        raw.close()


def test_a_board_that_sends_garbage_is_not_taken_for_a_board(hosts, statuses):
    raw = RawBoard()
    try:
        hosts(lambda: [raw.path], statuses, answer_wait=0.5)
        answer_greeting(raw, b"\x00\xffgarbage\n!HELLO but broken\n" + b"=" * 500 + b"\n")
        status = statuses.wait_for(StatusKind.ABSENT)
        assert "did not say !HELLO within 0.8 s (2 garbled lines)" in status.detail
    finally:
        raw.close()


def test_a_hello_with_a_bad_crc_is_ignored_until_a_good_one(hosts, statuses):
    raw = RawBoard()
    try:
        hosts(lambda: [raw.path], statuses)
        bad = pawnled.hello_line("BAD", "1.0.0").replace("uid=BAD", "uid=BAX")
        answer_greeting(raw, bad, pawnled.hello_line("GOOD", "1.0.0"))
        assert statuses.wait_for(StatusKind.CONNECTED).detail == "GOOD"
    finally:
        raw.close()


def test_an_err_answer_makes_the_host_send_the_state_again_soon(hosts, statuses, session):
    raw = RawBoard()
    try:
        host = hosts(lambda: [raw.path], statuses, heartbeat=60.0)
        host.follow(session)
        answer_greeting(raw, pawnled.hello_line("R1", "1.0.0"))
        first = raw.read_until(lambda m: m.verb == "=STATE")
        raw.write(pawnled.err_line(int(first.fields["seq"]), "crc"))
        again = raw.read_until(lambda m: m.verb == "=STATE")
        assert again is not None and int(again.fields["seq"]) > int(first.fields["seq"])
        assert pawnled.state_from_message(again) == pawnled.state_from_message(first)
    finally:
        raw.close()


def test_a_board_that_falls_silent_is_dropped_and_rescanned(hosts, statuses, session):
    raw = RawBoard()
    try:
        host = hosts(lambda: [raw.path], statuses, heartbeat=0.1, silence=0.5)
        host.follow(session)
        answer_greeting(raw, pawnled.hello_line("QUIET", "1.0.0"))
        statuses.wait_for(StatusKind.CONNECTED)
        raw.write(b"\x00garbage that is no answer\n")
        status = statuses.wait_for(StatusKind.RECONNECTING)
        assert status.detail == f"the board on {raw.path} stopped answering for 0.5 s"
        assert raw.read_until(lambda m: m.verb == "?HELLO")  # rescanning: greets again
    finally:
        raw.close()


def test_a_different_proto_major_gives_up_on_that_port_and_tries_the_next(hosts, statuses, sim):
    raw = RawBoard()
    try:
        hosts(lambda: [raw.path, sim.path], statuses)
        answer_greeting(raw, pawnled.hello_line("V2", "2.0.0", proto="2.1"))
        gave_up = statuses.wait_for(StatusKind.GAVE_UP)
        assert str(gave_up) == (
            f"gave up: the board on {raw.path} speaks PAWNLED/2.1 but this companion speaks "
            "PAWNLED/1; flash the firmware of this version (hardware/README.md)")
        assert statuses.wait_for(StatusKind.CONNECTED).detail == "SIMA"
    finally:
        raw.close()


def test_a_device_that_is_not_a_pawnled_board_is_given_up(hosts, statuses):
    raw = RawBoard()
    try:
        hosts(lambda: [raw.path], statuses)
        answer_greeting(raw, pawnled.hello_line("X", "1.0", dev="thermostat"))
        assert "'thermostat', not a PAWNLED board" in statuses.wait_for(StatusKind.GAVE_UP).detail
    finally:
        raw.close()


# a bound on the plays waiting for the board's worker's first line (a few seconds of play)
MAX_ROUNDS = 200_000


def test_the_game_never_waits_for_a_stuck_board(hosts, statuses, session):
    """A board that greets and then reads nothing: the pty fills and the host's writes
    block; every play still returns, and the board's worker is the only one waiting."""
    raw = RawBoard()
    try:
        host = hosts(lambda: [raw.path], statuses, heartbeat=0.0)
        host.follow(session)
        answer_greeting(raw, pawnled.hello_line("STUCK", "1.0.0"))
        statuses.wait_for(StatusKind.CONNECTED)
        done = threading.Event()

        def play_a_lot() -> None:
            # 300 plays at least, and on until the board's worker has written to the pty:
            # the engine plays 300 in a few ms, before that worker may even have run once.
            rounds = 0
            while rounds < 300 or (host.lines_sent == 0 and rounds < MAX_ROUNDS):
                session.submit(Play(Card.parse("5")))
                session.undo()
                rounds += 1
            done.set()

        player = threading.Thread(target=play_a_lot)
        player.start()
        assert done.wait(timeout=30), "the game stalled behind the LED board"
        player.join()
        assert session.state.total == 0 and host.lines_sent > 0
    finally:
        raw.close()


def test_a_worker_that_hits_a_bug_keeps_going(hosts, statuses, sim):
    calls = []

    def flaky_ports() -> list[str]:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug in the port finder")
        return [sim.path]

    hosts(flaky_ports, statuses)
    assert "unexpected error" in statuses.wait_for(StatusKind.RECONNECTING).detail
    assert statuses.wait_for(StatusKind.CONNECTED).detail == "SIMA"


def test_a_missing_port_is_absent_and_says_what_it_looks_for(hosts, statuses):
    finder = PortFinder(port="/dev/does-not-exist")
    host = hosts(finder, statuses, looking_for=finder.looking_for)
    assert finder() == []
    assert str(host.status) == "absent: no board at /dev/does-not-exist (ledboard.port)"


# --- finding the board, and settings that cannot work ---


def port(device: str, vid: int | None, pid: int | None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


def test_boards_are_found_by_their_usb_id():
    ports = [port("/dev/ttyACM1", 0x2E8A, 0x0005), port("/dev/ttyUSB0", 0x1A86, 0x7523),
             port("/dev/ttyS0", None, None), port("/dev/ttyACM0", 0x2E8A, 0x0005)]
    assert matching_ports(ports, [(0x2E8A, 0x0005)]) == ["/dev/ttyACM0", "/dev/ttyACM1"]
    finder = PortFinder(ids=("2E8A:0005", "1a86:7523"), list_ports=lambda: ports)
    assert finder() == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyUSB0"]
    assert finder.looking_for == "no USB board with id 2E8A:0005 or 1a86:7523 is plugged in"


def test_a_configured_port_wins_over_usb_ids(sim):
    finder = PortFinder(port=sim.path, list_ports=lambda: [port("/dev/ttyACM0", 0x2E8A, 5)])
    assert finder() == [sim.path]


@pytest.mark.parametrize("text", ["2E8A", "2E8A:05", "ZZZZ:0005", ""])
def test_a_bad_usb_id_is_one_sentence(text):
    with pytest.raises(PortConfigError, match="not a USB id; write it as four hex digits"):
        parse_usb_id(text)


def test_1200_baud_is_never_used():
    with pytest.raises(ValueError, match="must not be 1200"):
        check_baud(1200)
    with pytest.raises(ValueError, match="must not be 1200"):
        LedBoardHost(ports=list, baud=1200)
    assert check_baud(115200) == 115200
