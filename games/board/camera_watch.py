"""The board camera in the app: the watcher the app's camera link starts when the board
game's screen is shown (standard library at import; what it starts needs the extra).

The taught board is the data folder's `camera-board.npz` (what `camera teach-board` and
the teach screen write) and the frames are `[camera] source`'s, as the card camera finds
its deck and source. What the worker judges reaches the board screen's model only through
`show` (the link's hop onto the UI thread): a move logged is said "seen by the camera",
an unsure one lights its options for one tap, a board no option gives is said in one
sentence with "Correct the board" one tap away.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

# the link's hop: run this on the open game's model, on the UI's thread
Show = Callable[[Callable[[Any], None]], None]


def model_path(data_dir: str | Path) -> Path:
    """Where the taught board is kept (BOARD-CAMERA.md: beside the decks)."""
    from games.board.camera.model import FILE_NAME

    return Path(data_dir) / FILE_NAME


def start(session: Any, config: Any, show: Show, fps: float = 5.0) -> Any:
    """The board camera's worker, started, or None when no board was taught (the app runs
    as before); SourceError says in one sentence what is wrong (the frames, or a taught
    board that cannot be read: the link knows only the camera's own errors)."""
    from camera.sources import SourceError, open_source
    from games.board.camera.model import ModelError, load
    from games.board.camera.worker import BoardCameraWorker, BoardListener

    path = model_path(config.data_dir)
    if not path.is_file():
        return None
    try:
        model = load(path)
    except ModelError as exc:
        raise SourceError(str(exc)) from None
    listener = BoardListener(
        logged=lambda judged, result: show(lambda m: m.camera_logged()),
        asked=lambda judged: show(lambda m: m.camera_asked(
            [[list(leg) for leg in o.legs] for o in judged.candidates])),
        mismatch=lambda judged: show(lambda m: m.camera_mismatch(
            judged.said_in or (lambda lang: str(judged.mismatch)))),
        refused=lambda why: show(lambda m: m.camera_said(why)),
        stopped=lambda why: None if why is None else show(lambda m: m.camera_said(why)))
    worker = BoardCameraWorker(session, open_source(config.camera.source), model, listener, fps)
    worker.start()
    return worker
