"""The camera's screens (issue 23): teaching the deck, with the camera's live view.

A slice of its own, as each game's screens are: made only when opened from the menu, so
without the camera's extra nothing here is imported and the app runs as before.
"""
