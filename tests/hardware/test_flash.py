"""`sorry-companion ledboard flash`: the command's whole flow without a Pico.

The board is the LED board simulator on a real pseudo-terminal (it answers PAWNLED/1 as
the firmware does); mpremote is a stand-in program (SORRY_COMPANION_MPREMOTE) that records
how it was called, or fails the way mpremote fails on a board that runs the firmware."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from companion.cli import main
from hardware.flash import FIRMWARE_DIR, FIRMWARE_FILES, MICROPYTHON_BUILDS
from hardware.simulator import SimulatedLedBoard

REPO = Path(__file__).resolve().parents[2]


def fake_mpremote(tmp_path: Path, monkeypatch, *, status: int = 0, said: str = "") -> Path:
    calls = tmp_path / "mpremote-calls"
    program = tmp_path / "mpremote"
    program.write_text(f'#!/bin/sh\necho "$@" >> "{calls}"\necho {shlex.quote(said)} >&2\n'
                       f"exit {status}\n")
    program.chmod(0o755)
    monkeypatch.setenv("SORRY_COMPANION_MPREMOTE", str(program))
    return calls


def test_flash_copies_the_firmware_resets_and_checks_pawnled(tmp_path, monkeypatch, capsys):
    calls = fake_mpremote(tmp_path, monkeypatch)
    with SimulatedLedBoard(uid="FLASH1") as sim:
        status = main(["ledboard", "flash", "--port", sim.path])
    out = capsys.readouterr()
    assert status == 0, out.err
    files = " ".join(str(FIRMWARE_DIR / name) for name in FIRMWARE_FILES)
    assert calls.read_text().splitlines() == [f"connect {sim.path} fs cp {files} : + reset"]
    assert f"LED board ready: connected FLASH1 (firmware 1.0.0, 20 LEDs) on {sim.path}" in out.out
    for name in FIRMWARE_FILES:
        assert (FIRMWARE_DIR / name).is_file()


def test_a_board_that_runs_the_firmware_gets_the_safe_mode_sentence(tmp_path, monkeypatch,
                                                                    capsys):
    fake_mpremote(tmp_path, monkeypatch, status=1,
                  said="mpremote: could not enter raw repl")
    with SimulatedLedBoard() as sim:
        status = main(["ledboard", "flash", "--port", sim.path])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1 and len(err) == 1
    assert "keeps mpremote out" in err[0] and "GP15-GND" in err[0]


def test_a_board_that_does_not_answer_after_flashing_is_said(tmp_path, monkeypatch, capsys):
    """mpremote copied, but what sits on the port is not a PAWNLED/1 board."""
    fake_mpremote(tmp_path, monkeypatch)
    silent = tmp_path / "silent"
    silent.write_text("")
    status = main(["ledboard", "flash", "--port", str(silent)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1 and len(err) == 1
    assert "does not answer PAWNLED/1" in err[0]


def test_no_pico_found_is_one_sentence(tmp_path, monkeypatch, capsys):
    calls = fake_mpremote(tmp_path, monkeypatch)
    status = main(["ledboard", "flash", "--port", str(tmp_path / "no-such-port")])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1 and len(err) == 1
    assert err[0].startswith("sorry-companion: no Pico running MicroPython found")
    assert not calls.exists()  # mpremote was never run


def test_the_guide_names_the_micropython_file_of_each_board():
    guide = (REPO / "hardware" / "README.md").read_text()
    for board, build in MICROPYTHON_BUILDS.items():
        assert f"| {board} | `{build}` |" in guide, board
    assert "sorry-companion ledboard flash" in guide


@pytest.mark.parametrize("args", [["ledboard"], ["ledboard", "burn"]])
def test_ledboard_needs_an_action(args, capsys):
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2
