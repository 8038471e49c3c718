# IDKit — the two commands of the README, and the tools around them.
SWIFT ?= swift
# OpenCV's narrow Debian packages have no .pc file; scripts/pkgconfig/idkit-opencv.pc stands in.
export PKG_CONFIG_PATH := $(CURDIR)/scripts/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

.PHONY: schemas bench-real-nomrz bench-viz-real bench-startup mrz-model-degraded bench-conditions bench-detect-real bench-real-scales bench-real-cut python-venv python-test bench-python bench-chip soak-service check-api bench-service json-snapshot mrz-model mrz-model-eval bench-stress bench-real bench-pdf417-zxing fuzz fuzz-build check-deep sanitizers leaks limits demo test deps build release bench bench-barcode bench-scan compare vectors vectors-aamva vectors-pdf417 vectors-document vectors-images ocrb-templates clean

## Install what is missing, build in release mode, validate the bundled sample MRZs.
demo: deps release
	.build/release/idkit scan TestVectors/images/tilt-01-td1.jpg TestVectors/images/small-00-td3.jpg
	.build/release/idkit validate --reference-date 2025-01-01 TestVectors/mrz/samples.txt
	.build/release/idkit barcode TestVectors/pdf417/images/phone-00.jpg

## Install what is missing, then build and run every test: the Swift tests (the C program of
## the C interface among them), then the Python package's tests in .build/python-venv.
test: deps
	$(SWIFT) build
	@ln -sf libIDKitC.so .build/debug/libidkit.so
	OMP_THREAD_LIMIT=1 $(SWIFT) test
	$(MAKE) --no-print-directory python-test PYTHON_LIB=$(CURDIR)/.build/debug/libIDKitC.so

deps:
	@scripts/install-deps

build:
	$(SWIFT) build
	@ln -sf libIDKitC.so .build/debug/libidkit.so

## The release build; libidkit.so (the C interface, issue 16) beside idkit: SwiftPM names the
## dynamic library after its product, IDKitC, since a product cannot share the name `idkit`.
release:
	$(SWIFT) build -c release
	@ln -sf libIDKitC.so .build/release/libidkit.so

## The JSON Schemas of every contract (docs/schemas/*.schema.json, draft 2020-12), from the
## descriptions beside the writers (`JSONSchemaDescribed`); SchemaFileTests fails when the committed
## files differ from them, python/tests/test_schemas.py validates real outputs against them.
schemas:
	$(SWIFT) build --product idkit-schemas
	.build/debug/idkit-schemas docs/schemas

## The Python package (python/) in a virtual environment of its own, with the library given
## (default: the release build's), and its pytest suite (the Dask test runs a 2-worker cluster).
PYTHON_VENV ?= .build/python-venv
PYTHON_LIB ?= $(CURDIR)/.build/release/libIDKitC.so
# setuptools 70.1 or later builds wheels itself (the venv's own is older and needs `wheel`).
# Dask's `distributed` extra pins distributed to dask's own version: named apart, a dask release
# whose distributed is not yet on PyPI paired with a distributed of 2021 that cannot import.
PYTHON_PACKAGES = pytest cffi orjson pyarrow jsonschema "dask[bag,dataframe,distributed]" "setuptools>=70.1"
python-venv:
	@test -x $(PYTHON_VENV)/bin/python || python3 -m venv $(PYTHON_VENV)
	@$(PYTHON_VENV)/bin/python -c "import pytest, cffi, orjson, pyarrow, jsonschema, dask.bag, dask.dataframe, distributed, setuptools; \
		assert tuple(map(int, setuptools.__version__.split('.')[:2])) >= (70, 1)" 2>/dev/null \
		|| $(PYTHON_VENV)/bin/pip install -q --upgrade $(PYTHON_PACKAGES)

