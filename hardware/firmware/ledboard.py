"""What the HOME LED board does with the lines it receives: the firmware's whole behaviour.

Plain Python for MicroPython and CPython alike: the Pico's main.py feeds it the bytes of
the USB serial line and the clock, and so does the simulator, so both behave the same
and the tests run on the host with a fake strip. A strip is anything with
`strip[i] = (r, g, b)` and `strip.write()`, like MicroPython's `neopixel.NeoPixel`.

Times are milliseconds from any clock (MicroPython's `time.ticks_ms()`); pass
`time.ticks_diff` as `ticks_diff` where the clock wraps around.
"""

try:
    import pawnled  # on the Pico the files sit side by side
except ImportError:
    from hardware.firmware import pawnled

FW_VERSION = "1.0.0"
HELLO_EVERY_MS = 1000  # announce once a second until the host greets the board
WAITING_AFTER_MS = 6000  # no valid =STATE for this long: show the waiting pulse
PULSE_PERIOD_MS = 4000  # one slow breath of the waiting pulse
PULSE_PEAK = 48  # the pulse stays dim: it says "waiting", not "look at me"
BLINK_MS = 250  # alert blink half-period

OFF = (0, 0, 0)
SEAT_RGB = {"r": (255, 0, 0), "b": (0, 40, 255), "y": (255, 170, 0), "g": (0, 255, 0)}
ALERT_RGB = {
    "21": (255, 200, 0),
    "bust": (255, 0, 0),
    "steal": (255, 0, 255),
    "block": (0, 255, 255),
    "win": (255, 255, 255),
}
TURN_LED0 = pawnled.SEATS * pawnled.PAWNS  # the turn LEDs follow the 16 pawn LEDs


def _subtract(later, earlier):
    return later - earlier


def scaled(rgb, bri):
    """A colour at brightness `bri` (0-255), in whole numbers as the strip wants."""
    return (rgb[0] * bri // 255, rgb[1] * bri // 255, rgb[2] * bri // 255)


class LedBoard:
    """The board: answers host lines, announces itself, and lights the strip."""

    def __init__(self, strip, uid, now, ticks_diff=None):
        self.strip = strip
        self.uid = uid
        self.reader = pawnled.LineReader()
        self.state = None  # the last valid LedBoardState
        self.greeted = False
        self.errors = 0  # lines refused since boot
        self.faults = 0  # lines or frames the firmware itself failed on (a bug; goal 0)
        self._diff = ticks_diff or _subtract
        self._state_at = now  # "waiting" counts from boot until the first state
        self._hello_at = None
        self._shown = None

    # --- lines ---

    def hello(self):
        return pawnled.hello_line(self.uid, FW_VERSION)

    def receive(self, data, now):
        """Bytes from the host in; the answer lines (str, with newline) out. Never raises:
        a line the board fails on is answered `-ERR ... code=fault` and counted in
        `faults`, and the board goes on with the next line."""
        replies = []
        try:
            items = self.reader.feed(data)
        except Exception:  # the board must keep serving whatever comes
            self.reader = pawnled.LineReader()
            items = [pawnled.LineError("fault", "the line reader failed")]
        for item in items:
            try:
                if isinstance(item, pawnled.LineError):
                    self.errors += 1
                    replies.append(pawnled.err_line(item.seq, item.code))
                else:
                    replies.extend(self._handle(item, now))
            except Exception:  # a bug on one line: answered, counted, never raised
                self.faults += 1
                replies.append(pawnled.err_line(None, "fault"))
        return replies

    def _handle(self, msg, now):
        if msg.verb == "?HELLO":
            self.greeted = True
            return [self.hello()]
        if msg.verb == "?STATE":
            state = self.state or pawnled.LedBoardState(0, None, [], "none", 0)
            return [state.line()]
        if msg.verb == "=STATE":
            try:
                state = pawnled.state_from_message(msg)
            except pawnled.LineError as err:
                self.errors += 1
                return [pawnled.err_line(err.seq, err.code)]
            self.state = state
            self.greeted = True
            self._state_at = now
            return [pawnled.ok_line(state.seq)]
        self.errors += 1  # a board's own verb sent to the board
        return [pawnled.err_line(pawnled.seq_of(msg.text), "verb")]

    def tick(self, now):
        """Call often: lights the strip, and returns any line the board says by itself."""
        replies = []
        if self.waiting(now):
            self.greeted = False  # the host has gone quiet: announce again for the next one
        if not self.greeted and (
            self._hello_at is None or self._diff(now, self._hello_at) >= HELLO_EVERY_MS
        ):
            self._hello_at = now
            replies.append(self.hello())
        self.show(now)
        return replies

    # --- lights ---

    def waiting(self, now):
        """True after 6 s without a valid =STATE: old information is not shown."""
        return self._diff(now, self._state_at) >= WAITING_AFTER_MS

    def pixels(self, now):
        """The colour of every LED now: 16 pawn LEDs by seat, then 4 turn LEDs."""
        px = [OFF] * pawnled.LEDS
        since = self._diff(now, self._state_at)
        if self.waiting(now) or self.state is None:
            start = 0 if self.state is None else WAITING_AFTER_MS  # each pulse starts dark
            phase = (since - start) % PULSE_PERIOD_MS
            half = PULSE_PERIOD_MS // 2
            level = (phase if phase < half else PULSE_PERIOD_MS - phase) * PULSE_PEAK // half
            for seat in range(pawnled.SEATS):
                px[TURN_LED0 + seat] = (level, level * 3 // 4, level // 2)
            return px
        st = self.state
        colors = [scaled(SEAT_RGB[c], st.bri) for c in st.colors]
        for seat in range(st.players):
            for pawn in range(st.home[seat]):
                px[seat * pawnled.PAWNS + pawn] = colors[seat]
        if st.turn is not None:
            px[TURN_LED0 + st.turn] = colors[st.turn]
        if st.alert != "none" and st.players:
            step = since // BLINK_MS
            for seat in range(pawnled.SEATS):
                if st.alert == "win":
                    px[TURN_LED0 + seat] = colors[(seat + step) % st.players]
                elif step % 2 == 0:
                    px[TURN_LED0 + seat] = scaled(ALERT_RGB[st.alert], st.bri)
        return px

    def show(self, now):
        """Write the strip, only when a pixel changed (a write takes the Pico ~1 ms)."""
        px = self.pixels(now)
        if px == self._shown:
            return False
        for i in range(len(px)):
            self.strip[i] = px[i]
        self.strip.write()
        self._shown = px
        return True
