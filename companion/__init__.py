"""The pure core of the Sorry! Table Companion: games' rules, session, journal, config, CLI.

Standard library only: the UI (`ui/`) and the hardware (`hardware/`) build on this
package, never the other way round, and only through its public API, the modules in
`PUBLIC_MODULES` (tests/test_public_api.py checks every import):

- `companion.session`: `Session` (the one door: events in, immutable `Update`s out),
  `Update`, `Preview`, `Result`, `ResultKind`, `Step`, `NoGame`;
- `companion.errors`: `CompanionError` (every refusal, a ValueError) and its kinds,
  `JournalError` (an OSError), `REFUSALS` (both: show one sentence and go on);
- `companion.config`: the settings file;
- `companion.version`: which version runs and which update waits (`version_line`);
- `companion.system`: `notify_ready` (systemd) and `poweroff` (Menu > Turn off);
- `companion.backup`: `make_backup`, `usb_stick`, `BackupRefused` (Menu > Back up; the
  `backup` and `restore` commands);
- `companion.notices`: the journal's loss sentences kept until someone has read them
  (`read`, `keep`, `dismiss`, `as_record`: the start screen's notices);
- `companion.seats`: the seats every game checks the same way (`check_seats`,
  `SEAT_COLORS`, `MAX_SEATS`): the first screen's before a game is chosen;
- `companion.catalogue`: every word of both games per language (`text`, `number`): the
  screens, the command line and the doctor read the same catalogue;
- `companion.games`: the registry (`get`, `names`, `DEFAULT`), and each game's package
  (`games.revenge.rules`), whose names are that game's vocabulary.

The rest (game, journal, rules, stats, transcript, windows, a game's modules) is the
core's own and may change without notice.
"""

__version__ = "0.1.0"

PUBLIC_MODULES = (
    "companion.session",
    "companion.errors",
    "companion.config",
    "companion.games",
    "companion.plugins",
    "companion.version",
    "companion.system",
    "companion.backup",
    "companion.notices",
    "companion.catalogue",
    "companion.seats",
)
