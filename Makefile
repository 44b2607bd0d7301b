# Parley — build, test and run on a Debian machine with Swift on PATH.
#
#   make run      install what is missing, build, check the engines, start a conversation (ARGS=…)
#   make test     install what is missing (Whisper too, with pytest for its worker, and the Wyoming
#                 servers the tests start), run the worker's tests, every test on a private PulseAudio
#                 server, then the audio and dialogue suites on a private PipeWire server
#   make models   install the Whisper environment and model (make run, test and bench do it too)
#   make wyoming  install the Wyoming servers' environment (make test and bench do it too; make run does not)
#   make bench    install what is missing (the Wyoming servers too), run the benchmarks and rewrite BENCHMARKS.md
#   make install  PREFIX=/usr/local: the binary and its data
SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= debug
SWIFT_FLAGS ?=

# Debian packages: the four C libraries, the engines' data, and what the tests use
# (gdb: the stacks of a test run stopped for time).
PACKAGES := libespeak-ng-dev espeak-ng espeak-ng-data \
	libpulse-dev pulseaudio pulseaudio-utils \
	libpocketsphinx-dev libsphinxbase-dev pocketsphinx pocketsphinx-en-us pocketsphinx-testdata \
	libreadline-dev libsndfile1-dev libsamplerate0-dev libfftw3-dev \
	apertium apertium-eng-spa sox tmux python3 python3-venv \
	apertium-fr-es apertium-es-pt apertium-spa-cat apertium-spa-ita cg3 \
	pipewire pipewire-pulse wireplumber dbus gdb

.PHONY: all build deps models wyoming run test bench install clean

all: build

deps:
	@scripts/install-deps.sh $(PACKAGES)

# The Whisper worker's Python environment and the pinned Whisper model
# (verified by SHA-256; see docs/recognition.md for what it costs). `make test`
# adds the worker's test requirements (pytest, worker/requirements-test.txt).
models: deps
	@scripts/install-whisper.sh $(WHISPER_FLAGS)

# The Wyoming speech servers that the tests start on 127.0.0.1, in their own pinned Python
# environment (wyoming/requirements.txt; see docs/remote-engines.md). After models: the
# speech-recognition server runs against the installed Whisper model.
wyoming: models
	@scripts/install-wyoming.sh

build: deps
	$(SWIFT) build -c $(CONFIG) $(SWIFT_FLAGS)

# doctor first, so a missing part is named before the conversation starts
# (without an audio server the conversation is typed-only).
run: build models
	$(SWIFT) run -c $(CONFIG) $(SWIFT_FLAGS) parley doctor || true
	$(SWIFT) run -c $(CONFIG) $(SWIFT_FLAGS) parley $(ARGS)

test: WHISPER_FLAGS = --tests
test: deps models wyoming
	@SWIFT="$(SWIFT)" SWIFT_FLAGS="$(SWIFT_FLAGS)" scripts/test-all.sh $(FILTER)

bench: deps models wyoming
	@scripts/with-test-server.sh scripts/bench.sh

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/parley/dictionaries
	install -m 755 "$$($(SWIFT) build -c $(CONFIG) $(SWIFT_FLAGS) --show-bin-path)/parley" $(DESTDIR)$(PREFIX)/bin/parley
	cp -R dictionaries/. $(DESTDIR)$(PREFIX)/share/parley/dictionaries/
	install -d $(DESTDIR)$(PREFIX)/share/parley/worker/parley_worker $(DESTDIR)$(PREFIX)/share/parley/models
	install -m 755 worker/whisper_worker.py worker/int8_weights.py $(DESTDIR)$(PREFIX)/share/parley/worker/
	install -m 644 worker/parley_worker/*.py $(DESTDIR)$(PREFIX)/share/parley/worker/parley_worker/
	install -m 644 worker/requirements.txt $(DESTDIR)$(PREFIX)/share/parley/worker/
	for m in "$${PARLEY_MODELS_DIR:-$${XDG_DATA_HOME:-$$HOME/.local/share}/parley/models}"/*/; do \
	  [ -f "$$m/model.bin" ] && cp -R "$$m" $(DESTDIR)$(PREFIX)/share/parley/models/ || true; done

clean:
	rm -rf .build
