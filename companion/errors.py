"""Every refusal the core can give, each a ValueError with a sentence a scorekeeper can read.

The message always says what is wrong and, where it helps, what to do instead. Nothing
that raises one of these has changed any state or written anything.
"""


class CompanionError(ValueError):
    """Base of every refusal raised by the core.

    `code` names the refusal and `params` carries its facts (player names, numbers), so a
    screen in another language can say the same sentence without parsing the English.
    """

    def __init__(self, message: str, *, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class IllegalEvent(CompanionError):
    """The rules do not allow this event now (RULES.md)."""


class NotYourTurn(IllegalEvent):
    """A card was logged for a player whose turn it is not."""


class CardRefused(IllegalEvent):
    """This card cannot be played at this moment (e.g. a Slide while a Play 2 is owed)."""


class BadTarget(IllegalEvent):
    """A flip-back SORRY! named a target the rules do not allow."""


class GameOver(IllegalEvent):
    """The game has a winner; only undo is possible."""


class NothingToUndo(IllegalEvent):
    """Undo or redo with an empty stack."""


class BadEvent(CompanionError):
    """The event itself is malformed: unknown type, unknown card, missing key."""


class BadSetup(BadEvent):
    """A setup that no game can start from (1 or 5 players, a name twice, ...)."""


class TranscriptError(CompanionError):
    """A transcript line could not be used; carries its 1-based line number."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class ConfigError(CompanionError):
    """The configuration file is wrong: names the key, the value and what is allowed."""


class JournalError(CompanionError):
    """The journal could not be written or read; the message says what to do."""
