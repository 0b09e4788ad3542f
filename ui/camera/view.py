"""The camera's live view on a page (Menu > Hardware): shown only with `[camera] enabled`
and the extra installed, read from the game's camera worker when one runs (the camera is
opened once), else from the camera itself while the page is open."""

from __future__ import annotations

from typing import Any


def open_view(app: Any, page: Any) -> Any:
    """A started Preview feeding `page.camera_texture`, or None (camera off, no extra,
    or the camera cannot be opened: the page's camera line already says why)."""
    from ui.camera.preview import Preview, camera_config, camera_source

    camera = camera_config(app)
    if not camera.enabled:
        return None
    from camera.extra import available

    if not available():
        return None
    from camera.sources import SourceError

    try:
        source = camera_source(app)
    except SourceError:
        return None
    spot = tuple(camera.spot) if camera.spot else None
    preview: Any = None

    def shown() -> None:
        if preview is not None and preview.texture is not None:
            page.camera_texture = preview.texture
            page.ids.hardware_camera.canvas.ask_update()

    preview = Preview(source, spot, shown=shown).start()
    return preview