## IDKit from Python beside PyPI's mrz, and through Dask with 1 and 2 workers (release build).
bench-python: release python-venv
	@$(PYTHON_VENV)/bin/python -c "import mrz" 2>/dev/null || $(PYTHON_VENV)/bin/pip install -q mrz
	IDKIT_LIBRARY=$(CURDIR)/.build/release/libIDKitC.so $(PYTHON_VENV)/bin/pip install -q --no-build-isolation --no-deps --force-reinstall ./python
	$(PYTHON_VENV)/bin/python Benchmarks/python_bench.py

## Passive authentication of ../shared's issued documents: IDKit, then asn1crypto + cryptography.
bench-chip: release python-venv
	@$(PYTHON_VENV)/bin/python -c "import asn1crypto, cryptography" 2>/dev/null || $(PYTHON_VENV)/bin/pip install -q asn1crypto cryptography
	.build/release/idkit-bench chip ../shared/testdata/emrtd/real-documents
	$(PYTHON_VENV)/bin/python Benchmarks/compare_chip.py

python-test: python-venv
	IDKIT_LIBRARY=$(PYTHON_LIB) $(PYTHON_VENV)/bin/pip install -q --no-build-isolation --no-deps --force-reinstall ./python
	$(PYTHON_VENV)/bin/python -m pytest -q python/tests

## Benchmarks (release build): parse, correct, JSON, and a 1,000,000-MRZ stream through idkit.
bench: release
	.build/release/idkit-bench

## PDF417 decode table on 450 two-megapixel images (made here with zint; needs pillow, numpy),
## side by side with plain zxing-cpp 1.4 and with PyPI's zxing-cpp 3.x on the same images.
BENCH_IMAGES ?= .build/pdf417-bench
bench-barcode: release
	@command -v zint >/dev/null || scripts/install-deps --with zint
	@python3 -c "import PIL, numpy, zxingcpp" 2>/dev/null || python3 -m pip install -q pillow numpy zxing-cpp
	@test -f $(BENCH_IMAGES)/manifest.json || python3 TestVectors/pdf417/make_images.py --bench $(BENCH_IMAGES) --count 50
	.build/release/idkit-bench barcode-images $(BENCH_IMAGES)
	python3 Benchmarks/compare_zxingcpp.py $(BENCH_IMAGES)

## MRZ reading from images, by degradation group: exact-MRZ rate, character accuracy, false
## acceptance, median and p90 ms, peak memory; on 20 generated photos per group (not committed),
## the extended groups of issue 12 (curved, motion, print, occluded, textnear, tiny) included.
SCAN_BENCH_IMAGES ?= .build/scan-bench-ext
bench-scan: release
	@test -f /usr/share/fonts/opentype/ocr-b/OCRB.otf || scripts/install-deps --with fonts-ocr-b fonts-dejavu-core fonts-urw-base35
	@python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q pillow numpy
	@test -f $(SCAN_BENCH_IMAGES)/manifest.json || python3 TestVectors/images/make_images.py --bench $(SCAN_BENCH_IMAGES) --count 20 --extended
	.build/release/idkit-bench scan-images $(SCAN_BENCH_IMAGES)

## The stress run of issue 12: 5,000 generated photos of random conditions (the extended ones too),
## half of them with 1-3 confusions injected into the print; false acceptance must stay 0.
STRESS_IMAGES ?= .build/scan-stress
STRESS_COUNT ?= 5000
bench-stress: release
	@test -f /usr/share/fonts/opentype/ocr-b/OCRB.otf || scripts/install-deps --with fonts-ocr-b fonts-dejavu-core fonts-urw-base35
	@python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q pillow numpy
	@test -f $(STRESS_IMAGES)/manifest.json || python3 TestVectors/images/make_images.py --stress $(STRESS_IMAGES) --count $(STRESS_COUNT)
	.build/release/idkit-bench scan-images $(STRESS_IMAGES)

## Retrain the MRZ character recognizer (seeded; 15-25 minutes on 2 cores), with the printer
## variation of issue 37 (the oblique OCR-B cut and patchy ink, each on 10% of the lines): writes
## Sources/CIDKitData/mrz-glyphs.onnx (compiled in) and scripts/mrz-ocr/training-report.json.
mrz-model:
	@test -f /usr/share/fonts/opentype/ocr-b/OCRB.otf || scripts/install-deps --with fonts-ocr-b
	@python3 -c "import PIL, numpy, tensorflow, onnx, onnxruntime" 2>/dev/null || python3 -m pip install -q pillow numpy tensorflow-cpu onnx onnxruntime
	MRZ_OBLIQUE_SHARE=0.1 MRZ_PATCHY_SHARE=0.1 python3 scripts/mrz-ocr/train.py

