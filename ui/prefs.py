"""What the scorekeeper chose, kept in data_dir (the config under /etc is read-only).

- `choices.json`: the last game's players, colours, who started, pawns and variant,
  plus every name typed so far, so the next game starts pre-filled.
- `settings.json`: the settings screen's values, laid over the configuration.

Files are written whole to a temporary name and renamed, so a power cut leaves either
the old file or the new one; an unreadable or wrong file is ignored, never fatal.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.config import (
    DEFAULT_SECONDS,
    TEXT_SIZES,
    WINDOW_SECONDS,
    Config,
    read_small_file,
)
from companion.games import name_problem
from games.revenge.rules import MAX_PAWNS
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


@dataclass
class Choices:
    """The start screen's last choices."""

    players: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    first: str | None = None
    pawns: int = 4
    variant: str = "standard"
    known_names: list[str] = field(default_factory=list)
    # the board game's own choices, as its setup screen shows them: edition,
    # companion_draws and the setup's settings (games.board.screens.setup_screen)
    board: dict[str, Any] = field(default_factory=dict)
    game: str = ""  # the game last started (ui.games), chosen on the first screen next time

    @classmethod
    def load(cls, data_dir: Path) -> Choices:
        data = _read_json(Path(data_dir) / CHOICES_FILE)
        out = cls()
        with contextlib.suppress(TypeError, ValueError):
            out.players = [str(p) for p in data.get("players", [])][:4]
            out.colors = [str(c) for c in data.get("colors", [])][:4]
            out.first = data.get("first") if isinstance(data.get("first"), str) else None
            out.pawns = min(MAX_PAWNS, max(1, int(data.get("pawns", MAX_PAWNS))))
            out.variant = "long" if data.get("variant") == "long" else "standard"
            out.known_names = [str(n) for n in data.get("known_names", [])][:MAX_KNOWN_NAMES]
            board = data.get("board")
            out.board = dict(board) if isinstance(board, dict) else {}
            out.game = str(data.get("game") or "")
        # a hand-edited file may hold names the setup refuses: start from the valid ones
        out.players = [p for p in out.players if p.strip() and name_problem(p) is None]
        out.known_names = [n for n in out.known_names if n.strip() and name_problem(n) is None]
        return out

    def remember(
        self, players: list[str], colors: list[str], first: str, pawns: int, variant: str,
        *, game: str,
    ) -> None:
        """Keep a started game's setup; its names go to the front of the known names."""
        self.players, self.colors, self.first = list(players), list(colors), first
        self.pawns, self.variant, self.game = pawns, variant, game
        known = [n for n in self.known_names if n.casefold() not in {p.casefold() for p in players}]
        self.known_names = (list(players) + known)[:MAX_KNOWN_NAMES]

    def save(self, data_dir: Path) -> None:
        _write_json(Path(data_dir) / CHOICES_FILE, asdict(self))


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
