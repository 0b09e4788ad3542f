"""An app that stops leaves nothing behind. Its first frame gc.freeze()s what it keeps, so
that no collection costs a frame mid-game; its shutdown gives that back to the collector.
Frozen for good, every app this suite starts and stops kept its widget tree (about 20 MB),
and one screens' run grew to 4 GB."""

from __future__ import annotations

import gc
import weakref

from ui_helpers import Driver, make_app


def test_a_stopped_app_and_its_screens_are_freed(tmp_path):
    d = Driver(make_app(tmp_path / "data"))
    d.start()
    assert gc.get_freeze_count() > 0, "the first frame froze nothing: this test checks nothing"
    root, table = weakref.ref(d.app.root), weakref.ref(d.app.screen("table"))
    d.stop()
    del d
    gc.collect()
    assert root() is None, "the stopped app's screen manager is still alive"
    assert table() is None, "the stopped app's table screen is still alive"
