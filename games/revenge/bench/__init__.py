"""The card game's parts of `make bench` (bench/__main__.py runs them by stage, in the
README table's order): its engine, journal and resume (`core`), its table screen's taps
and Resume (`ui`, with the app's cold start between them, as the table has always shown
it), and a seat's GPIO button and the LED board following its game (`hardware`)."""

MODULES = {
    "core": "games.revenge.bench.core",
    "ui": "games.revenge.bench.ui",
    "hardware": "games.revenge.bench.hardware",
}