## Retrain the second opinion for hard captures (seeded; about 40 minutes on 2 cores): the same
## network trained with motion blur of up to a cap height at any angle on a quarter of the lines
## (MRZGlyphModel.degraded, read only where the main model's reading settles nothing): writes
## Sources/CIDKitData/mrz-glyphs-degraded.onnx
## and scripts/mrz-ocr/training-report-degraded.json.
mrz-model-degraded:
	@test -f /usr/share/fonts/opentype/ocr-b/OCRB.otf || scripts/install-deps --with fonts-ocr-b
	@python3 -c "import PIL, numpy, tensorflow, onnx, onnxruntime" 2>/dev/null || python3 -m pip install -q pillow numpy tensorflow-cpu onnx onnxruntime
	MRZ_MODEL=degraded MRZ_MOTION_SHARE=0.25 MRZ_MOTION_LONG=1 python3 scripts/mrz-ocr/train.py

## The recognizer on real print, character by character: the windows IDKit's reader feeds it on
## ../shared/testdata/mrz-real, and each model's errors, margins and log-loss against the printed
## characters (MODELS: the committed model unless given; a trial from MRZ_OUT=DIR make mrz-model).
MODELS ?= Sources/CIDKitData/mrz-glyphs.onnx
mrz-model-eval: release
	@python3 -c "import numpy, onnxruntime" 2>/dev/null || python3 -m pip install -q numpy onnxruntime
	.build/release/idkit-bench recognizer-windows ../shared/testdata/mrz-real .build/real-windows
	python3 scripts/mrz-ocr/eval_real.py .build/real-windows $(MODELS) -v

## Blurred PDF417 by module size and blur strength, IDKit beside PyPI zxing-cpp (issue 14).
bench-blur: release
	@command -v zint >/dev/null || scripts/install-deps --with zint
	@python3 -c "import PIL, numpy, zxingcpp" 2>/dev/null || python3 -m pip install -q pillow numpy zxing-cpp
	python3 Benchmarks/blur_matrix.py .build/release/idkit .build/blur-matrix 8

## Start-up (issue 38): idkit validate and aamva of one input, and idkit scan of one photo,
## against a Swift program that only imports Foundation and prints a line (median of 21 runs each,
## one run; BASELINE=path/to/idkit of another build adds its rows).
bench-startup: release
	@mkdir -p .build/bench-hello && printf 'import Foundation\nprint("hello")\n' > .build/bench-hello/main.swift
	$(SWIFT)c -O .build/bench-hello/main.swift -o .build/bench-hello/hello
	python3 Benchmarks/startup.py .build/bench-hello/hello .build/release/idkit $(BASELINE)

## Document detection (issue 14): corners and format on the generated photos of bench-scan (one
## document each, corner ground truth), on 40 photos of two documents side by side, and on 40
## scans of both sides of a card (seed 1: not the committed ones).
PAIR_IMAGES ?= .build/pairs
SIDES_IMAGES ?= .build/sides
bench-detect: release
	@test -f $(SCAN_BENCH_IMAGES)/manifest.json || python3 TestVectors/images/make_images.py --bench $(SCAN_BENCH_IMAGES) --count 20 --extended
	@test -f $(PAIR_IMAGES)/manifest.json || python3 TestVectors/images/make_images.py --pairs $(PAIR_IMAGES) --count 40
	@test -f $(SIDES_IMAGES)/manifest.json || python3 TestVectors/images/make_images.py --sides $(SIDES_IMAGES) --count 40 --seed 1
	taskset -c 0 .build/release/idkit-bench detect $(SCAN_BENCH_IMAGES)
	taskset -c 0 .build/release/idkit-bench detect $(PAIR_IMAGES)
	taskset -c 0 .build/release/idkit-bench detect $(SIDES_IMAGES)

