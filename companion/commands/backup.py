"""`sorry-companion backup FILE` and `sorry-companion restore FILE`.

backup: every game and the data folder's choices (and the configuration in use) into one
file, safely while a game is being played. restore: back into the data folder, with the
app stopped; the journal it replaces is kept beside it, with its -wal and -shm. See
companion/backup.py and companion/restore.py.
"""

from __future__ import annotations

import argparse
import sys

from companion.backup import make_backup
from companion.config import config_from_args
from companion.paths import SYSTEM_CONFIG
from companion.restore import restore_backup


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("backup", help="copy every game and the settings into one file "
                       "(safe while a game runs)")
    p.add_argument("file", metavar="FILE", help="the backup file to write, or a folder "
                   "(the file is then named by the date)")
    p.set_defaults(run=run_backup)
    r = sub.add_parser("restore", help="put a backup's games and settings back (the app "
                       "must be stopped; the current journal is kept beside it)")
    r.add_argument("file", metavar="FILE", help="a file written by `sorry-companion backup`")
    r.set_defaults(run=run_restore)


def run_backup(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    summary = make_backup(config.data_dir, args.file, config_file=config.source)
    for note in summary.skipped:
        print(f"sorry-companion: {note}", file=sys.stderr)
    print(f"backed up {summary.sentence()}")
    return 1 if summary.skipped else 0


def run_restore(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    done = restore_backup(config.data_dir, args.file)
    print(f"restored {done.backup.sentence()} into {config.data_dir}")
    if done.kept:
        journal, *sides = done.kept
        also = "".join(f", its {s.name[len(journal.name):]} as {s}" for s in sides)
        print(f"the journal it replaced is kept as {journal}{also}")
    if done.replaced:
        print(f"the files it replaced are kept as {', '.join(str(p) for p in done.replaced)}")
    if done.left_out:
        print(f"left out, as they are not the app's: {', '.join(done.left_out)} (nothing of "
              "the backup's own SQL was run)")
    if done.config is not None:
        print(f"the backup's configuration is in {done.config}; to use it: "
              f"sudo cp {done.config} {SYSTEM_CONFIG}")
    return 0
