"""The guide's one command that turns the picture works on the config install.sh writes:
run on a dry-run install's config.toml, the app then reads that rotation, and again when
the line is already set."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from deploy_helpers import under

from companion.config import load_config

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