## Hard capture conditions (issue 37): MRZ reading per condition (curved, motion, distractor,
## occlusion, printer) on 20 photos each drawn by TestVectors/images/conditions.py with another seed
## than the committed set, and on the 15 photos of another generator in ../shared/testdata/mrz-conditions
## (one core). `idkit-bench conditions DIR --write-expected FILE` rewrites the test's ratchet file.
CONDITION_IMAGES ?= .build/conditions-bench
bench-conditions: release
	@test -f /usr/share/fonts/opentype/ocr-b/OCRB.otf || scripts/install-deps --with fonts-ocr-b fonts-dejavu-core fonts-urw-base35
	@python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q pillow numpy
	@test -f $(CONDITION_IMAGES)/manifest.json || python3 TestVectors/images/conditions.py $(CONDITION_IMAGES) --count 20 --seed 1
	taskset -c 0 .build/release/idkit-bench conditions $(CONDITION_IMAGES) -v
	taskset -c 0 .build/release/idkit-bench conditions ../shared/testdata/mrz-conditions -v

## The visual zone of the real specimens: the MRZ's fields found printed there, the captioned
## fields, the cost per page (Tesseract on one core: OMP_THREAD_LIMIT=1, as idkit sets it).
## Beside it, Tesseract's own command line on the same straightened pages, as a team would script it.
bench-viz-real: release
	@mkdir -p .build/viz-pages
	OMP_THREAD_LIMIT=1 taskset -c 0 .build/release/idkit-bench viz-real $(REAL_IMAGES) -v --dump .build/viz-pages
	@command -v tesseract >/dev/null || scripts/install-deps --with tesseract-ocr
	taskset -c 0 python3 Benchmarks/compare_tesseract_viz.py $(REAL_IMAGES)/labels.jsonl .build/viz-pages eng
	taskset -c 0 python3 Benchmarks/compare_tesseract_viz.py $(REAL_IMAGES)/labels.jsonl .build/viz-pages Latin

## Document outlines on the real specimens against the corners labeled by eye
## (TestVectors/mrz-real/document-corners.json): right / loose / missed / wrong / extra entries per
## image group, as the ratchet test judges them (one core). BASELINE=DIR also judges another build's
## saved `idkit scan --json` output (DIR/NAME.json per image) in the same run.
bench-detect-real: release
	taskset -c 0 .build/release/idkit-bench detect-real $(REAL_IMAGES) -v
	@if [ -n "$(BASELINE)" ]; then echo "baseline ($(BASELINE)):"; .build/release/idkit-bench detect-real $(REAL_IMAGES) -v --from-json $(BASELINE); fi

## The real specimen images of ../shared/testdata/mrz-real: IDKit (whole scan, one core) and, in the
## same run, PassportEye with Debian's Tesseract (installed here if missing).
REAL_IMAGES ?= ../shared/testdata/mrz-real
bench-real: release
	taskset -c 0 .build/release/idkit-bench scan-real $(REAL_IMAGES)
	@command -v tesseract >/dev/null || scripts/install-deps --with tesseract-ocr tesseract-ocr-eng
	@python3 -c "import passporteye" 2>/dev/null || python3 -m pip install -q passporteye
	taskset -c 0 python3 Benchmarks/compare_passporteye.py $(REAL_IMAGES)

## The same specimens shrunk to 0.7, 0.5 and 0.35 times (Lanczos, into .build/real-scales; never
## committed): how the reader holds up as characters fall from 12-20 px towards 5 px (one core).
REAL_SCALES ?= 0.7 0.5 0.35
bench-real-scales: release
	@python3 -c "import PIL" 2>/dev/null || python3 -m pip install -q pillow
	python3 Benchmarks/rescale_real.py $(REAL_IMAGES) .build/real-scales $(REAL_SCALES)
	@for s in $(REAL_SCALES); do echo "scale $$s:"; taskset -c 0 .build/release/idkit-bench scan-real .build/real-scales/s$$s; done

