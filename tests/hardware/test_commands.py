"""`sorry-companion doctor` and `sorry-companion ledboard-sim`, run as the user runs them."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gpiozero import Device

from companion.cli import main
from hardware import doctor
from hardware.buttons import GpioSetupError, pin_factory_or_default
from hardware.firmware.pawnled import LedBoardState
from hardware.ledboardlink import LedBoardLink
from hardware.pinplan import explain_gpio_error
from hardware.simulator import SimulatedLedBoard

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mock_gpio(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()


def write_config(tmp_path: Path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return str(path)


def test_doctor_prints_what_works_and_exits_0(tmp_path, capsys, mock_gpio):
    with SimulatedLedBoard(uid="DOC1") as sim:
        cfg = write_config(tmp_path, f'[ledboard]\nport = "{sim.path}"\n[voice]\ncommand = "sh"\n')
        status = main(["--config", cfg, "doctor"])
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in out.splitlines()[1:6]}
    assert status == 0
    assert rows["config"] == ["ok", cfg]
    assert rows["buttons"] == ["ok", "mock pins, buttons seat 1 GPIO17, seat 2 GPIO27, "
                                     "seat 3 GPIO22, seat 4 GPIO23"]
    assert rows["ledboard"][0] == "ok"
    assert rows["ledboard"][1].startswith(f"connected DOC1 (firmware 1.0.0, 20 LEDs) on {sim.path}")
    assert rows["voice"][0] == "ok" and rows["display"][0] == "ok"
    assert "to fix:" not in out


def test_doctor_names_what_to_fix_and_fails_on_a_bad_config(tmp_path, capsys, mock_gpio):
    cfg = write_config(tmp_path, "[gpio]\npins = [17, 99]\n")
    assert main(["--config", cfg, "doctor", "--board", "/dev/no-such-board"]) == 1
    out = capsys.readouterr().out
    assert f"config    FIX     {cfg}: [gpio] pins = [17, 99] is not allowed" in out
    assert "ledboard  warn    absent: no board at /dev/no-such-board (ledboard.port)" in out
    assert "to fix:\n  config: correct that key" in out


def test_doctor_without_gpio_is_not_a_failure(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    monkeypatch.setattr(Device, "pin_factory", None)
    cfg = write_config(tmp_path, "[ledboard]\nenabled = false\n[voice]\nenabled = false\n")
    assert main(["--config", cfg, "doctor"]) == 0
    out = capsys.readouterr().out
    assert "buttons   warn    touch only" in out
    assert "  buttons: no GPIO pin factory works here" in out
    assert "ledboard  off" in out and "voice     off" in out


def test_doctor_buttons_shows_presses_live(factory, clock):
    check, panel = doctor.check_buttons(doctor.Config().gpio, pin_factory=factory)
    assert check.result == "ok"
    lines: queue.Queue[str] = queue.Queue()
    stop = threading.Event()
    watcher = threading.Thread(
        target=lambda: lines.put(str(doctor.watch_buttons(panel, 30, lines.put, stop=stop))))
    try:
        watcher.start()
        assert lines.get(timeout=10) == "press the buttons now (30 s) ..."
        factory.pin(22).drive_low_at(clock.advance(1.0))
        assert lines.get(timeout=10).startswith("  seat 3 button (GPIO22) pressed at +")
        stop.set()
        assert lines.get(timeout=10) == "  1 press seen"
        assert lines.get(timeout=10) == "1"
    finally:
        stop.set()
        watcher.join()
        panel.close()


def test_a_permission_problem_behind_the_fallbacks_is_named():
    tried = "Falling back from lgpio: 'can not open gpiochip'; Falling back from native: x"
    message = explain_gpio_error(RuntimeError("Unable to load any default pin factory!"),
                                 tried=tried)
    assert message.startswith("no permission to use /dev/gpiochip")
    assert "sudo usermod -aG gpio $USER" in message


def test_no_pin_factory_is_a_setup_error(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    monkeypatch.setattr(Device, "pin_factory", None)
    with pytest.raises(GpioSetupError, match="no GPIO pin factory works here"):
        pin_factory_or_default()


def _interruptible() -> None:
    """In the child before exec: Ctrl+C's default, which a shell's background job (a test
    run started with `&`) inherits as ignored, so SIGINT would never reach the simulator."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ledboard_sim_speaks_pawnled_and_prints_what_it_shows():
    sim = subprocess.Popen([sys.executable, "-m", "companion.cli", "ledboard-sim", "--plain"],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=_interruptible)
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(x.rstrip("\n")) for x in sim.stdout])
    reader.start()
    try:
        first = lines.get(timeout=30)
        assert first.startswith("LED board simulator on /dev/")
        path = first.rsplit(" ", 1)[1]
        assert lines.get(timeout=30) == (f"use it: sorry-companion run --ledboard {path}   "
                                         f'(or [ledboard] port = "{path}")')
        link = LedBoardLink.open(path, hello_wait=20.0)  # awaited: a busy host is slow
        try:
            assert link.hello.uid == "SIM0001"
            link.send(LedBoardState(4, 1, [0, 1, 2, 3], "bust", 64).line(7))
            want = "players=4 turn=1 home=0,1,2,3 alert=bust bri=64 col=r,b,y,g"
            while (line := lines.get(timeout=30)) != want:
                assert line == "waiting", line
        finally:
            link.close()
        sim.send_signal(signal.SIGINT)  # it is ready: it has shown what the link sent
        assert sim.wait(timeout=30) == 0, sim.stderr.read()
    finally:
        if sim.poll() is None:
            sim.kill()
            sim.wait()
        reader.join()
        sim.stdout.close()
        sim.stderr.close()


def test_the_commands_module_imports_neither_gpiozero_nor_pyserial():
    code = ("import sys, hardware.commands, hardware;"
            "bad = {'gpiozero', 'serial', 'kivy'} & set(sys.modules);"
            "print(sorted(bad)); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_terminal_drawing_shows_each_seats_home_pawns_and_the_turn():
    from hardware.firmware.ledboard import LedBoard
    from hardware.simulator import RecordingStrip
    from hardware.terminal import draw

    board = LedBoard(RecordingStrip(), "T", now=0)
    board.receive(LedBoardState(3, 2, [1, 4, 0], "none", 64).line(5).encode(), 0)
    board.tick(1)
    plain = draw(board.pixels(1), board.state, waiting=False, color=False).splitlines()
    assert plain[0] == "seq 5  players 3  alert none  bri 64"
    assert plain[1:] == ["  seat 1 (r)  HOME ● ○ ○ ○   turn ○",
                         "  seat 2 (b)  HOME ● ● ● ●   turn ○",
                         "  seat 3 (y)  HOME ○ ○ ○ ○   turn ●",
                         "  seat 4 (-)  HOME ○ ○ ○ ○   turn ○"]
    coloured = draw(board.pixels(1), board.state, waiting=False, color=True)
    assert "\x1b[38;2;255;0;0m●" in coloured  # seat 1's dim red, shown at full hue
