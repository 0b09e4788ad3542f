"""PAWNLED/1, the HOME LED board's serial protocol: CRC, building and parsing lines.

One module for both ends of the cable: the Pico's firmware, the board simulator and the
companion's host all use it, so they cannot disagree about a line. It runs unchanged on
MicroPython and CPython, which is why it has no typing imports, no dataclasses, no
annotations, and f-strings only in the forms MicroPython compiles: no `!r`, never
two side by side (see docs/spec/LEDBOARD.md; tests/hardware checks this).

>>> build_line("?STATE")
'?STATE*A4\\n'
>>> reader = LineReader()
>>> [m.verb for m in reader.feed(b"noise?STATE*A4\\n")]
['?STATE']
"""

PROTO = 1
MAX_SEQ = 4294967295  # a sequence number is 32 bits; a longer one is not echoed
MAX_LINE = 120  # characters of a line, `*CS` included, `\n` not
VERB_CHARS = "!?=+-"
VERBS = ("!HELLO", "?HELLO", "=STATE", "?STATE", "+OK", "-ERR")
ALERTS = ("none", "21", "bust", "steal", "block", "win")
SEATS = 4
PAWNS = 4
LEDS = SEATS * PAWNS + SEATS  # 4 x 4 pawn LEDs, then one turn LED per seat
COLOR_CODES = "rbyg"
HEX_DIGITS = "0123456789ABCDEF"  # red, blue, yellow, green: the seating order of RULES.md


def _crc_table():
    table = bytearray(256)
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table[byte] = crc
    return bytes(table)


_TABLE = _crc_table()


def crc8(data):
    """CRC-8/SMBUS (polynomial 0x07, initial 0, no reflection) of bytes or an ASCII str."""
    if isinstance(data, str):
        data = data.encode()
    crc = 0
    for byte in data:
        crc = _TABLE[crc ^ byte]
    return crc