## What a scan costs without an MRZ (issue 37): the real specimens whole and cut above their MRZ,
## in process, in one run (one core, barcodes on).
bench-real-nomrz: release
	taskset -c 0 .build/release/idkit-bench scan-real-nomrz $(REAL_IMAGES) -v

## The real specimens cut through their MRZ's first or last character (Benchmarks/cut_real.py):
## what is in view read as printed, nothing cut vouched for, the capture hint (issue 12).
bench-real-cut: release
	@python3 -c "import PIL" 2>/dev/null || python3 -m pip install -q pillow
	python3 Benchmarks/cut_real.py .build/release/idkit $(REAL_IMAGES) .build/real-cut

## idkit serve under wrk (issue 15): /v1/mrz, /healthz, /v1/aamva, NDJSON batches, and a FastAPI
## service on uvicorn wrapping PyPI mrz with the same wrk script, in one run (wrk shares the cores).
bench-service: release
	@command -v wrk >/dev/null || scripts/install-deps --with wrk
	Benchmarks/service/bench.sh

## idkit serve at full load for 10 minutes (SOAK_SECONDS): RSS growth at most 5%, no errors.
soak-service: release
	@command -v wrk >/dev/null || scripts/install-deps --with wrk
	Benchmarks/service/soak.sh

## The running server against generated and hostile requests (issue 15): Schemathesis from
## /openapi.json, raw garbage, slow clients, 10,000 connections opened and dropped.
check-api: release
	scripts/check-api

## The zxing projects' PDF417 suites (../shared/testdata/pdf417-zxing): idkit barcode, idkit scan
## and PyPI zxing-cpp, judged as the zxing projects judge (needs pillow and zxing-cpp).
bench-pdf417-zxing: release
	@python3 -c "import PIL, zxingcpp" 2>/dev/null || python3 -m pip install -q pillow zxing-cpp
	python3 Benchmarks/compare_pdf417_zxing.py .build/release/idkit
	taskset -c 0 .build/release/idkit-bench zxing-suites ../shared/testdata/pdf417-zxing

## libFuzzer harnesses (mrz, aamva, merge, image, scan), built with AddressSanitizer into their own
## build folder (SwiftPM does not rebuild a target when only -Xswiftc flags change). The C and C++
## shims get the fuzzer's coverage too (fuzzer-no-link): the image decoders' size checks and the
## BMP and GIF walkers are IDKit's own C, where the fuzzer must see which branches it reaches.
FUZZ_SECONDS ?= 60
FUZZ_FLAGS = -Xswiftc -sanitize=fuzzer -Xswiftc -sanitize=address \
	-Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp -Xswiftc -DIDKIT_FUZZING \
	-Xcc -fsanitize=address,fuzzer-no-link -Xcxx -fsanitize=address,fuzzer-no-link
fuzz-build: deps
	$(SWIFT) build -c release --product idkit-fuzz --build-path .build/fuzz $(FUZZ_FLAGS)

fuzz: fuzz-build
	scripts/fuzz $(FUZZ_SECONDS)

## The whole test suite under AddressSanitizer and under ThreadSanitizer (C and C++ shims included).
sanitizers: deps
	$(SWIFT) build --sanitize=address --build-path .build/asan -Xcc -fsanitize=address -Xcxx -fsanitize=address --product IDKitC
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp $(SWIFT) test --sanitize=address --build-path .build/asan \
		-Xcc -fsanitize=address -Xcxx -fsanitize=address
	$(SWIFT) build --sanitize=thread --build-path .build/tsan --product IDKitC
	$(SWIFT) test --sanitize=thread --build-path .build/tsan

## LeakSanitizer over 10,000 scans, and peak memory on oversized inputs (docs/limits.md).
leaks: deps
	scripts/check-limits leaks

limits: deps release
	scripts/check-limits limits

## Not part of `make test`: a minute of fuzzing per harness, both sanitizers, leaks and limits.
check-deep: fuzz sanitizers leaks limits

