"""Run the real app on a data dir and tap cards on its pad forever, printing one line
per tap the session accepted: "ack <events in the game> <total>". The SIGKILL test
kills this process mid-game and starts the app again on the same data dir.

Usage: python ui_kill_driver.py DATA_DIR
"""

from __future__ import annotations

import itertools
import sys

from ui.launch import build_app, prepare_kivy

CARDS = ("3", "4", "2", "5", "switch", "1", "6", "take2", "3")


def main(data_dir: str) -> None:
    prepare_kivy(fullscreen=False)
    from kivy.clock import Clock
    from kivy.tests.common import UnitTestTouch

    from companion.config import Config
    from games.revenge.config import WindowsConfig
    from games.revenge.rules import Setup
    from ui.widgets import TapButton

    config = Config(games={"windows": WindowsConfig(steal_seconds=60, block_seconds=60)})
    cards = itertools.cycle(CARDS)

    def pad_button(app, code: str) -> TapButton:
        pad = app.screen("table").ids.pad_manager.get_screen("pad")
        return next(w for w in pad.walk() if isinstance(w, TapButton) and w.code == code)

    def tap_next(app) -> None:
        before = len(app.session.update.steps)
        button = pad_button(app, next(cards))
        touch = UnitTestTouch(*button.to_window(*button.center))
        touch.touch_down()
        touch.touch_up()
        if len(app.session.update.steps) != before:
            events = len(app.journal.load(app.session.game_id).events)
            print(f"ack {events} {app.session.state.total}", flush=True)
        Clock.schedule_once(lambda _dt: tap_next(app), 0)

    def ready(app) -> None:
        app.start_game(Setup.create(["Ana", "Ben", "Cy"], pawns=4, variant="long"))
        print("started", flush=True)
        Clock.schedule_once(lambda _dt: tap_next(app), 0)

    app = build_app(config, data_dir, start_hardware=False, on_ready=ready)
    app.run()


if __name__ == "__main__":
    main(sys.argv[1])
