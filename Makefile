# geocampaign: build, run the example, test, benchmark.
# Targets that build first make sure libyaml is there: installed with apt-get when run as root,
# else the missing package is named.

SWIFT ?= swift
BIN_RELEASE := .build/release/geocampaign
SIZE ?= S M L

.PHONY: all deps build release example test bench conformance clean dist test-spark bench-spark

all: build

deps:
	@if ! pkg-config --exists yaml-0.1 2>/dev/null || [ ! -f /usr/include/yaml.h ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libyaml-dev and pkg-config"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libyaml-dev pkg-config; \
	  else \
	    echo "libyaml is missing: install it first (Debian/Ubuntu: sudo apt-get install libyaml-dev pkg-config; macOS: brew install libyaml)"; \
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

# A binary that travels (docs/scaling.md): release build with the Swift runtime linked
# statically, packed with campaigns/ into dist/geocampaign-linux-ARCH.tar.gz; prints and checks
# (ldd) the system libraries it still needs.
dist: deps
	bash spark/dist.sh

# The Spark job (spark/): Java from Debian when root and missing, pyspark and pyarrow from PyPI
# in a virtual environment outside the clone (reused: $${XDG_CACHE_HOME:-~/.cache}/geocampaign/
# venv-spark), then the job in local[2] against single-process runs.
test-spark: dist
	@venv="$$(bash spark/venv.sh)" && \
	  PYSPARK_PYTHON="$$venv/bin/python" "$$venv/bin/python" -m pytest -q -p no:cacheprovider spark/test_geocampaign_spark.py

# The job on the bench M city with 2, 4 and 8 partitions against one process (docs/scaling.md).
bench-spark: dist
	@venv="$$(bash spark/venv.sh)" && \
	  PYSPARK_PYTHON="$$venv/bin/python" "$$venv/bin/python" spark/bench_spark.py

clean:
	rm -rf .build
