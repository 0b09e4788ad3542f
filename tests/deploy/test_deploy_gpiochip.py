"""Issue 9, finding 12: install.sh checks the Pi 5's /dev/gpiochip4 link (dry run with a
fake /proc and /dev under --root)."""

from __future__ import annotations

from pathlib import Path

import pytest
from deploy_helpers import Scripts

WARNING = "this Raspberry Pi 5 has no /dev/gpiochip4"


def _root(tmp_path: Path, model: str, link: bool) -> Path:
    root = tmp_path / "root"
    (root / "proc" / "device-tree").mkdir(parents=True)
    (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\0")
    (root / "dev").mkdir()
    if link:
        (root / "dev" / "gpiochip4").symlink_to("gpiochip0")
        (root / "dev" / "gpiochip0").touch()
    return root


@pytest.mark.parametrize("model, link, warned", [
    ("Raspberry Pi 5 Model B Rev 1.0", False, True),
    ("Raspberry Pi 5 Model B Rev 1.0", True, False),
    ("Raspberry Pi 4 Model B Rev 1.5", False, False),
])
def test_install_checks_the_gpiochip4_link_on_a_pi5(scripts: Scripts, tmp_path, model, link,
                                                    warned):
    result = scripts.install(_root(tmp_path, model, link))
    assert result.returncode == 0, result.stderr
    assert (WARNING in result.stdout + result.stderr) is warned
    if warned:
        assert "raspberrypi-sys-mods" in result.stdout + result.stderr