class LineError(Exception):
    """A line the protocol refuses; `code` goes into the `-ERR` answer.

    Codes: `crc` (bad or missing checksum, or not ASCII), `long` (over 120 characters),
    `verb` (unknown verb), `bad` (a known verb with fields that make no sense), `fault`
    (the board failed on the line itself: a firmware bug, reported instead of raised).
    """

    def __init__(self, code, message, seq=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.seq = seq


class Message:
    """One valid line: its verb (`=STATE`), its `key=value` fields and its text."""

    def __init__(self, verb, fields, text):
        self.verb = verb
        self.fields = fields
        self.text = text

    def __repr__(self):
        return "Message(" + repr(self.text) + ")"


def build_line(body):
    """`body` plus `*CS` and the newline; refuses a body the board would drop as too long."""
    if len(body) + 3 > MAX_LINE:
        raise LineError("long", f"a PAWNLED line is at most {MAX_LINE} characters")
    return f"{body}*{crc8(body):02X}\n"


def _fields(words):
    fields = {}
    for word in words:
        key, sep, value = word.partition("=")
        if sep:
            fields[key] = value
    return fields


def _digits(value):
    """Only ASCII digits: str.isdigit() also says yes to "²", which int() refuses."""
    return value != "" and all(c in "0123456789" for c in value)


def seq_of(text):
    """The `seq=` of a line even when its checksum is wrong, for the `-ERR` answer."""
    for word in text.split(" "):
        if word.startswith("seq="):
            value = word[4:].split("*")[0]
            if _digits(value) and len(value) <= 10 and int(value) <= MAX_SEQ:
                return int(value)
    return None


def parse_line(text):
    """A line without its newline to a Message; raises LineError for anything refused."""
    if len(text) > MAX_LINE:
        raise LineError("long", f"line over {MAX_LINE} characters", seq_of(text))
    star = text.rfind("*")
    checksum = text[star + 1:]
    if star < 0 or len(checksum) != 2:
        raise LineError("crc", "line has no *CS checksum", seq_of(text))
    body = text[:star]
    if not all(c in HEX_DIGITS for c in checksum):
        raise LineError("crc", "checksum " + repr(checksum) + " is not two upper-case hex digits",
                        seq_of(text))
    if int(checksum, 16) != crc8(body):
        raise LineError("crc", f"checksum {checksum} does not match {crc8(body):02X}",
                        seq_of(text))
    words = body.split(" ")
    verb = words[0]
    if verb not in VERBS:
        raise LineError("verb", "unknown verb " + repr(verb), seq_of(text))
    return Message(verb, _fields(words[1:]), text)


class LineReader:
    """Cuts a byte stream into Messages and LineErrors.

    Bytes before a verb character are dropped, so a stream that starts mid-line, or
    carries noise, resynchronises by itself. An over-long line is dropped up to its
    newline and reported once as a `long` LineError; a line with bytes outside printable
    ASCII is reported as a `crc` LineError. `feed` returns the items in stream order.
    """

    def __init__(self):
        self._buf = bytearray()
        self._in_line = False
        self._overlong = False

    def feed(self, data):
        items = []
        for byte in data:
            if byte == 10:  # \n
                if self._in_line:
                    items.append(self._finish())
                self._reset()
            elif not self._in_line:
                if chr(byte) in VERB_CHARS:
                    self._in_line = True
                    self._buf.append(byte)
            elif self._overlong or byte == 13:  # \r is tolerated and dropped
                continue
            elif len(self._buf) >= MAX_LINE:
                self._overlong = True
            else:
                self._buf.append(byte)
        return items

    def _finish(self):
        raw = bytes(self._buf)
        if self._overlong:
            return LineError("long", f"line over {MAX_LINE} characters",
                             seq_of(_ascii(raw)))
        for byte in raw:
            if byte < 32 or byte > 126:
                return LineError("crc", "line has bytes that are not printable ASCII",
                                 seq_of(_ascii(raw)))
        try:
            return parse_line(raw.decode())
        except LineError as err:
            return err

    def _reset(self):
        self._buf = bytearray()
        self._in_line = False
        self._overlong = False


def _ascii(raw):
    return "".join(chr(b) if 32 <= b <= 126 else "?" for b in raw)


# --- the lines of the protocol ---


def hello_line(uid, fw, leds=LEDS, dev="pawnled", proto=PROTO):
    return build_line(f"!HELLO dev={dev} proto={proto} fw={fw} leds={leds} uid={uid}")


def greet_line(proto=PROTO):
    return build_line(f"?HELLO proto={proto}")


def query_state_line():
    return build_line("?STATE")


def ok_line(seq):
    return build_line(f"+OK seq={seq}")


def err_line(seq, code):
    """The refusal of a line; never raises: a seq or code that would make it too long is
    left out (`seq=-`, code `bad`), so no input line can stop the board answering."""
    if not (isinstance(seq, int) and 0 <= seq <= MAX_SEQ):
        seq = None
    if not (isinstance(code, str) and 0 < len(code) <= 8):
        code = "bad"
    return build_line("-ERR seq={} code={}".format("-" if seq is None else seq, code))


def proto_major(value):
    """The major number of a `proto=` value ("1", "1.2" -> 1); None if it is not one."""
    head = str(value).split(".")[0]
    return int(head) if _digits(head) else None


class LedBoardState:
    """What the board shows: the whole state of one `=STATE` line.

    players: 0-4 seats in play; turn: the seat whose turn it is or None; home: HOME pawn
    count per seat (0-4); alert: one of ALERTS; bri: brightness 0-255; colors: one
    letter of COLOR_CODES per seat (an optional field, `col=`, beyond the spec's minimum:
    older boards ignore it and light the seats in seating order).
    """

    def __init__(self, players, turn, home, alert="none", bri=64, colors=None, seq=0):
        self.players = players
        self.turn = turn
        self.home = tuple(home)
        self.alert = alert
        self.bri = bri
        self.colors = "".join(colors) if colors is not None else COLOR_CODES[:players]
        self.seq = seq

    def key(self):
        """Everything shown, without the sequence number: equal keys light the same LEDs."""
        return (self.players, self.turn, self.home, self.alert, self.bri, self.colors)

    def __eq__(self, other):
        return isinstance(other, LedBoardState) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return f"LedBoardState({self.body()})"

    def body(self, seq=None):
        turn = "-" if self.turn is None else self.turn
        home = ",".join(str(h) for h in self.home)
        colors = ",".join(self.colors)
        number = self.seq if seq is None else seq
        return (f"=STATE seq={number} players={self.players} turn={turn} home={home} "
                + f"alert={self.alert} bri={self.bri} col={colors}")

    def line(self, seq=None):
        """The `=STATE` line, numbered `seq` (default: the state's own number)."""
        return build_line(self.body(seq))


def _small_int(fields, key, low, high):
    value = fields.get(key, "")
    if not _digits(value) or not low <= int(value) <= high:
        raise LineError("bad", f"{key}={value} is not a whole number from {low} to {high}",
                        _seq_of_fields(fields))
    return int(value)


def _seq_of_fields(fields):
    return seq_of("seq=" + fields.get("seq", ""))


def state_from_message(msg):
    """The LedBoardState of a `=STATE` Message; LineError `bad` when a field is wrong."""
    f = msg.fields
    seq = _small_int(f, "seq", 0, MAX_SEQ)
    players = _small_int(f, "players", 0, SEATS)
    turn_text = f.get("turn", "-")
    if turn_text != "-" and players == 0:  # no seat for the turn LED: LedBoard.tick needs one
        raise LineError("bad", "turn needs players from 1 to 4 (turn=- with players=0)", seq)
    turn = None if turn_text == "-" else _small_int(f, "turn", 0, players - 1)
    home_text = f.get("home", "")
    parts = home_text.split(",") if home_text else []
    if len(parts) != players or not all(_digits(p) and int(p) <= PAWNS for p in parts):
        raise LineError("bad", f"home={home_text} needs {players} counts from 0 to {PAWNS}", seq)
    alert = f.get("alert", "none")
    if alert not in ALERTS:
        alert = "none"  # a newer host's alert: show the state without it
    bri = _small_int(f, "bri", 0, 255) if "bri" in f else 64
    colors = None
    col_text = f.get("col", "")
    if col_text:
        letters = tuple(col_text.split(","))
        if len(letters) == players and all(c in COLOR_CODES and len(c) == 1 for c in letters):
            colors = "".join(letters)
    return LedBoardState(players, turn, [int(p) for p in parts], alert, bri, colors, seq)
