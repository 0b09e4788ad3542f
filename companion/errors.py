"""Every refusal the core can give, each a sentence a scorekeeper can read.

Two roots: `CompanionError` (a ValueError) for what the rules, a transcript, a setup or
the configuration refuse, and `JournalError` (an OSError) for the disk. The message
always says what is wrong and, where it helps, what to do instead; `code` and `params`
let a screen say it in another language. Nothing that raises one of these has changed
any state (a JournalError from an append: nothing was saved and nothing applied).
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


class NoGame(IllegalEvent):
    """An event arrived while no game is open."""


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


class JournalError(OSError):
    """The journal could not be written or read; the message says what to do.

    An OSError, as the disk's own failures are; like a refusal it carries a `code` and
    `params` (see CompanionError) and its message can be shown as it is.
    """

    def __init__(self, message: str, *, code: str = "journal", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class DataFolderBusy(JournalError):
    """Another app holds the data folder (companion.datalock); says which and what to do."""


# What a caller shows as one sentence and goes on: every refusal and every journal failure.
REFUSALS: tuple[type[CompanionError], type[JournalError]] = (CompanionError, JournalError)
