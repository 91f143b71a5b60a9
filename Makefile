# ACL host-memory conformance kit. `make help` lists the targets and variables.
SHELL := /bin/bash
# Variables (`## ` comments are what `make help` shows):
PYTHON ?= python3## interpreter that creates .venv
ACL_LIB ?= build/sim/libascendcl.so## library to test: a path, or auto ($ASCEND_HOME_PATH/lib64/libascendcl.so)
JOBS ?= auto## parallel workers of a run (a number or auto)
EXPECTATIONS ?=## expectations (waivers) files for certify, space-separated
BASELINE ?=## previous bundle or run: history for certify, baseline for gate
CANDIDATE ?=## the run gate compares with BASELINE
FAIL_ON ?=## gate: classes that fail it (default regression,inconclusive,coverage-loss,waiver-change; python -m conformance gate --help lists them)
SIGN ?=## certify: Ed25519 private key (PEM) to sign the bundle's manifest with
EXPLORE_STEPS ?=## conformance: actions per explorer case (default of the run: 2000)
EXPLORE_SEED ?=## conformance, explore-nightly: seed of the explorer (default of the run: 0; nightly: the date)
NIGHTLY_STEPS ?= 60000## explore-nightly: actions per explorer case
# Every suite run starts fresh interpreters (its judge processes, and about 216 runs in the
# self-test). Where the environment forbids bytecode caches (PYTHONDONTWRITEBYTECODE, set on some
# CI images), each one compiles the kit again and pytest rewrites its asserts again: 1.3 s of CPU
# a run, measured.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
# The generator checks every rule's check: against the kit's procedures only when told where they are.
CHECKS := --checks conformance/checks
# Git directories of hicann/runtime and hicann/driver: with them `make lint` checks every citation
# at its release (the tags, the 9.2.0-beta.2 branch's recorded commit, the pinned commits).
RUNTIME_GIT ?=## lint: git directory of hicann/runtime (check citations at their releases)
DRIVER_GIT ?=## lint: git directory of hicann/driver (check driver citations at the pinned commit)
# The pinned API pages: with them `make lint` also checks every doc citation, every quote of a Chinese
# rule text on its zh_source line and every official glossary term on its page line. The default is
# the shared copy beside the checkout, where there is one.
REFERENCE ?= $(wildcard ../shared/reference/cann-runtime-api)## lint: directory of the pinned API pages (doc citations, Chinese quotes, glossary terms)
CITATIONS := $(if $(RUNTIME_GIT),--runtime-git $(RUNTIME_GIT)) $(if $(DRIVER_GIT),--driver-git $(DRIVER_GIT)) \
	$(if $(REFERENCE),--reference $(REFERENCE))
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help prereqs setup node generate check-generated lint sim sim-asan test docs-check conformance explore-nightly selftest selftest-releases certify gate merge bench clean

help: ## list the targets and variables
	@echo "Targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'
	@echo "Variables (make TARGET NAME=value):"
	@grep -E '^[A-Z_]+ \?=.*## ' $(MAKEFILE_LIST) | sed -E 's/^([A-Z_]+) \?= ?([^#]*)## (.*)/  \1|\3 (default: \2)/' \
		| awk -F"|" "{printf \"%-16s %s\\n\", \$$1, \$$2}" | sed -E 's/ \(default: \)/ (default: none)/'

# What make test needs beyond Python: checked first, in one line, so that a missing one does not
# fail a test minutes into the run (Chromium opens the HTML report in the browser tests).
PREREQS := cc make node npm
prereqs: ## check that the tools make test needs are installed (one line naming what is missing)
	@missing=""; for tool in $(PREREQS); do command -v $$tool >/dev/null || missing="$$missing $$tool"; done; \
	command -v chromium >/dev/null || command -v chromium-browser >/dev/null || command -v google-chrome >/dev/null \
		|| missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then echo "make test needs:$$missing (see README.md, Install); nothing was run"; exit 2; fi; \
	echo "prerequisites: ok ($(PREREQS) chromium)"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(STAMP) ## create .venv and install the project with its dependencies

generate: $(STAMP) ## regenerate acl_hostmem_generated/ from spec/ and the templates (changed files only)
	$(PY) -m codegen generate $(CHECKS)

check-generated: $(STAMP) ## fail when acl_hostmem_generated/ is stale
	$(PY) -m codegen check $(CHECKS)

lint: $(STAMP) ## validate the spec, run ruff and the type checker (mypy)
	$(PY) -m codegen lint $(CHECKS) --sim sim $(CITATIONS)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

sim: ## build the reference simulator into build/sim/libascendcl.so
	$(MAKE) -C sim

sim-asan: ## build the simulator with ASan/UBSan into build/sim-asan/
	$(MAKE) -C sim asan

NODE_STAMP := allure/node_modules/.package-lock.json
$(NODE_STAMP): allure/package.json allure/package-lock.json
	cd allure && npm ci --no-audit --no-fund --loglevel=error

