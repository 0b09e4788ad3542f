"""The guide's settings steps work on the config install.sh writes (a dry-run install's
config.toml): its one command that turns the picture, run twice, and its [gpio] lines for
the lamps and extra buttons, which must be the pins the wiring picture shows."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from deploy_helpers import under

from companion.config import load_config
from hardware.wiring import GUIDE_GPIO

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "GUIDE.md"
CONFIG = "/etc/sorry-companion/config.toml"


def guide_rotation_command() -> str:
    lines = [line for line in GUIDE.read_text(encoding="utf-8").splitlines()
             if line.startswith("sudo sed") and "rotation" in line]
    assert len(lines) == 1, "the guide should give one rotation command"
    return lines[0]


def turn(command: str, config: Path, degrees: int) -> None:
    line = re.sub(r"rotation = \d+/", f"rotation = {degrees}/", command)
    line = line.removeprefix("sudo ").replace(CONFIG, str(config))
    subprocess.run(["bash", "-c", line], check=True, timeout=30)


def test_the_guides_rotation_command_sets_the_rotation_the_app_reads(installed: Path):
    config = under(installed, CONFIG)
    assert load_config(str(config)).display.rotation == 0  # the template's line is commented
    command = guide_rotation_command()
    assert f" {CONFIG}" in command
    turn(command, config, 90)
    assert load_config(str(config)).display.rotation == 90
    turn(command, config, 180)  # the line is set now: the same command changes it again
    assert load_config(str(config)).display.rotation == 180
    assert config.read_text(encoding="utf-8").count("rotation = ") == 1


def test_the_guides_gpio_lines_under_gpio_give_the_lamps_and_extra_buttons(installed: Path):
    config = under(installed, CONFIG)
    block = re.search(r"```toml\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.DOTALL)
    assert block is not None, "the guide should give the [gpio] lines as a toml block"
    text = config.read_text(encoding="utf-8")
    assert text.count("\n[gpio]\n") == 1  # the guide says: add them under this line
    config.write_text(text.replace("\n[gpio]\n", "\n[gpio]\n" + block.group(1)),
                      encoding="utf-8")
    gpio = load_config(str(config)).gpio
    suggested = GUIDE_GPIO  # the pins the wiring picture and tables are drawn with
    assert (gpio.lamps, gpio.undo_pin, gpio.close_pin) == (
        suggested.lamps, suggested.undo_pin, suggested.close_pin)
