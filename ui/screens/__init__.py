"""One module per screen; each screen's layout is in ui/<screen>.kv."""
