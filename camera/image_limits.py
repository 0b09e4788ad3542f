"""How large a frame or photo may be, and OpenCV told so before it loads (standard library
only: camera/__init__ applies it before any module of the camera imports cv2).

OpenCV reads an image's size from its header and, above its limits, refuses it before
decoding a pixel (imgcodecs' validateInputImageSize, read from OPENCV_IO_MAX_IMAGE_* once,
when cv2 loads). Its defaults let a 20000x20000 PNG of 400 KB through: 35 s and 2.4 GB on a
Pi. Here the limits are the largest frame the camera takes (CAMERA.md: up to 1920x1080).
"""

from __future__ import annotations

import os

MAX_SIZE = (1920, 1080)  # width, height of the largest frame or photo
WATCH_WIDTH = 640  # the watcher reduces wider frames to this width (camera.watcher.reduced)
# the largest PNG of that size (16-bit RGBA, stored uncompressed), with room for its chunks
MAX_IMAGE_BYTES = MAX_SIZE[0] * MAX_SIZE[1] * 8 + (1 << 16)
OPENCV_LIMITS = {
    "OPENCV_IO_MAX_IMAGE_WIDTH": str(MAX_SIZE[0]),
    "OPENCV_IO_MAX_IMAGE_HEIGHT": str(MAX_SIZE[1]),
    "OPENCV_IO_MAX_IMAGE_PIXELS": str(MAX_SIZE[0] * MAX_SIZE[1]),
}


def apply() -> None:
    """Set OpenCV's image limits for this process (and the programs it starts)."""
    os.environ.update(OPENCV_LIMITS)
