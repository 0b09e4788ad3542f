"""Issue 9, goals: fuzzed transcripts and configs never give a traceback.

Hypothesis builds transcripts from valid events, mutated ones and raw junk, and TOML
files from real keys with hostile values (huge integers, deep nesting, control
characters, NUL, lone surrogates). Every outcome must be a result or the core's own
one-sentence refusal, and every message must stay short and free of control characters.
REPLAY_FUZZ_CASES and CONFIG_FUZZ_CASES set the counts (`make fuzz`: 40,000 and 2,000).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.config import load_config
from companion.errors import ConfigError
from companion.transcript import replay_lines

REPLAY_CASES = int(os.environ.get("REPLAY_FUZZ_CASES", "100"))
CONFIG_CASES = int(os.environ.get("CONFIG_FUZZ_CASES", "40"))
RAN = {"replay": 0, "config": 0}

NAMES = st.one_of(st.sampled_from(["Ana", "Ben", "Cy", "ana", " Dee ", ""]),
                  st.text(max_size=50), st.just("\ud800"), st.just("--phonout=/tmp/x"),
                  st.just("\x1b[2J" + "B" * 200))
HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**300),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30), NAMES,
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                         max_size=2),
)
CARDS = st.sampled_from(["0", "1", "4", "7", "10", "slide:10", "slide:21", "switch",
                         "take2", "play2", "sorry", "steal", "dont_be_sorry", "11", "x"])


@st.composite
def event(draw) -> object:
    kind = draw(st.sampled_from(["setup", "play", "press", "close", "end_play2", "tiebreak",
                                 "undo", "redo", "junk"]))
    if kind == "setup":
        obj = {"type": "setup", "players": draw(st.lists(NAMES, min_size=0, max_size=5))}
    elif kind == "play":
        obj = {"type": "play", "card": draw(CARDS)}
    elif kind == "press":
        obj = {"type": "press", "player": draw(NAMES), "t": draw(HOSTILE)}
    elif kind == "tiebreak":
        obj = {"type": "tiebreak", "player": draw(NAMES), "total": draw(HOSTILE)}
    elif kind == "junk":
        return draw(HOSTILE)
    else:
        obj = {"type": kind}
    for _ in range(draw(st.integers(0, 2))):
        obj[draw(st.sampled_from(["type", "card", "player", "target", "first", "colors",
                                  "pawns", "variant", "t", "total", "extra"]))] = draw(HOSTILE)
    return obj


def _line(obj: object, cut: int, mode: int) -> str | bytes:
    text = json.dumps(obj)
    if mode == 1:
        return text[:cut]  # a torn line
    if mode == 2:
        return text.encode()[:cut] + b"\xff"
    return text


LINE = st.builds(_line, event(), st.integers(0, 200), st.sampled_from([0, 0, 0, 1, 2]))
SETUP = json.dumps({"type": "setup", "players": ["Ana", "Ben", "Cy"]})


def _clean(message: str) -> None:
    assert len(message) < 600, message
    assert not any(ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF for c in message), message


@settings(max_examples=REPLAY_CASES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.booleans(), st.lists(LINE, max_size=25))
def test_fuzzed_transcripts_never_raise(with_setup, lines):
    RAN["replay"] += 1
    result = replay_lines(([SETUP] if with_setup else []) + lines)
    if result.error is not None:
        _clean(str(result.error))
    if result.game is not None:
        json.dumps(result.game.state.to_json(), ensure_ascii=False).encode("utf-8")


KEYS = st.sampled_from([
    "data_dir", "language", "[windows] steal_seconds", "[windows] block_seconds",
    "[game] pawns", "[game] variant", "[voice] enabled", "[voice] command", "[gpio] pins",
    "[gpio] lamps", "[gpio] lockout_ms", "[gpio] undo_pin", "[ledboard] baud",
    "[ledboard] ids", "[ledboard] brightness", "[deck] \"7\"", "[display] fullscreen",
    "[nope] x", "zzz",
])
VALUES = st.one_of(
    st.integers(-10, 300).map(str), st.integers(min_value=10**20).map(str),
    st.just("1" + "0" * 400), st.just("1" + "0" * 5000), st.just("[" * 3000 + "]" * 3000),
    st.sampled_from(["true", "false", "1.5", "inf", "nan", "-0.0", '""', '"fr"', '"\\u0000"',
                     '"\\u001b[2J"', "[17, 27]", "[17, 17]", '["2E8A:0005"]', "1979-05-27",
                     "{a = 1}", "[[1], [2]]", '"' + "x" * 3000 + '"']),
    st.text(max_size=20).map(json.dumps),
    st.text(max_size=10),
)


@st.composite
def toml_text(draw) -> str:
    sections: dict[str, list[str]] = {}
    for _ in range(draw(st.integers(0, 6))):
        key, value = draw(KEYS), draw(VALUES)
        section, _, name = key.rpartition(" ") if key.startswith("[") else ("", "", key)
        sections.setdefault(section, []).append(f"{name} = {value}")
    lines = sections.pop("", [])
    for section, items in sections.items():
        lines += [section, *items]
    text = "\n".join(lines) + "\n"
    if draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.text(max_size=5)) + text[cut:]
    return text


@settings(max_examples=CONFIG_CASES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(toml_text())
def test_fuzzed_configs_are_a_config_or_one_sentence(text):
    RAN["config"] += 1
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            load_config(path)
        except ConfigError as exc:
            _clean(str(exc))


def test_the_fuzz_figures():
    print(f"replay fuzz: {RAN['replay']} cases, 0 tracebacks; "
          f"config fuzz: {RAN['config']} cases, 0 tracebacks")
