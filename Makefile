# Everything a fresh machine needs is here: `make run`, `make test`, `make bench`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

# `make run -- --board /dev/pts/4` passes everything after `run` to the app.
ifeq (run,$(firstword $(MAKECMDGOALS)))
  RUN_ARGS := $(wordlist 2,$(words $(MAKECMDGOALS)),$(MAKECMDGOALS))
  ifneq (,$(RUN_ARGS))
    $(eval $(RUN_ARGS):;@:)
  endif
endif

.PHONY: locales run test test-ui test-ui-long test-rest bench bench-tools fuzz lint venv clean screenshots lock dist signing-key pi-vm

$(STAMP): setup.cfg setup.py pyproject.toml requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt -e .
	touch $@

# The catalogues' .mo files, compiled from their .po sources (compile_locales.py, with Babel)
# wherever a folder named locales holds them: the core's and each game plugin's. Not
# committed: this rule (and setup.py, for a wheel) writes them, so a .po edit is seen at once.
PO := $(shell find . \( -name .venv -o -name .git -o -name build -o -name dist \) -prune \
	-o -path '*/locales/*.po' -print)
MO := $(PO:.po=.mo)

%.mo: %.po compile_locales.py | $(STAMP)
	$(BIN)/python compile_locales.py $<

locales: $(MO)

venv: $(STAMP) $(MO)

run: $(STAMP) $(MO)
	$(BIN)/sorry-companion run $(RUN_ARGS)

# The doctests of the core, the games (not their screens), the hardware and the camera (not
# the Pico's main.py: MicroPython only), the types of the core, the games, the screens, the
# hardware and the camera (mypy --strict), then the suite.
# requirements.txt pins the camera's extra (numpy, OpenCV), so its tests run here too.
test: $(STAMP) $(MO)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict companion/ games/ ui/ hardware/
	$(BIN)/mypy --strict camera/
	$(BIN)/python -m pytest -q --doctest-modules companion games hardware camera \
		--ignore=hardware/firmware/main.py --ignore-glob='games/*/screens/*' \
		--ignore-glob='games/*/tests/*'
	$(MAKE) --no-print-directory -j3 --output-sync=target test-ui test-ui-long test-rest

