# Relic Press: the two commands of the setup contract are `make pnp` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: pnp test check lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

check: $(STAMP)
	$(BIN)/relic check content/

pnp: check
	$(BIN)/relic build --pack catacombs --lang all
	@echo "relic: PNGs of every component (png/, 300 DPI) are opt-in: $(BIN)/relic build --pack catacombs --png"

test: $(STAMP)
	$(BIN)/ruff check pipeline engine tests bench
	$(BIN)/python -m pytest -n 2

bench: $(STAMP)
	$(BIN)/python bench/check_bench.py
	$(BIN)/python bench/build_bench.py
	$(BIN)/python bench/card_bench.py
	$(BIN)/python bench/rulebook_bench.py
	$(BIN)/python bench/sim_bench.py

clean:
	rm -rf build/* .venv
	touch build/.gitkeep
