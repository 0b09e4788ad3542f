"""install.sh on a Raspberry Pi (a dry run over a fake Pi's /proc and /boot/firmware): quiet
boot edits, lgpio, and uninstall.sh putting the boot files back."""

from __future__ import annotations

from pathlib import Path

from deploy_helpers import Scripts

CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
           "fsck.repair=yes rootwait cfg80211.ieee80211_regdom=FR\n")
CONFIG_TXT = "[all]\ndtoverlay=vc4-kms-v3d\n"


def _pi(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "proc" / "device-tree").mkdir(parents=True)
    (root / "proc" / "device-tree" / "model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    boot = root / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "cmdline.txt").write_text(CMDLINE)
    (boot / "config.txt").write_text(CONFIG_TXT)
    return root


def test_install_makes_the_boot_quiet_and_keeps_the_originals(scripts: Scripts,
                                                              tmp_path: Path):
    root = _pi(tmp_path)
    result = scripts.install(root)
    assert result.returncode == 0, result.stderr
    boot = root / "boot" / "firmware"
    line = (boot / "cmdline.txt").read_text()
    assert line.count("\n") == 1 and line.endswith("\n")  # still one line
    words = line.split()
    assert "console=tty1" not in words and "console=tty3" in words
    for word in ("quiet", "loglevel=3", "logo.nologo", "vt.global_cursor_default=0",
                 "root=PARTUUID=4e639091-02", "rootwait"):
        assert word in words, word
    assert "disable_splash=1" in (boot / "config.txt").read_text().splitlines()
    assert (boot / "cmdline.txt.before-sorry-companion").read_text() == CMDLINE
    assert (boot / "config.txt.before-sorry-companion").read_text() == CONFIG_TXT
    # On a Pi, lgpio is asked for and nothing is skipped.
    apt = [x for x in result.stdout.splitlines() if "apt-get install" in x]
    assert "python3-lgpio" in apt[0]
    assert "skipped" not in result.stdout


def test_a_second_install_leaves_the_boot_files_alone(scripts: Scripts, tmp_path: Path):
    root = _pi(tmp_path)
    assert scripts.install(root).returncode == 0
    boot = root / "boot" / "firmware"
    first = {p.name: p.read_text() for p in boot.iterdir()}
    result = scripts.install(root)
    assert result.returncode == 0, result.stderr
    assert {p.name: p.read_text() for p in boot.iterdir()} == first
    assert "unchanged: /boot/firmware/cmdline.txt" in result.stdout


def test_uninstall_puts_the_boot_files_back(scripts: Scripts, tmp_path: Path):
    root = _pi(tmp_path)
    assert scripts.install(root).returncode == 0
    result = scripts.uninstall(root)
    assert result.returncode == 0, result.stderr
    boot = root / "boot" / "firmware"
    assert (boot / "cmdline.txt").read_text() == CMDLINE
    assert (boot / "config.txt").read_text() == CONFIG_TXT
    assert sorted(p.name for p in boot.iterdir()) == ["cmdline.txt", "config.txt"]
