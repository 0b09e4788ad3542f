"""The app's one configuration file (TOML), with a default for every key.

`load_config()` finds the file ($SORRY_COMPANION_CONFIG, the user's
~/.config/sorry-companion/config.toml, then /etc/sorry-companion/config.toml; none at
all means the defaults) and checks every value. Anything wrong is a ConfigError whose
one sentence names the file, the key, the value and what is allowed, e.g.

    config.toml: [windows] steal_seconds = -1 is not allowed: use a number of seconds from 1 to 60

The CLI shows that sentence and exits with status 2, so a typo never becomes a traceback
on the table. companion/default_config.toml is the app's own defaults, written out, and
each game's folder brings its tables' (games/<name>/config.toml, companion.default_config):
a game's tables are read by the checks its folder gives (Section), here.

>>> load_config("/dev/null").display.size
'800x480'
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any, TypeVar

from companion import plugins
from companion.errors import ConfigError
from companion.limits import CONFIG_LIMIT, PREFS_LIMIT, InputRefused, read_bounded
from companion.paths import (
    CONFIG_ENV,
    SYSTEM_CONFIG,
    default_data_dir,
    expand_home,
    user_config_file,
)
from companion.safe_text import clip, one_line, quote
from companion.seats import MAX_SEATS  # one SORRY! button per seat
from companion.windows import DEFAULT_SECONDS, WINDOW_SECONDS

__all__ = [
    "DEFAULT_SECONDS", "WINDOW_SECONDS", "BackupConfig", "Config", "DisplayConfig",
    "GpioConfig", "LedBoardConfig", "Refused", "Section", "TableProblem", "VoiceConfig",
    "boolean", "choice", "config_from_args", "find_config_file", "load_config", "number",
    "read_small_file", "whole",
]

# Each limit is written here once; the hardware (pin plan, LED board) and the screens
# check against these same values.
BCM_PINS = range(28)  # BCM GPIO0-27: the pins on the 40-pin header of every Pi
BOOTLOADER_BAUD = 1200
BAUDS = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
BRIGHTNESS = (0, 255)  # the LED board's brightness (config, screen, LED board host)
LANGUAGES = ("en", "fr")
# The displays the screens are laid out for (ui/layout.py): three landscape, two portrait.
DISPLAY_SIZES = ("800x480", "1024x600", "1280x720", "480x800", "720x1280")
# [display] text: the Large text setting (ui/layout.py TEXT_SCALES says how much larger)
TEXT_SIZES = ("normal", "large")
ROTATIONS = (0, 90, 180, 270)  # [display] rotation: Kivy's [graphics] rotation, in degrees
IDLE_MINUTES = (0, 24 * 60)  # [display] dim_after, sleep_after (0: never)
VOICE_OUTPUTS = ("auto", "hdmi", "jack", "usb")  # [voice] output (ui/sound_output.py)
VOLUME = (0, 100)  # [voice] volume, a percentage

T = TypeVar("T")


def first_reuse(uses: Iterable[tuple[T, int]]) -> tuple[T, T, int] | None:
    """The first pin given twice among (use, pin) pairs: (first use, second use, pin).

    >>> first_reuse([("pins", 17), ("lamps", 5), ("undo_pin", 17)])
    ('pins', 'undo_pin', 17)
    """
    seen: dict[int, T] = {}
    for use, pin in uses:
        if pin in seen:
            return seen[pin], use, pin
        seen[pin] = use
    return None


def lamps_fit(pins: Sequence[int], lamps: Sequence[int]) -> bool:
    """Lamps are optional, but when there are any there is one per button."""
    return not lamps or len(lamps) == len(pins)


def baud_problem(baud: object) -> str | None:
    """Why the LED board cannot be opened at `baud` (None: it can)."""
    if baud == BOOTLOADER_BAUD and not isinstance(baud, bool):
        return ("1200 baud is the bootloader touch: a Pico or Arduino opened at 1200 baud "
                "restarts into firmware-update mode, so the baud must not be 1200; use 115200")
    if isinstance(baud, bool) or baud not in BAUDS:
        return "use one of " + ", ".join(map(str, BAUDS))
    return None

@dataclass(frozen=True, slots=True)
class VoiceConfig:
    """The spoken totals: the speech program, the sound output it plays on, its volume."""

    enabled: bool = True
    command: str = "espeak-ng"
    output: str = "auto"
    volume: int = 50


@dataclass(frozen=True, slots=True)
class GpioConfig:
    """SORRY! buttons (one BCM pin per seat), their lamps, and the optional extra buttons."""

    enabled: bool = True
    pins: tuple[int, ...] = (17, 27, 22, 23)
    lamps: tuple[int, ...] = ()
    pull_up: bool = True
    lockout_ms: float = 50.0
    undo_pin: int | None = None
    close_pin: int | None = None


@dataclass(frozen=True, slots=True)
class LedBoardConfig:
    """The HOME LED board on USB serial (LEDBOARD.md)."""

    enabled: bool = True
    port: str = ""
    ids: tuple[str, ...] = ("2E8A:0005",)
    baud: int = 115200
    brightness: int = 64


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """Full screen takes the real screen's size; `size` is the window's size otherwise
    (a desktop trying the Pi's displays, landscape or portrait)."""

    fullscreen: bool = False
    size: str = DISPLAY_SIZES[0]
    rotation: int = 0
    dim_after: float = 5.0  # idle minutes before the screen dims (0: never)
    sleep_after: float = 15.0  # idle minutes before it goes dark (0: never)
    text: str = TEXT_SIZES[0]  # every text and the targets holding it: "normal" or "large"


@dataclass(frozen=True, slots=True)
class BackupConfig:
    """Where Menu > Back up looks for a USB stick: folders (shell patterns) that are mount
    points; the first writable one is used."""

    usb_folders: tuple[str, ...] = ("/media/*/*", "/media/*")


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """The camera above the pile (camera/, issue 23): off unless asked for; `source` is
    "picamera", "usb" or "usb:N" (V4L2 /dev/videoN), or a folder of frames; `spot` the
    pile spot as fractions of the picture (x0, y0, x1, y1), empty: the one taught."""

    enabled: bool = False
    source: str = "picamera"
    spot: tuple[float, ...] = ()

    @staticmethod
    def model_file(data_dir: Path, game: str) -> Path:
        """Where the deck taught for `game` is kept: in the data folder, beside the games,
        as camera-<game>.npz, or as the file its camera deck names (DECK_FILE: the board
        game's, whose camera-board.npz is the taught board of BOARD-CAMERA.md)."""
        deck = plugins.layer(game, "camera_deck") if game in plugins.names() else None
        own = getattr(deck, "DECK_FILE", None)
        return Path(data_dir) / (own if isinstance(own, str) else f"camera-{game}.npz")


@dataclass(frozen=True, slots=True)
class Section:
    """A game's own table, [<its name>], from its folder's `config` module (SECTION): the
    class of its values, whose field defaults are the game's, and each key's check (one of
    this module's checks, or any callable raising Refused with what is allowed)."""

    values: type
    keys: dict[str, Callable[[object], Any]]
    # (the key a refusal names, a check of the whole table's values raising Refused): the
    # keys that are only wrong together, checked once every table is read
    together: tuple[str, Callable[[Any], None]] | None = None
    # a table whose keys are not settings (the card game's [deck]: its cards), read whole
    # by its game instead of by `keys`: its values, or Refused (naming the key refused, or
    # else the table) or TableProblem
    read: Callable[[object], object] | None = None


def _game_tables(name: str) -> dict[str, Section]:
    """The tables the game called `name` brings: its SECTION is [<its name>], its SECTIONS
    several named tables; a table named like one of the app's own keeps the app's."""
    module = plugins.layer(name, "config")
    if module is None:
        return {}
    sections: dict[str, Section] = getattr(module, "SECTIONS", None) or {name: module.SECTION}
    return {table: section for table, section in sections.items()
            if table not in (*_SECTIONS, *_TOP)}


def game_sections() -> dict[str, Section]:
    """The tables the games' folders bring, by the table's name: the default game's first
    (they were the app's own before there was another game), then the others' in the
    registry's order."""
    found: dict[str, Section] = {}
    for name in sorted(plugins.names(), key=lambda n: n != plugins.default()):
        found.update(_game_tables(name))
    return found


def table_names(games: dict[str, Section]) -> tuple[str, ...]:
    """Every table, in the order they are read and an unknown one's refusal lists them:
    the default game's first, as when they were the app's own (so that sentence is the
    one it always was), then the app's, then the other games'."""
    first = tuple(table for table in _game_tables(plugins.default()) if table in games)
    return (*first, *_SECTIONS, *(table for table in games if table not in first))


@dataclass(frozen=True, slots=True)
class Config:
    data_dir: Path = field(default_factory=default_data_dir)
    language: str = "en"
    voice: VoiceConfig = VoiceConfig()
    gpio: GpioConfig = GpioConfig()
    ledboard: LedBoardConfig = LedBoardConfig()
    display: DisplayConfig = DisplayConfig()
    backup: BackupConfig = BackupConfig()
    camera: CameraConfig = CameraConfig()
    # the games' tables the file sets, by table name ([board], [windows]), as read
    games: dict[str, object] = field(default_factory=dict)
    source: Path | None = None

    def section(self, table: str) -> object | None:
        """A game's table ([<game>], or one of its SECTIONS: companion.config.Section), as
        the file sets it or else the game's defaults; None: no game has such a table."""
        if table in self.games:
            return self.games[table]
        section = game_sections().get(table)
        return None if section is None else section.values()

    def with_data_dir(self, path: str | os.PathLike[str] | None) -> Config:
        """The same configuration with `--data` applied (None: unchanged)."""
        if path is None:
            return self
        try:
            return dataclasses.replace(self, data_dir=expand_home(path, "--data"))
        except ValueError as exc:
            raise ConfigError(str(exc)) from None


def read_small_file(path: str | os.PathLike[str]) -> bytes:
    """A small file of the app's own beside the config (settings.json, choices.json,
    notices.json): a regular file of at most 1 MiB, else OSError (limits.read_bounded)."""
    return read_bounded(path, PREFS_LIMIT)


def config_from_args(args: Any) -> Config:
    """The configuration a CLI command runs with: `--config` read, `--data` applied."""
    return load_config(getattr(args, "config", None)).with_data_dir(getattr(args, "data", None))


# --- reading the file ---


def find_config_file(path: str | os.PathLike[str] | None = None) -> Path | None:
    """The file to read: the one given, $SORRY_COMPANION_CONFIG, the user's, the system's.

    A file named explicitly (argument or variable) must exist; the usual places are
    simply skipped when empty.
    """
    if path is not None:
        return Path(path)
    env = os.environ.get(CONFIG_ENV, "")
    if env:
        return Path(env)
    for candidate in (user_config_file(), SYSTEM_CONFIG):
        if candidate.is_file():
            return candidate
    return None


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read and check the configuration; ConfigError says exactly what to fix."""
    source = find_config_file(path)
    if source is None:
        return Config()
    try:
        doc = tomllib.loads(read_bounded(source, CONFIG_LIMIT, str(source)).decode("utf-8"))
    except InputRefused as exc:
        raise ConfigError(f"{exc}") from None
    except FileNotFoundError:
        raise ConfigError(
            f"{source}: no such file; check the name given with --config or ${CONFIG_ENV}, "
            "or leave both unset to use the defaults") from None
    except IsADirectoryError:
        raise ConfigError(f"{source}: is a folder, not a file; give the path of "
                          "the config.toml file itself") from None
    except OSError as exc:
        raise ConfigError(f"{source}: cannot be read ({exc.strerror}); "
                          "check the file's permissions") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{source}: is not UTF-8 text; save it as UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: is not valid TOML ({one_line(str(exc))}); fix that line, "
                          "or compare with companion/default_config.toml") from None
    except ValueError as exc:  # an integer of thousands of digits (int() refuses it)
        raise ConfigError(f"{source}: is not valid TOML ({one_line(str(exc), 80)}); "
                          "fix that line") from None
    except RecursionError:
        raise ConfigError(f"{source}: is not valid TOML (arrays or tables nested too deeply); "
                          "fix that line") from None
    return _Reader(source).config(doc)


# --- checking the values ---


class Refused(Exception):
    """A value is wrong; the argument says what is allowed. In a table its game reads
    whole (Section.read), `where` and `value` name the key refused (else: the table)."""

    def __init__(self, allowed: str, where: str | None = None, value: object = None) -> None:
        super().__init__(allowed)
        self.where, self.value = where, value


class TableProblem(Exception):
    """A table its game reads whole (Section.read) is wrong in a way no one value says
    (an unknown card, counts that do not add up): the argument is the whole sentence."""


def _render(value: object) -> str:
    """A value as it would be written in TOML, for messages: at most 80 characters of it,
    control characters escaped (safe_text)."""
    try:
        return clip(_toml_text(value))
    except RecursionError:
        return "a value nested too deeply"


def _toml_text(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return "a whole number of more than 70 digits"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_text(v) for v in value[:20]) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_toml_text(v)}"
                               for k, v in list(value.items())[:20]) + "}"
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return str(value)


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]{1,80}", name) else quote(name)


def number(lo: float, hi: float, unit: str) -> Callable[[object], float]:
    def check(v: object) -> float:
        if (isinstance(v, bool) or not isinstance(v, int | float)
                or (isinstance(v, int) and v.bit_length() > 64) or not math.isfinite(v)
                or not lo <= v <= hi):
            raise Refused(f"use a number of {unit} from {lo:g} to {hi:g}")
        return float(v)
    return check


def whole(lo: int, hi: int, what: str = "") -> Callable[[object], int]:
    def check(v: object) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise Refused(f"use a whole number{what} from {lo} to {hi}")
        return v
    return check


def boolean(v: object) -> bool:
    if not isinstance(v, bool):
        raise Refused("use true or false (without quotes)")
    return v


def choice(*options: str) -> Callable[[object], str]:
    def check(v: object) -> str:
        if v not in options:
            raise Refused("use " + " or ".join(json.dumps(o) for o in options))
        return str(v)
    return check


def _text(v: object) -> str:
    if not isinstance(v, str):
        raise Refused('use a text in quotes, such as "" or "/dev/ttyACM0"')
    return v


def _command(v: object) -> str:
    if not isinstance(v, str) or not v.strip():
        raise Refused('use the name of a speech program in quotes, such as "espeak-ng"')
    return v.strip()


def _rotation(v: object) -> int:
    if isinstance(v, bool) or v not in ROTATIONS:
        raise Refused("use 0, 90, 180 or 270 (degrees, without quotes)")
    assert isinstance(v, int)
    return v


def _folders(v: object) -> tuple[str, ...]:
    if (not isinstance(v, list) or not v
            or any(not isinstance(f, str) or not f.startswith("/") or "\0" in f for f in v)):
        raise Refused('use a list of absolute folders in quotes, such as ["/media/*/*"]')
    return tuple(v)


def _spot(v: object) -> tuple[float, ...]:
    ok = (isinstance(v, list) and (not v or (
        len(v) == 4 and all(isinstance(x, int | float) and not isinstance(x, bool)
                            and 0 <= x <= 1 for x in v) and v[0] < v[2] and v[1] < v[3])))
    if not ok:
        raise Refused("use [] (the spot taught) or [x0, y0, x1, y1], fractions of the "
                       "picture from 0 to 1 with x0 < x1 and y0 < y1, such as "
                       "[0.3, 0.2, 0.7, 0.8]")
    assert isinstance(v, list)
    return tuple(float(x) for x in v)


def _pin(v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v not in BCM_PINS:
        raise Refused("use a BCM pin number from 0 to 27 (leave the key out for none)")
    return v


def _pins(least: int, allowed: str) -> Callable[[object], tuple[int, ...]]:
    def check(v: object) -> tuple[int, ...]:
        if (not isinstance(v, list) or not least <= len(v) <= MAX_SEATS
                or any(isinstance(p, bool) or not isinstance(p, int) or p not in BCM_PINS
                       for p in v)):
            raise Refused(allowed)
        return tuple(v)
    return check


def _usb_ids(v: object) -> tuple[str, ...]:
    pattern = re.compile(r"[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}")
    if not isinstance(v, list) or any(not isinstance(i, str) or not pattern.fullmatch(i)
                                      for i in v):
        raise Refused('use a list of USB ids written "VVVV:PPPP" in hex, such as '
                       '["2E8A:0005"]')
    return tuple(i.upper() for i in v)


def _baud(v: object) -> int:
    problem = baud_problem(v)
    if problem is not None:
        raise Refused(problem)
    assert isinstance(v, int)
    return v


_SECTIONS: dict[str, tuple[type, dict[str, Callable[[object], Any]]]] = {
    "voice": (VoiceConfig, {"enabled": boolean, "command": _command,
                            "output": choice(*VOICE_OUTPUTS), "volume": whole(*VOLUME)}),
    "gpio": (GpioConfig, {
        "enabled": boolean,
        "pins": _pins(1, "use a list of 1 to 4 BCM pin numbers from 0 to 27, one per seat, "
                         "such as [17, 27, 22, 23]"),
        "lamps": _pins(0, "use a list of BCM pin numbers from 0 to 27, one lamp per button "
                          "in pins, or [] for no lamps"),
        "pull_up": boolean,
        "lockout_ms": number(0, 1000, "milliseconds"),
        "undo_pin": _pin,
        "close_pin": _pin,
    }),
    "ledboard": (LedBoardConfig, {
        "enabled": boolean, "port": _text, "ids": _usb_ids, "baud": _baud,
        "brightness": whole(*BRIGHTNESS),
    }),
    "display": (DisplayConfig, {
        "fullscreen": boolean, "size": choice(*DISPLAY_SIZES), "rotation": _rotation,
        "dim_after": number(*IDLE_MINUTES, "minutes"),
        "sleep_after": number(*IDLE_MINUTES, "minutes"),
        "text": choice(*TEXT_SIZES),
    }),
    "backup": (BackupConfig, {"usb_folders": _folders}),
    "camera": (CameraConfig, {"enabled": boolean, "source": _text, "spot": _spot}),
}
_TOP = ("data_dir", "language")


class _Reader:
    """Checks one parsed file; every message starts with the file's name."""

    def __init__(self, source: Path) -> None:
        self.source = source

    def fail(self, where: str, value: object, allowed: str) -> ConfigError:
        return ConfigError(f"{self.source}: {where} = {_render(value)} is not allowed: {allowed}")

    def problem(self, text: str) -> ConfigError:
        return ConfigError(f"{self.source}: {text}")

    def config(self, doc: dict[str, Any]) -> Config:
        games = game_sections()
        tables = table_names(games)
        for name in doc:
            if name not in (*_TOP, *tables):
                raise self.problem(
                    f"unknown key {clip(json.dumps(name))}: the top-level keys are data_dir and "
                    "language, and the tables are " + ", ".join(f"[{s}]" for s in tables))
        values: dict[str, Any] = {"source": self.source}
        if "data_dir" in doc:
            values["data_dir"] = self.data_dir(doc["data_dir"])
        if "language" in doc:
            values["language"] = self.check("language", doc["language"], choice(*LANGUAGES))
        values["games"] = {}
        for name in tables:
            if name not in doc:
                continue
            if name in _SECTIONS:
                cls, keys = _SECTIONS[name]
                values[name] = cls(**self.table(name, doc[name], keys))
            else:
                values["games"][name] = self.game_table(name, doc[name], games[name])
        config = Config(**values)
        self.check_pins(config.gpio)
        self.check_idle(config.display)
        for table, own in games.items():
            if own.together is not None:
                self.check_together(table, config.games.get(table, own.values()),
                                    *own.together)
        return config

    def game_table(self, name: str, value: object, section: Section) -> object:
        """A game's table, read by its keys' checks or whole by its own reader."""
        if section.read is None:
            return section.values(**self.table(name, value, section.keys))
        try:
            return section.read(value)
        except Refused as exc:
            where = name if exc.where is None else exc.where
            raise self.fail(where, value if exc.where is None else exc.value,
                            str(exc)) from None
        except TableProblem as exc:
            raise self.problem(str(exc)) from None

    def check_together(self, name: str, values: object, key: str,
                       checker: Callable[[Any], None]) -> None:
        self.check(f"[{name}] {key}", getattr(values, key), lambda _: checker(values))

    def check(self, where: str, value: object, checker: Callable[[object], Any]) -> Any:
        try:
            return checker(value)
        except Refused as exc:
            raise self.fail(where, value, str(exc)) from None

    def data_dir(self, value: object) -> Path:
        if not isinstance(value, str) or not value.strip() or "\0" in value:
            raise self.fail("data_dir", value, 'use the path of a folder in quotes, such as '
                            '"~/.local/share/sorry-companion" (without NUL characters)')
        try:
            path = expand_home(value, "data_dir")
        except ValueError as exc:
            raise self.problem(str(exc)) from None
        return path if path.is_absolute() else self.source.parent / path

    def table(self, section: str, value: object,
              keys: dict[str, Callable[[object], Any]]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(section, value, f"[{section}] must be a table of settings")
        out = {}
        for name, item in value.items():
            checker = keys.get(name)
            if checker is None:
                raise self.problem(f"[{section}] unknown key {clip(json.dumps(name))}: the keys of "
                                   f"[{section}] are " + ", ".join(keys))
            out[name] = self.check(f"[{section}] {_key(name)}", item, checker)
        return out

    def check_idle(self, display: DisplayConfig) -> None:
        if display.dim_after and display.sleep_after and display.sleep_after <= display.dim_after:
            raise self.problem(
                f"[display] sleep_after = {display.sleep_after:g} is not after dim_after = "
                f"{display.dim_after:g}: the screen dims first, then sleeps; give sleep_after "
                "more minutes than dim_after (or 0 for never)")

    def check_pins(self, gpio: GpioConfig) -> None:
        if not lamps_fit(gpio.pins, gpio.lamps):
            raise self.fail("[gpio] lamps", list(gpio.lamps),
                            f"give one lamp per button ({len(gpio.pins)} in pins), or [] "
                            "for no lamps")
        named = [("pins", p) for p in gpio.pins] + [("lamps", p) for p in gpio.lamps]
        named += [(k, getattr(gpio, k)) for k in ("undo_pin", "close_pin")
                  if getattr(gpio, k) is not None]
        reuse = first_reuse(named)
        if reuse is not None:
            first, key, pin = reuse
            both = key if first == key else f"{first} and {key}"
            raise self.problem(f"[gpio] pin {pin} is used twice (in {both}): give every "
                               "button and lamp its own pin")


def on_raspberry_pi(model: Path = Path("/proc/device-tree/model")) -> bool:
    """True on a Raspberry Pi (its device tree says so): the app's Pi-only choices (touch
    input, the doctor's display check) follow it."""
    try:
        return "Raspberry Pi" in model.read_text(errors="replace")
    except OSError:
        return False
