"""A frame or photo file read as a picture, refused in one sentence before it is decoded
when it is not a regular PNG or JPEG file of at most MAX_SIZE (needs the extra).

The file is read by camera.files (a FIFO or a device cannot hang it, a huge file is not
read), its first bytes must be PNG's or JPEG's signature (OpenCV also decodes TIFF, BMP,
WebP and more, which no camera here writes), and OpenCV itself refuses a picture larger
than camera.image_limits allows from its header, before allocating its pixels.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import cv2
import numpy as np

from camera.files import UnusableFile, quoted, read_regular
from camera.image_limits import MAX_IMAGE_BYTES, MAX_SIZE

SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")  # PNG, JPEG


REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
           4: cv2.IMREAD_REDUCED_COLOR_4}  # by how much a picture may be decoded smaller


def read_image(path: str | os.PathLike[str], what: str = "frame", reduce: int = 1) -> Any:
    """The picture in `path` as a BGR array; UnusableFile saying why it cannot be one.
    `what`: "frame" or "photo", as the sentence names it; `reduce` (1, 2 or 4): decoded
    that many times smaller each way (a JPEG's decoder then skips the detail: about 3
    times quicker at 2)."""
    data = read_regular(path, MAX_IMAGE_BYTES, f"a {what}")
    if not data.startswith(SIGNATURES):
        raise UnusableFile(_unreadable(path, what))
    if not limits_in_force():
        raise RuntimeError("cv2 was loaded before camera set OpenCV's image limits; "
                           "import camera before cv2")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), REDUCED[reduce])
    except cv2.error as exc:
        if "validateInputImageSize" not in str(exc):
            raise UnusableFile(_unreadable(path, what)) from None
        width, height = MAX_SIZE
        raise UnusableFile(f"{quoted(path)} is larger than {width}x{height} "
                           f"pixels; a {what} may be at most {width}x{height}: save it "
                           "smaller") from None
    if image is None:
        raise UnusableFile(_unreadable(path, what))
    return image


def _unreadable(path: str | os.PathLike[str], what: str) -> str:
    """The sentence for a file that is no PNG or JPEG picture: made only then (quoting the
    path was 0.4 ms a frame of `camera watch`, a fifth of decoding a 640x480 JPEG)."""
    return f"{quoted(path)} cannot be read as a PNG or JPEG {what}"


@functools.cache
def limits_in_force() -> bool:
    """Whether OpenCV refuses a picture one pixel wider than MAX_SIZE (its limits are read
    when cv2 loads: camera/__init__ sets them first)."""
    _ok, wide = cv2.imencode(".png", np.zeros((1, MAX_SIZE[0] + 1), np.uint8))
    try:
        cv2.imdecode(wide, cv2.IMREAD_GRAYSCALE)
    except cv2.error:
        return True
    return False
