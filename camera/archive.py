"""A model file written whole or not at all (needs the extra): a numpy .npz archive
written to a temporary name beside it, flushed to the disk, then renamed over it, so a
crash or a power cut never leaves half a model where the app looks for one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np


def write_npz(path: str | os.PathLike[str], arrays: dict[str, Any]) -> None:
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".model-", suffix=".npz", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            np.savez_compressed(out, **arrays)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
