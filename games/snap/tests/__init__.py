"""Snap's own tests: the game played through the real app (make test collects
games/*/tests beside tests/ui)."""
