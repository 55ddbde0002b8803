# Relic Press: the two commands of the setup contract are `make pnp` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: pnp test check lint bench clean

$(STAMP): pyproject.toml
	@$(PY) pipeline/bootstrap.py $(VENV)

CONTENT ?= content
PACKS = $(patsubst $(CONTENT)/%/pack.yaml,%,$(wildcard $(CONTENT)/*/pack.yaml))

# one line per pack as it is checked (schemas, references, rules, print set, rulebook); a pack
# with diagnostics shows them all below its line, and an error stops here
check: $(STAMP)
	@for pack in $(PACKS); do \
	  printf 'relic: checking $(CONTENT)/%s (schemas, references, rules, print set, rulebook)… ' "$$pack"; \
	  out=$$($(BIN)/relic check "$(CONTENT)/$$pack" 2>&1); rc=$$?; \
	  if [ "$$(printf '%s\n' "$$out" | wc -l)" -le 1 ]; then printf '%s\n' "$$out"; \
	  else printf '\n%s\n' "$$out"; fi; \
	  [ $$rc -eq 0 ] || exit $$rc; \
	done

pnp: check
	@echo "relic: building the print-and-play set of catacombs (cards and rulebook, ru and en) into build/catacombs/…"
	@$(BIN)/relic build --pack catacombs --lang all
	@echo "relic: done: print at home from build/catacombs/<lang>/pnp/, send build/catacombs/<lang>/shop/ to a print shop, read build/catacombs/<lang>/rulebook.pdf"
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
	$(BIN)/python bench/serve_bench.py

clean:
	rm -rf build/* .venv
	touch build/.gitkeep
