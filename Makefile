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

.PHONY: run test bench lint venv clean

$(STAMP): setup.cfg pyproject.toml requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt -e .
	touch $@

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/sorry-companion run $(RUN_ARGS)

# The doctests of the core and the hardware (not the Pico's main.py: MicroPython only),
# the core's types (mypy --strict), then the suite.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict companion/
	$(BIN)/python -m pytest -q --doctest-modules companion hardware \
		--ignore=hardware/firmware/main.py
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
