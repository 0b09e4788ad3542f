"""The camera: cards logged without a tap (docs/spec/CAMERA.md).

A slice beside hardware/: frame sources (sources), finding and recognising a card
(locate, faces), when a card has come to rest on the pile (watcher), teaching a deck
(teach), the model file (model_file), the worker that feeds a Session (worker) and the
`sorry-companion camera` command (command).

numpy and OpenCV are an optional extra (`pip install .[camera]`): nothing here imports
them at import time except the modules that need them, and `camera.extra.require()` turns
their absence into one sentence. The rest of the app never needs them. Importing this
package sets OpenCV's image size limits (camera.image_limits) before any of it loads cv2.
"""

from camera import image_limits

image_limits.apply()
