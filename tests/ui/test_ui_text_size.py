"""Settings > Text (issue 20): Large makes every text larger at once, on the screens
already made too; the choice is kept in settings.json like the other settings and
comes back after a restart; `[display] text` in config.toml sets where it starts."""

from __future__ import annotations

import json

import pytest

from companion.config import ConfigError, load_config
from ui.layout import MIN_TEXT_PX, min_text_px
from ui.prefs import UiSettings
from ui.widgets import FitLabel


def least_text(d) -> float:
    """The smallest font of the texts shown on the current screen."""
    return min(float(w.font_size) for w in d.widgets()
               if isinstance(w, FitLabel) and w.text.strip() and d.visible(w))


def test_large_text_by_touch_is_applied_at_once_and_kept(driver, tmp_path):
    data = tmp_path / "data"
    d = driver(data)
    start_label = d.app.screen("start").ids.language_button  # a screen made before the change
    normal_font = start_label.font_size
    d.tap_id("start", "settings_button")
    title = d.app.screen("settings").ids.settings_title
    normal_title = title.font_size
    d.tap_id("settings", "text_large")
    d.frames(3)
    assert d.app.text_size == "large" and d.app.screen("settings").ids.text_large.selected
    assert title.font_size == pytest.approx(normal_title * 1.25, abs=1)
    assert start_label.font_size > normal_font
    assert least_text(d) >= min_text_px("large")
    assert json.loads((data / "settings.json").read_text())["text_size"] == "large"
    d.stop()

    again = driver(data)
    assert again.app.text_size == "large" and again.app.text_scale == 1.25
    again.tap_id("start", "settings_button")
    again.tap_id("settings", "text_normal")
    again.frames(3)
    assert json.loads((data / "settings.json").read_text())["text_size"] == "normal"
    assert least_text(again) >= MIN_TEXT_PX


def test_the_config_sets_the_starting_text_size(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[display]\ntext = "large"\n')
    assert UiSettings.from_config(load_config(path)).text_size == "large"
    path.write_text('[display]\ntext = "huge"\n')
    with pytest.raises(ConfigError, match="normal"):
        load_config(path)