## Side-by-side with PyPI's mrz package (installs it with pip if missing).
compare: release
	@python3 -c "import mrz" 2>/dev/null || python3 -m pip install -q mrz
	python3 Benchmarks/compare_pymrz.py

## Rewrite TestVectors/mrz/*.json from the seeded generator (needs pycountry).
vectors:
	@python3 -c "import pycountry" 2>/dev/null || python3 -m pip install -q pycountry
	python3 TestVectors/mrz/make_vectors.py

## Rewrite TestVectors/aamva/generated and expected.json (seeded).
vectors-aamva:
	python3 TestVectors/aamva/make_payloads.py

## Rewrite TestVectors/pdf417/images and misc (seeded; needs zint, pillow, numpy).
vectors-pdf417:
	@command -v zint >/dev/null || scripts/install-deps --with zint
	@python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q pillow numpy
	python3 TestVectors/pdf417/make_images.py

## Rewrite TestVectors/images (seeded; needs fonts-ocr-b, fonts-dejavu-core, fonts-urw-base35, pillow, numpy).
## Each committed image was drawn by the generator of the commit that added it; the generator has
## changed since (MRZ line spacing and height drawn per document), so this draws a set like them,
## not the same bytes, and the tests' expectations then need checking (docs/test-vectors.md).
vectors-images:
	@test -f /usr/share/fonts/opentype/ocr-b/OCRB.otf || scripts/install-deps --with fonts-ocr-b fonts-dejavu-core fonts-urw-base35
	@python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q pillow numpy
	python3 TestVectors/images/make_images.py
	python3 TestVectors/images/make_images.py --pairs TestVectors/images/documents --count 4
	python3 TestVectors/images/make_images.py --pairs TestVectors/images/documents-header --count 40 --picks 23 34 35
	python3 TestVectors/images/make_images.py --sides TestVectors/images/sides --count 40 --picks 0 1 5 6 9 16 33 34 38
	python3 TestVectors/images/make_images.py --sides TestVectors/images/sides-gap --count 40 --seed 1 --picks 14
	python3 TestVectors/images/make_images.py --sides TestVectors/images/sides-print --count 40 --seed 5 --picks 5 9
	python3 TestVectors/images/make_images.py --sides TestVectors/images/sides-cut --count 40 --seed 17 --picks 4 33
	python3 TestVectors/images/make_images.py --sides TestVectors/images/sides-faint --count 40 --seed 13 --picks 2
	python3 TestVectors/images/make_images.py --bench TestVectors/images/flatbed --groups flatscan --count 20 --seed 77 --picks 1 5 9
	python3 TestVectors/images/make_images.py --bench TestVectors/images/flatbed-placed --groups flatscan --count 40 --seed 4 --picks 0 10 15 17 34
	python3 TestVectors/images/make_images.py --bench TestVectors/images/flatbed-shaped --groups flatscan --count 40 --seed 4 --picks 29 32
	python3 TestVectors/images/make_images.py --bench TestVectors/images/flatbed-shifted --groups flatscan --count 40 --seed 5 --picks 9 21
	python3 TestVectors/images/conditions.py TestVectors/images/conditions --count 2 --seed 37
	python3 TestVectors/images/conditions.py TestVectors/images/starved --count 3 --seed 5 --groups printer --ink starved
	python3 TestVectors/images/conditions.py TestVectors/images/faint --count 20 --seed 12 --groups printer --picks 4
	python3 TestVectors/images/conditions.py TestVectors/images/fingered --count 20 --seed 12 --groups occlusion --picks 13

## Rewrite Sources/CIDKitData/ocrb-templates.gray (the OCR-B reference cells) from Debian's OCR-B font.
ocrb-templates:
	@test -f /usr/share/fonts/opentype/ocr-b/OCRB.otf || scripts/install-deps --with fonts-ocr-b
	@python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q pillow numpy
	python3 scripts/make_ocrb_templates.py

## Rewrite TestVectors/document/merge-cases.json (no randomness).
vectors-document:
	python3 TestVectors/document/make_cases.py

