"""What the scorekeeper chose, kept in data_dir (the config under /etc is read-only).

- `choices.json`: the last game's players, colours, who started and which game it was,
  every name typed so far, and each game's own choices in its section (the key named
  after the game, read through its manifest's `prefs`), so the next game starts
  pre-filled.
- `settings.json`: the settings screen's values, laid over the configuration.

Files are written whole to a temporary name and renamed, so a power cut leaves either
the old file or the new one; an unreadable or wrong file is ignored, never fatal.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion import plugins
from companion.config import (
    DEFAULT_SECONDS,
    TEXT_SIZES,
    WINDOW_SECONDS,
    Config,
    read_small_file,
)
from companion.games import name_problem
from companion.seats import MAX_SEATS
from ui.i18n import DEFAULT_LANGUAGE, LANGUAGES

CHOICES_FILE = "choices.json"
SETTINGS_FILE = "settings.json"
MAX_KNOWN_NAMES = 24


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(read_small_file(path).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


class PrefsNotSaved(OSError):
    """settings.json or choices.json could not be written (a full disk, no inodes).

    The app goes on with the change in memory and says so; `filename` is the file's
    name and `strerror` the system's reason."""


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise PrefsNotSaved(exc.errno or 0, exc.strerror or str(exc), path.name) from exc


def _game_choices(name: str, data: dict[str, Any]) -> dict[str, Any]:
    """A game's own section of choices.json (the key named after it), as its manifest's
    `prefs` reads it (checked, or found where an older file kept it); a game without
    `prefs`: its section as it is."""
    own = data.get(name)
    module = plugins.layer(name, "prefs")
    if module is None:
        return dict(own) if isinstance(own, dict) else {}
    with contextlib.suppress(TypeError, ValueError):
        found = module.recall(own, data)
        return dict(found) if isinstance(found, dict) else {}
    return {}


@dataclass
class Choices:
    """The start screen's last choices: the seats, and each game's own (`games`)."""

    players: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    first: str | None = None
    known_names: list[str] = field(default_factory=list)
    game: str = ""  # the game last started (ui.games), chosen on the first screen next time
    # each game's own choices, by its name, as its screens keep them (own, keep_own)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, data_dir: Path) -> Choices:
        data = _read_json(Path(data_dir) / CHOICES_FILE)
        out = cls()
        with contextlib.suppress(TypeError, ValueError):
            out.players = [str(p) for p in data.get("players", [])][:MAX_SEATS]
            out.colors = [str(c) for c in data.get("colors", [])][:MAX_SEATS]
            out.first = data.get("first") if isinstance(data.get("first"), str) else None
            out.known_names = [str(n) for n in data.get("known_names", [])][:MAX_KNOWN_NAMES]
            out.game = str(data.get("game") or "")
        out.games = {name: _game_choices(name, data) for name in plugins.names()}
        # a hand-edited file may hold names the setup refuses: start from the valid ones
        out.players = [p for p in out.players if p.strip() and name_problem(p) is None]
        out.known_names = [n for n in out.known_names if n.strip() and name_problem(n) is None]
        return out

    def own(self, game: str) -> dict[str, Any]:
        """The game's own remembered choices (empty: none yet)."""
        return dict(self.games.get(game, {}))

    def keep_own(self, game: str, choices: dict[str, Any]) -> None:
        """Remember the game's own choices (in memory until `save`)."""
        self.games[game] = dict(choices)

    def remember(self, players: list[str], colors: list[str], first: str, *, game: str,
                 own: dict[str, Any] | None = None) -> None:
        """Keep a started game's seats (and its own choices, `own`); its names go to the
        front of the known names."""
        self.players, self.colors, self.first, self.game = list(players), list(colors), first, game
        if own is not None:
            self.keep_own(game, own)
        known = [n for n in self.known_names if n.casefold() not in {p.casefold() for p in players}]
        self.known_names = (list(players) + known)[:MAX_KNOWN_NAMES]

    def to_json(self) -> dict[str, Any]:
        """choices.json: the seats, then each game's section under its name."""
        shared = {"players": self.players, "colors": self.colors, "first": self.first,
                  "known_names": self.known_names, "game": self.game}
        return {**shared, **{name: own for name, own in self.games.items()
                             if name not in shared}}

    def save(self, data_dir: Path) -> None:
        _write_json(Path(data_dir) / CHOICES_FILE, self.to_json())


