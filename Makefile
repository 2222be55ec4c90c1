# geocampaign: build, run the example, test, benchmark.
# Targets that build first make sure libyaml and libxml2 are there: installed with apt-get when run as root,
# else the missing package is named.

SWIFT ?= swift
BIN_RELEASE := .build/release/geocampaign
SIZE ?= S M L

.PHONY: all deps build release example test bench conformance fuzz clean

all: build

deps:
	@if ! pkg-config --exists yaml-0.1 2>/dev/null || [ ! -f /usr/include/yaml.h ] \
	    || ! pkg-config --exists libxml-2.0 2>/dev/null || [ ! -f /usr/include/libxml2/libxml/xmlreader.h ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libyaml-dev, libxml2-dev and pkg-config"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libyaml-dev libxml2-dev pkg-config; \
	  else \
	    echo "libyaml or libxml2 is missing: install them first (Debian/Ubuntu: sudo apt-get install libyaml-dev libxml2-dev pkg-config; macOS: brew install libyaml libxml2)"; \
	    exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The main job on the bundled example: replay examples/visits.jsonl through campaigns/.
example: release
	$(BIN_RELEASE) validate campaigns
	$(BIN_RELEASE) evaluate --campaigns campaigns --history examples/visits.jsonl

test: deps
	$(SWIFT) build
	$(SWIFT) test

conformance: release
	../shared/tools/conformance-check --bin $(BIN_RELEASE)

bench: release
	$(SWIFT) build -c release --product geocampaign-bench
	python3 scripts/bench.py --sizes "$(SIZE)"

# libFuzzer targets, built with -sanitize=fuzzer,address (docs/testing.md). A new target is its
# file fuzz/targets/NAME.swift plus one line here: FUZZ_TARGETS += NAME
FUZZ_SECONDS ?= 30
FUZZ_TARGETS := jsonl-line yaml-campaign geojson gpx

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh $(FUZZ_TARGETS)

clean:
	rm -rf .build