node: $(NODE_STAMP) ## install the pinned Allure 3 renderer into allure/node_modules (npm ci)

# Three workers on two cores: many tests wait on a run's subprocesses (its judge, probe and
# executor starting, a hang's timeout), so a third keeps both cores busy; the same tree took
# 256 s under -n 2, 206 s under -n 3 and 228 s under -n 4.
test: prereqs $(STAMP) $(NODE_STAMP) check-generated lint sim sim-asan ## run every test (unit, simulator, harness, certification, the docs' commands, self-test)
	$(PY) -m pytest -n 3 --durations=15 tests
	ACLSIM_LIB=build/sim-asan/libascendcl.so $(PY) -m pytest -n 2 -q tests/sim
	$(PY) -m conformance selftest

# conformance, certify and bench regenerate first, so that an edited spec is what the simulator is built
# from and what runs; generate rewrites only changed files, so an unchanged spec rebuilds nothing.
conformance: $(STAMP) $(NODE_STAMP) ## regenerate, build the simulator, run the suite (ACL_LIB=... for a real library)
	$(PY) -m codegen generate $(CHECKS)
	$(MAKE) -C sim
	$(PY) -m conformance run --acl-lib $(ACL_LIB) -n $(JOBS) $(if $(EXPLORE_STEPS),--acl-explore-steps $(EXPLORE_STEPS)) $(if $(EXPLORE_SEED),--acl-explore-seed $(EXPLORE_SEED))

explore-nightly: $(STAMP) $(NODE_STAMP) ## the suite with a long explorer budget (NIGHTLY_STEPS) and the date as seed
	$(PY) -m codegen generate $(CHECKS)
	$(MAKE) -C sim
	$(PY) -m conformance run --acl-lib $(ACL_LIB) -n $(JOBS) --acl-timeout 120 --acl-explore-steps $(NIGHTLY_STEPS) \
		--acl-explore-seed $(or $(EXPLORE_SEED),$(shell date +%Y%m%d))

docs-check: $(STAMP) $(NODE_STAMP) sim ## run the commands marked in README.md and docs/ and check their documented outcome (part of make test)
	$(PY) -m pytest -n 2 -q tests/docs

selftest: $(STAMP) sim ## prove the suite: no false alarm on the faithful simulator, every fault caught
	$(PY) -m conformance selftest

selftest-releases: $(STAMP) sim ## the self-test with every fault on every older release it concerns (nightly)
	$(PY) -m conformance selftest --all-releases

certify: $(STAMP) $(NODE_STAMP) ## certify ACL_LIB with the full suite into reports/certification/; exit 1 when NOT CERTIFIED
	$(PY) -m codegen generate $(CHECKS)
	$(MAKE) -C sim
	$(PY) -m conformance certify --acl-lib $(ACL_LIB) -n $(JOBS) $(foreach f,$(EXPECTATIONS),--acl-expectations $(f)) $(if $(BASELINE),--baseline $(BASELINE)) $(if $(SIGN),--sign $(SIGN))

# make itself can only exit 0 or 2, so the recipe prints the gate's own status (0 pass,
# 1 gated by a --fail-on class, 2 cannot compare) as its last line; run
# `python -m conformance gate` directly where a caller needs that status as an exit code.
gate: $(STAMP) ## compare BASELINE and CANDIDATE runs (bundles or summary.json); fails on a regression or lost coverage
	@test -n "$(BASELINE)" -a -n "$(CANDIDATE)" || { echo "usage: make gate BASELINE=... CANDIDATE=... [FAIL_ON=...] [GATE_ARGS=...]"; exit 2; }
	@status=0; $(PY) -m conformance gate "$(BASELINE)" "$(CANDIDATE)" $(if $(filter command line environment,$(origin FAIL_ON)),--fail-on "$(FAIL_ON)") $(foreach f,$(EXPECTATIONS),--expectations $(f)) $(GATE_ARGS) || status=$$?; \
	echo "gate exit status: $$status"; exit $$status

RUNS ?=
OUT ?= reports/fleet
merge: $(STAMP) ## merge RUNS (bundles, report dirs or folders of them) into one compatibility matrix in OUT
	@test -n "$(RUNS)" || { echo "usage: make merge RUNS='dir1 dir2 ...|folder' [OUT=reports/fleet] [RULES=globs]"; exit 2; }
	$(PY) -m conformance merge $(RUNS) --out $(OUT) $(if $(RULES),--rules '$(RULES)')

clean: ## remove build outputs and reports
	rm -rf build dist reports/allure-results reports/allure-report reports/*.json reports/*.xml

bench: $(STAMP) ## measure generation, the suite's serial vs parallel time, merging 500 runs, wrapper/raw cost per call, explorer calls/s, a run's fixed cost
	$(PY) -m codegen generate $(CHECKS)
	$(MAKE) -C sim
	$(PY) bench/bench.py