@dataclass(frozen=True)
class UiSettings:
    """The settings a scorekeeper may change, starting from the configuration."""

    language: str = DEFAULT_LANGUAGE
    steal_seconds: float = DEFAULT_SECONDS
    block_seconds: float = DEFAULT_SECONDS
    voice: bool = True
    voice_command: str = "espeak-ng"
    voice_output: str = "auto"  # [voice] output (configuration only)
    volume: int = 50
    brightness: int = 64
    text_size: str = TEXT_SIZES[0]  # Settings > Text: "normal" or "large"

    @classmethod
    def from_config(cls, config: Any) -> UiSettings:
        """Read the fields the UI uses from a companion.config.Config (missing: default):
        the app's tables, and [windows], a game's (Config.section)."""
        d = cls()

        def get(section: str | None, name: str, default: Any) -> Any:
            obj = config if section is None else getattr(config, section, None)
            if obj is None and section is not None and callable(getattr(config, "section", None)):
                obj = config.section(section)
            value = getattr(obj, name, default)
            return default if value is None else value

        return cls(
            language=str(get(None, "language", d.language)),
            steal_seconds=float(get("windows", "steal_seconds", d.steal_seconds)),
            block_seconds=float(get("windows", "block_seconds", d.block_seconds)),
            voice=bool(get("voice", "enabled", d.voice)),
            voice_command=str(get("voice", "command", d.voice_command)),
            voice_output=str(get("voice", "output", d.voice_output)),
            volume=int(get("voice", "volume", d.volume)),
            brightness=int(get("ledboard", "brightness", d.brightness)),
            text_size=str(get("display", "text", d.text_size)),
        )

    def overlaid(self, data_dir: Path) -> UiSettings:
        """These settings with settings.json's valid values on top."""
        return self.merged(_read_json(Path(data_dir) / SETTINGS_FILE))

    def merged(self, data: dict[str, Any]) -> UiSettings:
        """Take each valid value of `data`; ignore the wrong ones rather than fail."""
        out = self
        lang = data.get("language")
        if lang in LANGUAGES:
            out = replace(out, language=lang)
        lo, hi = WINDOW_SECONDS
        for key in ("steal_seconds", "block_seconds"):
            value = data.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool) and lo <= value <= hi:
                seconds = float(value)
                out = (replace(out, steal_seconds=seconds) if key == "steal_seconds"
                       else replace(out, block_seconds=seconds))
        if isinstance(data.get("voice"), bool):
            out = replace(out, voice=data["voice"])
        volume = data.get("volume")
        if isinstance(volume, int) and not isinstance(volume, bool) and 0 <= volume <= 100:
            out = replace(out, volume=volume)
        if data.get("text_size") in TEXT_SIZES:
            out = replace(out, text_size=data["text_size"])
        bri = data.get("brightness")
        if isinstance(bri, int) and not isinstance(bri, bool) and 0 <= bri <= 255:
            out = replace(out, brightness=bri)
        return out

    def save(self, data_dir: Path) -> None:
        """Write the changeable part to settings.json."""
        _write_json(
            Path(data_dir) / SETTINGS_FILE,
            {
                "language": self.language,
                "steal_seconds": self.steal_seconds,
                "block_seconds": self.block_seconds,
                "voice": self.voice,
                "volume": self.volume,
                "brightness": self.brightness,
                "text_size": self.text_size,
            },
        )


def config_with(config: Any, settings: UiSettings) -> Any:
    """The configuration with the settings laid over it, for the hardware (brightness).

    Works on companion.config's Config; anything else is returned as it is.
    """
    if not isinstance(config, Config):
        return config
    try:
        return replace(config, ledboard=replace(config.ledboard, brightness=settings.brightness))
    except TypeError:
        return config
