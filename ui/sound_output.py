"""Where the voice is heard: `[voice] output` turned into an ALSA device of this machine.

On the appliance (Raspberry Pi OS Bookworm Lite, the app a system service) there is no
PulseAudio or PipeWire session to ask, so the voice plays straight on ALSA: the speech
program writes a WAV to its standard output and `aplay -D default:CARD=<card>` plays it
(a card's `default` device adds the conversions it needs, such as IEC958 for HDMI).
The cards are read from /proc/asound:

- usb: a card with a `usbid` file (a USB speaker or USB sound card);
- jack: the card called "Headphones" (the 3.5 mm jack of a Pi 4 and older; a Pi 5 has none);
- hdmi: the first "vc4hdmi" card (the HDMI port next to the power socket);
- auto: on a Pi, usb, else jack, else hdmi; elsewhere (a desktop, whose sound server owns
  the cards) the speech program's own default output.

A chosen output that is not there is NoSoundOutput, which the Settings screen says in
one sentence ("sound_missing_<output>" in the catalogue, companion/locales), never a silent voice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ASOUND = Path("/proc/asound")
JACK_CARD = "Headphones"
HDMI_PREFIX = "vc4hdmi"
_CARD_LINE = re.compile(r"\s*(\d+)\s+\[(\S+)\s*\]")


class NoSoundOutput(LookupError):
    """The configured output (`output`: "usb", "jack" or "hdmi") is not on this machine."""

    def __init__(self, output: str) -> None:
        super().__init__(output)
        self.output = output


@dataclass(frozen=True, slots=True)
class SoundCard:
    index: int
    name: str  # ALSA's card id, e.g. "Headphones", "vc4hdmi0", "UACDemoV10"
    usb: bool


def sound_cards(root: Path = ASOUND) -> list[SoundCard]:
    """The machine's sound cards, from /proc/asound/cards (none: an empty list)."""
    try:
        text = (root / "cards").read_text(errors="replace")
    except OSError:
        return []
    cards = []
    for line in text.splitlines():
        match = _CARD_LINE.match(line)
        if match:
            index = int(match[1])
            cards.append(SoundCard(index, match[2], (root / f"card{index}" / "usbid").exists()))
    return cards


def _find(output: str, cards: list[SoundCard]) -> SoundCard | None:
    for card in cards:
        if ((output == "usb" and card.usb) or (output == "jack" and card.name == JACK_CARD)
                or (output == "hdmi" and card.name.startswith(HDMI_PREFIX))):
            return card
    return None


def output_device(output: str, cards: list[SoundCard], *, pi: bool) -> str | None:
    """The ALSA device for `output`, or None for the speech program's own default."""
    if output == "auto":
        if not pi:
            return None
        for choice in ("usb", "jack", "hdmi"):
            card = _find(choice, cards)
            if card is not None:
                return f"default:CARD={card.name}"
        return None
    card = _find(output, cards)
    if card is None:
        raise NoSoundOutput(output)
    return f"default:CARD={card.name}"

