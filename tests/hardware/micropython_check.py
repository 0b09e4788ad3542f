# Runs under MicroPython's unix port (see test_firmware_ledboard.py), not under pytest:
# the firmware's protocol and LED board modules exercised by the interpreter the Pico runs.
# Prints "ok N" when every check passed; any failure raises and exits non-zero.
import ledboard
import pawnled

checks = 0


def check(cond, what):
    global checks
    if not cond:
        raise AssertionError(what)
    checks += 1


class Strip:
    def __init__(self):
        self.px = [(0, 0, 0)] * pawnled.LEDS
        self.writes = 0

    def __setitem__(self, i, rgb):
        self.px[i] = rgb

    def write(self):
        self.writes += 1


check(pawnled.crc8(b"123456789") == 0xF4, "crc8 check value")
check(pawnled.build_line("?STATE") == "?STATE*A4\n", "build_line")
strip = Strip()
b = ledboard.LedBoard(strip, "MPY", 0)
hello = pawnled.LineReader().feed(b.tick(0)[0].encode())[0]
check(hello.verb == "!HELLO" and hello.fields["uid"] == "MPY", "hello")
state = pawnled.LedBoardState(3, 1, [2, 0, 4], "steal", 255, "rbg")
replies = b.receive(state.line(9).encode(), 10)
ok = pawnled.LineReader().feed(replies[0].encode())[0]
check(ok.verb == "+OK" and ok.fields["seq"] == "9", "ok")
check(b.state == state and b.state.home == (2, 0, 4), "state kept")
b.tick(300)
check(strip.px[0] == ledboard.SEAT_RGB["r"] and strip.px[8] == ledboard.SEAT_RGB["g"], "pixels")
bad = state.line(10).replace("home=2,0,4", "home=4,4,4")
err = pawnled.LineReader().feed(b.receive(bad.encode(), 20)[0].encode())[0]
check(err.verb == "-ERR" and err.fields["code"] == "crc" and err.fields["seq"] == "10", "crc")
long = b.receive(b"=STATE " + b"x" * 200 + b"\n", 30)
check("code=long" in long[0], "long")
noise = b.receive(b"\x00\xff" + pawnled.query_state_line().encode(), 40)
check(pawnled.state_from_message(pawnled.LineReader().feed(noise[0].encode())[0]) == state,
      "query after noise")
check(not b.waiting(5000) and b.waiting(10 + ledboard.WAITING_AFTER_MS), "waiting")
b.tick(10 + ledboard.WAITING_AFTER_MS + 1000)
check(strip.px[0] == ledboard.OFF and strip.px[ledboard.TURN_LED0] != ledboard.OFF, "pulse")
print("ok", checks)
