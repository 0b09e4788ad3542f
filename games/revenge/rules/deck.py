"""The physical deck: the deck profile (how many of each card) and real cards in play.

The engine only counts cards. The simulator deals real ones from a profile and moves them
as the engine's outcomes say, so its hands and piles always match the engine's counts;
`load_config()` uses DEFAULT_DECK as the profile a configuration may change.

>>> len(build_deck(DEFAULT_DECK))
93
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion.errors import ConfigError
from games.revenge.rules.state import DECK_SIZE, HAND_SIZE

STEAL = "steal"  # SORRY! steal: called out of turn when someone reaches 21 (R9)
DONT_BE_SORRY = "dont_be_sorry"  # blocks either SORRY! (R9, R10)
FLIP = "sorry"  # SORRY! flip-back, played on your turn (R10)
OUT_OF_TURN = (STEAL, DONT_BE_SORRY)
SORRY_FAMILY = (FLIP, *OUT_OF_TURN)

DEFAULT_DECK: dict[str, int] = {
    **{str(n): 6 for n in range(4)},
    **{str(n): 5 for n in range(4, 11)},
    "slide:10": 4, "slide:15": 4, "slide:21": 4,
    "switch": 5, "take2": 5, "play2": 4,
    FLIP: 3, STEAL: 3, DONT_BE_SORRY: 2,
}


def number_value(code: str) -> int | None:
    """The value of a number card ("7" -> 7), or None for any other card."""
    return int(code) if code.isdigit() else None


def check_deck(profile: dict[str, int]) -> None:
    """Refuse a profile the engine cannot count: unknown cards, or not 93 cards in all."""
    unknown = sorted(set(profile) - set(DEFAULT_DECK))
    if unknown:
        raise ConfigError(f"the deck has unknown cards {unknown}; known: {list(DEFAULT_DECK)}")
    bad = [k for k, v in profile.items() if isinstance(v, bool) or not isinstance(v, int) or v < 0]
    if bad:
        raise ConfigError(f"deck counts must be whole numbers, 0 or more; see {bad}")
    if sum(profile.values()) != DECK_SIZE:
        raise ConfigError(
            f"the deck must hold {DECK_SIZE} cards (the companion counts them), "
            f"not {sum(profile.values())}"
        )


def build_deck(profile: dict[str, int]) -> list[str]:
    """Every card of the profile, by code, in a fixed order (shuffle it yourself)."""
    check_deck(profile)
    return [code for code, count in profile.items() for _ in range(count)]


@dataclass
class Cards:
    """Real cards on the table: the draw pile (top at the end), hands, play pile, discards.

    The moves are physical ones only; when they happen is the engine's (its outcomes).
    """

    rng: random.Random
    draw_pile: list[str]
    hands: list[list[str]]
    pile: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    reshuffles: int = 0

    @classmethod
    def deal(cls, rng: random.Random, profile: dict[str, int], players: int) -> Cards:
        deck = build_deck(profile)
        rng.shuffle(deck)
        hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(players)]
        return cls(random.Random(rng.getrandbits(64)), deck, hands)  # its own shuffles

    def take(self, seat: int, n: int) -> None:
        """The top n cards of the draw pile into seat's hand (ValueError if it has fewer)."""
        if n > len(self.draw_pile):
            raise ValueError(f"the draw pile has {len(self.draw_pile)} cards, not {n}")
        hand = self.hands[seat]
        for _ in range(n):
            hand.append(self.draw_pile.pop())

    def reshuffle(self) -> None:
        """The set-aside piles, shuffled, become the draw pile."""
        self.draw_pile, self.discards = self.draw_pile + self.discards, []
        self.rng.shuffle(self.draw_pile)
        self.reshuffles += 1

    def lay(self, seat: int, code: str) -> None:
        """A card from the hand onto the play pile (ValueError if the hand lacks it)."""
        self.hands[seat].remove(code)
        self.pile.append(code)

    def set_aside(self) -> None:
        """The finished play pile joins the discards (after the round's drawing)."""
        self.discards.extend(self.pile)
        self.pile.clear()

    def counts(self) -> dict[str, object]:
        return {
            "hands": tuple(len(h) for h in self.hands),
            "draw_pile": len(self.draw_pile),
            "pile": len(self.pile),
            "discards": len(self.discards),
            "reshuffles": self.reshuffles,
        }

    def copy(self) -> Cards:
        """A snapshot, so that a replaced SORRY! caller can take their card back."""
        return Cards(self.rng, list(self.draw_pile), [list(h) for h in self.hands],
                     list(self.pile), list(self.discards), self.reshuffles)

    def twin(self) -> Cards:
        """A copy with its own shuffler in the same state: moved the same way, it shuffles
        the same way (a referee watching the table)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        twin = self.copy()
        twin.rng = rng
        return twin
