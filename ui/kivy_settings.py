"""Kivy's settings for this app: only the ones that differ from Kivy's own defaults.

Kivy starts on its built-in defaults, reading and writing no config.ini (KIVY_NO_CONFIG
while it is imported), and `launch.prepare_kivy` sets the keys below in memory at every
start, from the app's own config.toml. So there is no copy of Kivy's whole config.ini to
drift from the installed Kivy, and one file, config.toml, says how the table looks. A
`KCFG_<SECTION>_<KEY>` environment variable still wins over these (an owner's escape
hatch, e.g. in a systemd drop-in).

The GL surface's alpha size: drawing without X, the app asks for 0 through
`[graphics] alpha_size`, the setting Kivy reads since its PR #9183 (after 2.3.1). Kivy
2.3.1 compiles 8 into its wheel and ignores the key; the SDL2 it bundles (2.30) draws on
KMS/DRM through an ARGB8888 surface with a matching EGL config, which alpha 8 fits
(docs/DECISIONS.md, "Displays").
"""

from __future__ import annotations

import os
from collections.abc import Mapping

Settings = dict[tuple[str, str], str]
KMSDRM = "kmsdrm"


def drawing_without_x(environ: Mapping[str, str] = os.environ) -> bool:
    """True when SDL draws straight on the screen (the appliance: no X, no Wayland)."""
    return environ.get("SDL_VIDEODRIVER", "") == KMSDRM


def input_providers(*, pi: bool, mtdev: bool) -> dict[str, str]:
    """Kivy's [input] for this platform. The Pi's touchscreen is read from its event
    device (mtdev, or hidinput without libmtdev) and nothing else: SDL's mouse would
    deliver every tap a second time. A desktop has the mouse only (no probing of
    /dev/input, which a desktop user cannot read anyway), and no red dots."""
    if pi:
        return ({"mtdev_%(name)s": "probesysfs,provider=mtdev"} if mtdev
                else {"hid_%(name)s": "probesysfs,provider=hidinput"})
    return {"mouse": "mouse,multitouch_on_demand"}


def kivy_settings(*, fullscreen: bool, size: tuple[int, int], rotation: int, kiosk: bool,
                  without_x: bool = False) -> Settings:
    """(section, key) -> value for every Kivy setting this app changes from Kivy's default.

    `kiosk`: a touch appliance (a Pi, or drawing without X): no mouse cursor, no desktop
    behaviour. `without_x`: SDL draws straight on KMS/DRM: no alpha channel. Everywhere:
    the window's size (the layout follows it), full screen or not, the picture turned by
    `rotation`, no antialiasing (big flat shapes need none), no quit on Escape (a stray
    keyboard must not end the game) and no screensaver (the app dims and sleeps the
    screen itself, ui/idle.py)."""
    settings: Settings = {
        ("graphics", "width"): str(size[0]),
        ("graphics", "height"): str(size[1]),
        ("graphics", "multisamples"): "0",
        ("graphics", "allow_screensaver"): "0",
        ("kivy", "exit_on_escape"): "0",
    }
    if fullscreen:
        settings["graphics", "fullscreen"] = "auto"
    if rotation:
        settings["graphics", "rotation"] = str(rotation)
    if kiosk:
        settings["graphics", "show_cursor"] = "0"
        settings["kivy", "desktop"] = "0"
    if without_x:
        settings["graphics", "alpha_size"] = "0"
    return settings


def overridden(section: str, key: str = "", environ: Mapping[str, str] = os.environ) -> bool:
    """Whether the owner set this key (no key: any key of the section) with a KCFG_
    variable; then the app leaves it alone."""
    name = f"KCFG_{section}_{key}".upper()
    return any(k.upper() == name or (not key and k.upper().startswith(name)) for k in environ)