## Every JSON contract the command line prints on TestVectors/, for a byte-identity check across a
## restructuring (issue 13): snapshot before, snapshot after, scripts/json-snapshot --compare A B.
SNAPSHOT ?= .build/json-snapshot
json-snapshot: release
	scripts/json-snapshot $(SNAPSHOT)

clean:
	$(SWIFT) package clean

## Install (issue 38; docs/install.md): idkit in PREFIX/bin, idkit-full (the image, barcode, chip
## and service subcommands idkit hands over) in PREFIX/libexec/idkit, the release build's
## libIDKitC.so as PREFIX/lib/libidkit.so, idkit.h, idkit.pc for pkg-config and the man pages
## help2man makes from the help text. PREFIX defaults to /usr/local; DESTDIR stages the tree
## elsewhere (a package build). The version is Sources/IDKitCore/Version.swift's, read here.
PREFIX ?= /usr/local
bindir = $(PREFIX)/bin
libdir = $(PREFIX)/lib
libexecdir = $(PREFIX)/libexec
includedir = $(PREFIX)/include
mandir = $(PREFIX)/share/man
IDKIT_VERSION := $(shell sed -n 's/^ *public static let string = "\([^"]*\)".*/\1/p' Sources/IDKitCore/Version.swift)
.PHONY: install uninstall install-test
install: release
	@test -n "$(IDKIT_VERSION)" || { echo "install: no 'public static let string = \"…\"' in Sources/IDKitCore/Version.swift" >&2; exit 1; }
	@command -v help2man >/dev/null || scripts/install-deps
	rm -rf .build/man && scripts/make-man-pages .build/release/idkit .build/man
	install -d "$(DESTDIR)$(bindir)" "$(DESTDIR)$(libexecdir)/idkit" "$(DESTDIR)$(libdir)/pkgconfig" \
		"$(DESTDIR)$(includedir)" "$(DESTDIR)$(mandir)/man1"
	install -m 755 .build/release/idkit "$(DESTDIR)$(bindir)/idkit"
	install -m 755 .build/release/idkit-full "$(DESTDIR)$(libexecdir)/idkit/idkit-full"
	install -m 755 .build/release/libIDKitC.so "$(DESTDIR)$(libdir)/libidkit.so"
	install -m 644 Sources/CIDKit/include/idkit.h "$(DESTDIR)$(includedir)/idkit.h"
	sed -e 's|@VERSION@|$(IDKIT_VERSION)|' -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(libdir))|' \
		-e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(includedir))|' scripts/idkit.pc.in > "$(DESTDIR)$(libdir)/pkgconfig/idkit.pc"
	chmod 644 "$(DESTDIR)$(libdir)/pkgconfig/idkit.pc"
	install -m 644 .build/man/*.1 "$(DESTDIR)$(mandir)/man1/"
	@# The loader's cache (programs and Python's find_library that look for libidkit by name), when
	@# installing as root into a directory the loader searches.
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null \
		&& { ldconfig -v -N -X 2>/dev/null | grep -q '^$(libdir):' || [ "$(libdir)" = /usr/lib ]; }; then \
		echo ldconfig; ldconfig; fi

## Removes what `make install` put there (same PREFIX and DESTDIR).
uninstall:
	rm -f "$(DESTDIR)$(bindir)/idkit" "$(DESTDIR)$(libexecdir)/idkit/idkit-full" "$(DESTDIR)$(libdir)/libidkit.so" \
		"$(DESTDIR)$(includedir)/idkit.h" "$(DESTDIR)$(libdir)/pkgconfig/idkit.pc" \
		"$(DESTDIR)$(mandir)/man1/idkit.1" "$(DESTDIR)$(mandir)/man1/idkit-"*.1
	@rmdir "$(DESTDIR)$(libexecdir)/idkit" 2>/dev/null || true

## `make install` into a temporary prefix (and a DESTDIR stage), then the installed idkit, a C
## program built with `pkg-config --cflags --libs idkit`, the man pages and `make uninstall`
## (scripts/check-install). Part of `make test`.
install-test: deps release
	scripts/check-install
test: install-test