# The suite in three processes side by side on two cores: the screens' tests (one Kivy
# window each, busy on the CPU) in two halves of about the same CPU, the longest walks
# (UI_LONG: every screen at every display, the whole board games, the board screen's
# layouts and taps) and the others with each game's own tests (games/<name>/tests/: the game
# through the real app, on tests/ui's fixtures), and the rest (mostly waiting for the
# subprocesses it kills and restarts). One screens' process was the suite's longest (343 s
# of CPU, 235 s for the rest); the halves took 141 s and 158 s. A file of tests/ui is in
# exactly one of them (test-ui ignores UI_LONG). None keeps a pytest cache (setup.cfg's addopts:
# -p no:cacheprovider), so they share none; the output of each is printed whole when it ends.
GAME_TESTS := $(wildcard games/*/tests)
UI_LONG := tests/ui/test_ui_screens.py tests/ui/test_ui_board_taps.py \
	tests/ui/test_ui_board_whole_game.py tests/ui/test_ui_board_screen.py \
	tests/ui/test_ui_board_layouts.py tests/ui/test_ui_name_keyboard.py \
	tests/ui/test_ui_touch_guard.py tests/ui/test_ui_board_answers.py
test-ui: $(STAMP) $(MO)
	$(BIN)/python -m pytest -q tests/ui $(GAME_TESTS) \
		$(addprefix --ignore=,$(UI_LONG))

test-ui-long: $(STAMP) $(MO)
	$(BIN)/python -m pytest -q $(UI_LONG)

test-rest: $(STAMP) $(MO)
	$(BIN)/python -m pytest -q tests --ignore=tests/ui

# The Pi conditions (bench/pi.py) build a small LD_PRELOAD shim with the C compiler: get it
# from Debian's packages when it is missing (and say so when that is not possible).
bench-tools:
	@command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	    apt-get install -y --no-install-recommends gcc libc6-dev >/dev/null 2>&1; } || \
	  echo "make bench: no C compiler and could not install gcc (needs root and apt-get);" \
	    "the sync-delay figures will be missing" >&2

# The table the README pastes (bench/__main__.py: the shared modules in bench/, each game's
# in its folder's bench/, named by its manifest). BENCH_MODULES runs part of it, in the
# table's order: `make bench BENCH_MODULES=bench.camera,games.board.bench.ui` (module
# names, comma-separated; default all; an unknown name is refused with the list).
# BENCH_RUNS sets the runs per column (default 3).
bench: $(STAMP) $(MO) bench-tools
	$(BIN)/python -m bench

# The hostile-input and fault figures of issues 9, 21 and 33 (`make test` runs the same tests,
# smaller; the power cuts need the C compiler bench-tools gets), and the full sizes of the long proofs `make test` runs small: the board round-trip
# (1,000 games per edition), the engine's Hypothesis state machine (1,500 examples) and the
# SIGKILL crash tests (4 databases per kind, 55 kills each), the card games cross-checked by the
# referee (1,500) and round-tripped through transcripts (1,000).
fuzz: $(STAMP) $(MO) bench-tools
	REPLAY_FUZZ_CASES=40000 CONFIG_FUZZ_CASES=2000 FIRMWARE_FUZZ_LINES=200000 \
	JOURNAL_FUZZ_CASES=200 BOARD_ROUNDTRIP_GAMES=1000 STATEFUL_EXAMPLES=1500 \
	POWERCUT_CASES=100 CRASH_DATABASES=4 SIMULATE_GAMES=1500 ROUNDTRIP_GAMES=1000 \
	BOARD_ORACLE_POSITIONS=5000 RELEASE_FUZZ_CASES=300 RESTORE_FUZZ_CASES=500 \
	CAMERA_FUZZ_CASES=300 \
	$(BIN)/python -m pytest -q -s -p no:cacheprovider \
	  tests/companion/test_fuzz_input.py tests/hardware/test_firmware_fuzz.py \
	  tests/companion/test_journal_corruption.py tests/companion/test_journal_fsync.py \
	  tests/companion/test_journal_powercut.py tests/companion/test_journal_never_silent.py \
	  tests/ui/test_two_instances.py tests/companion/board/test_board_roundtrip.py \
	  tests/companion/board/test_board_oracle.py \
	  tests/companion/test_engine_stateful.py tests/companion/test_crash.py \
	  tests/companion/test_simulate.py tests/companion/test_roundtrip.py \
	  tests/deploy/test_deploy_release_update.py tests/camera/test_camera_hostile.py \
	  tests/companion/test_restore_fuzz.py > .fuzz.log 2>&1; status=$$?; \
	grep -E "fuzz|instances:|passed|failed|error" .fuzz.log; rm -f .fuzz.log; exit $$status

# Pictures of every screen at the five displays, in English and French. `make test` draws
# them only into screenshots/ (ignored by git, so a CI clone stays clean); this target
# draws them afresh and copies them to docs/screenshots/<W>x<H>/ for the README.
SHOT_TESTS := tests/ui/test_ui_screens.py tests/ui/test_ui_board_layouts.py \
	tests/ui/test_ui_board_answers.py tests/ui/test_ui_block_button.py \
	tests/ui/test_ui_tap_again.py tests/ui/test_ui_teach_reach.py \
	tests/ui/test_ui_table_uncut.py tests/ui/test_ui_board_edges.py \
	tests/ui/test_ui_board_end.py tests/ui/test_ui_board_portrait.py \
	tests/ui/test_ui_first_screen.py tests/ui/test_ui_board_teach.py \
	tests/ui/test_ui_board_camera_shots.py
screenshots: $(STAMP) $(MO)
	rm -rf screenshots
	$(BIN)/python -m pytest -q $(SHOT_TESTS)
	for dir in screenshots/*x*/; do \
	  size=$$(basename $$dir); rm -rf docs/screenshots/$$size; \
	  mkdir -p docs/screenshots/$$size && cp $$dir*.png docs/screenshots/$$size/; \
	done

# The release a parent carries to the Pi (deploy/README.md): dist/sorry-companion-<release>.tar.gz
# with the app's wheel and every dependency's aarch64 wheel from deploy/requirements-pi.lock.
# `make lock` rewrites that lock from requirements.txt (both need PyPI).
lock: $(STAMP)
	$(BIN)/python deploy/lock.py

dist: $(STAMP)
	PYTHON=$(BIN)/python deploy/dist.sh

# The release signing key, made once and kept outside the tree
# ($$SORRY_COMPANION_SIGNING_HOME, else ~/.config/sorry-companion/signing): `make dist` signs
# every archive with it, and a table takes an update only when it is signed by the key its
# first install recorded.
signing-key:
	deploy/dist.sh --new-key

# The install proven on an emulated arm64 Debian Bookworm machine (deploy/pi-vm/README.md);
# not part of `make test`: it needs root, qemu and about half an hour.
pi-vm: $(STAMP)
	$(BIN)/python deploy/pi-vm/run.py $(PI_VM_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis $(MO)
