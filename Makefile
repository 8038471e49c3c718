# IDKit — the two commands of the README, and the tools around them.
SWIFT ?= swift

.PHONY: demo test deps build release bench compare vectors clean

## Install what is missing, build in release mode, validate the bundled sample MRZs.
demo: deps release
	.build/release/idkit validate --reference-date 2025-01-01 TestVectors/mrz/samples.txt

## Install what is missing, then build and run every test.
test: deps
	$(SWIFT) build
	$(SWIFT) test

deps:
	@scripts/install-deps

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

## Benchmarks (release build): parse, correct, JSON, and a 1,000,000-MRZ stream through idkit.
bench: release
	.build/release/idkit-bench

## Side-by-side with PyPI's mrz package (installs it with pip if missing).
compare: release
	@python3 -c "import mrz" 2>/dev/null || python3 -m pip install -q mrz
	python3 Benchmarks/compare_pymrz.py

## Rewrite TestVectors/mrz/*.json from the seeded generator (needs pycountry).
vectors:
	@python3 -c "import pycountry" 2>/dev/null || python3 -m pip install -q pycountry
	python3 TestVectors/mrz/make_vectors.py

clean:
	$(SWIFT) package clean
