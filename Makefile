# QuickActions: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT ?= swift

.PHONY: deps build test fuzz fuzz-smoke sanitizers sanitizers-asan sanitizers-tsan
deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

# Every test: unit, bus and end-to-end. Each starts its own private
# dbus-daemon (dbus/test-bus.conf) and never touches the session bus. Then
# the fuzz smoke run, and every test again under AddressSanitizer and
# ThreadSanitizer (issue 13): what .ci/run runs on every landing.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) test-in-process
	$(MAKE) fuzz-smoke
	$(MAKE) sanitizers

# The main job on an embedded default (see README.md).
.PHONY: demo
demo:
	@scripts/demo.sh

# The README's pictures (docs/screenshots/README.md), remade from the real GNOME Shell with
# Dash to Dock, KRunner and the picker, all headless on private buses; installs what is
# missing as root. Under a minute once built.
.PHONY: screenshots
screenshots:
	@scripts/screenshots.sh

# The benchmark (issue 8): release build, then one run on a private bus that writes
# its results to benchmarks/results/DATE-COMMIT.json and renders BENCHMARKS.md's
# status table and plots from them (scripts/render-benchmarks.py, issue 35).
.PHONY: bench
bench: deps
	$(SWIFT) build -c release
	# A plain build has been seen to keep stale plugin libraries (dynamic library
	# products): build the two the benchmark loads by name.
	$(SWIFT) build -c release --product QABenchPlugin
	$(SWIFT) build -c release --product QABenchSwiftPlugin
	.build/release/quickactions-bench --write BENCHMARKS.md

# ── Example plugins (plugins/README.md) ───────────────────────────────────
# `make plugins` builds the four examples in release and assembles them into
# ready bundles in $(PLUGINS_OUT); `make install-plugins` puts them where the
# broker looks: for the current user by default, below $(PREFIX) when PREFIX
# is given (PREFIX=/usr/local: /usr/local/share/quickactions/plugins), under
# $(DESTDIR) when set. PLUGINDIR overrides the folder outright.
EXAMPLE_PRODUCTS := QuickActionsExampleContacts QuickActionsExampleStacks QuickActionsExampleMusic QuickActionsExampleFavorites
EXAMPLE_BUNDLES := Contacts Stacks Music Favorites
PLUGINS_OUT ?= out/plugins
USER_DATA_HOME := $(or $(XDG_DATA_HOME),$(HOME)/.local/share)
# (PREFIX "given": on the command line or in the environment, not the install section's default.)
PLUGINDIR ?= $(if $(filter-out undefined file,$(origin PREFIX)),$(PREFIX)/share,$(USER_DATA_HOME))/quickactions/plugins
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path)

.PHONY: plugins install-plugins uninstall-plugins
plugins:
	@for product in $(EXAMPLE_PRODUCTS) quickactions-bundle; do \
	  $(SWIFT) build -c release --product $$product || exit 1; \
	done
	"$(RELEASE_BIN)/quickactions-bundle" --products "$(RELEASE_BIN)" --source plugins --output "$(PLUGINS_OUT)"

install-plugins: plugins
	"$(RELEASE_BIN)/quickactions-bundle" --products "$(RELEASE_BIN)" --source plugins --output "$(DESTDIR)$(PLUGINDIR)"

uninstall-plugins:
	rm -rf $(foreach name,$(EXAMPLE_BUNDLES),"$(DESTDIR)$(PLUGINDIR)/$(name).bundle")

# ─── Install and uninstall ──────────────────────────────────────────────
# (docs/install.md; scripts/install.sh and scripts/uninstall.sh do the work.)
#
#   sudo make install                      system-wide, into /usr/local
#   make install PREFIX=$HOME/.local       for the current user, no root
#   make install DESTDIR=/tmp/stage PREFIX=/usr   staged, for packagers
#   make uninstall ...                     with the same PREFIX and DESTDIR:
#                                          removes exactly what install put there
#
# install writes a manifest, the list of every file it installed and every
# folder it created; uninstall removes exactly those (folders only when
# empty). A live install keeps it in $(PREFIX)/share/quickactions; a staged
# one (DESTDIR) in the build tree, $(RELEASE_SCRATCH)/staged-installs, so
# that the staged tree is the payload alone. Executables and plugins are
# stripped (STRIP= keeps their symbols) and find the Swift runtime that
# install copies into $(PREFIX)/lib/quickactions/swift.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
INCLUDEDIR ?= $(PREFIX)/include
DBUS_SERVICES_DIR ?= $(DATADIR)/dbus-1/services
DBUS_INTERFACES_DIR ?= $(DATADIR)/dbus-1/interfaces
# systemd searches ~/.local/share/systemd/user for a user's own units, and
# $(PREFIX)/lib/systemd/user for /usr and /usr/local.
ifeq ($(PREFIX),$(HOME)/.local)
SYSTEMD_USER_UNIT_DIR ?= $(DATADIR)/systemd/user
else
SYSTEMD_USER_UNIT_DIR ?= $(PREFIX)/lib/systemd/user
endif
PLUGIN_DIR ?= $(DATADIR)/quickactions/plugins
MANIFEST ?= $(DATADIR)/quickactions/install-manifest.txt
SWIFT_RUNTIME_DIR ?= $(PREFIX)/lib/quickactions/swift
STRIP ?= strip
# What there is to install follows the source tree: the bundle assembler,
# the CLI's completion scripts and the example plugins are installed when
# their sources are there.
INSTALL_BINARIES ?= quickactionsd quickactions $(if $(wildcard Sources/quickactions-bundle/main.swift),quickactions-bundle)
INSTALL_COMPLETIONS ?= $(if $(wildcard Sources/QuickActionsCLI/Completion/*.swift),yes,no)
INSTALL_EXAMPLES ?= $(if $(wildcard plugins/*/Bundle/Info.plist),yes,no)

# Release builds get a scratch folder of their own, never .build: `make
# install` may then run while `swift build` or `swift test` holds .build's
# lock (InstallTests run it from inside `swift test`), and a release build
# never throws away the debug build's products.
RELEASE_SCRATCH ?= .build-release
# The manifest's own file (see above): one per DESTDIR and PREFIX when staged.
MANIFEST_FILE ?= $(if $(DESTDIR),$(abspath $(RELEASE_SCRATCH))/staged-installs/$(shell printf '%s' '$(abspath $(DESTDIR))$(PREFIX)' | cksum | cut -d' ' -f1).txt,$(MANIFEST))
# Set PRODUCTS to a folder of already-built executables to install those
# instead of building in release mode (InstallTests pass the debug products
# that `swift test` has just built, so no build nests inside the test run).
PRODUCTS ?=
INSTALL_PRODUCTS = $(if $(PRODUCTS),$(PRODUCTS),$(RELEASE_SCRATCH)/release)

.PHONY: install uninstall install-build
install-build:
ifeq ($(PRODUCTS),)
	@scripts/ensure-deps.sh
	$(foreach product,$(INSTALL_BINARIES) quickactions-host $(if $(filter yes,$(INSTALL_EXAMPLES)),$(EXAMPLE_PRODUCTS)),\
	  $(SWIFT) build -c release --scratch-path $(RELEASE_SCRATCH) --product $(product) &&) true
endif

install: install-build
	@PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' BINDIR='$(BINDIR)' DATADIR='$(DATADIR)' MANDIR='$(MANDIR)' \
	INCLUDEDIR='$(INCLUDEDIR)' DBUS_SERVICES_DIR='$(DBUS_SERVICES_DIR)' \
	DBUS_INTERFACES_DIR='$(DBUS_INTERFACES_DIR)' SYSTEMD_USER_UNIT_DIR='$(SYSTEMD_USER_UNIT_DIR)' \
	PLUGIN_DIR='$(PLUGIN_DIR)' MANIFEST='$(MANIFEST)' MANIFEST_FILE='$(MANIFEST_FILE)' \
	SWIFT_RUNTIME_DIR='$(SWIFT_RUNTIME_DIR)' STRIP='$(STRIP)' PRODUCTS='$(INSTALL_PRODUCTS)' \
	BINARIES='$(INSTALL_BINARIES)' COMPLETIONS='$(INSTALL_COMPLETIONS)' EXAMPLES='$(INSTALL_EXAMPLES)' \
	scripts/install.sh

uninstall:
	@DESTDIR='$(DESTDIR)' MANIFEST='$(MANIFEST)' MANIFEST_FILE='$(MANIFEST_FILE)' scripts/uninstall.sh

# ─── A new plugin from a template (templates/README.md) ─────────────────
#   make new-plugin NAME=Greeter ID=com.example.greeter [LANGUAGE=swift|c] [DEST=../Greeter]
.PHONY: new-plugin
new-plugin:
	@NAME='$(NAME)' ID='$(ID)' LANGUAGE='$(or $(LANGUAGE),swift)' DEST='$(DEST)' scripts/new-plugin.sh

# libFuzzer targets (FUZZING.md): a short run of each, about a minute with the build.
fuzz-smoke: deps
	Fuzz/run.sh smoke

# The long run: FUZZ_SECONDS per target (default 1800), FUZZ_JOBS workers; findings go to
# Fuzz/Findings/<target>/. Example: make fuzz FUZZ_SECONDS=3600 FUZZ_JOBS=2
fuzz: deps
	Fuzz/run.sh long

# Every test under AddressSanitizer, then under ThreadSanitizer (issue 7, item 11), each in its
# own scratch path so the normal build is untouched. About 1.5 min each here (build and run).
# --export-dynamic: plugins loaded by the tests find the host's Swift symbols (needed under TSan).
# detect_leaks=0: LeakSanitizer reports reachable Swift indirect-enum boxes as leaked, because
# Swift sets tag bits in those pointers (see Fuzz/lsan.supp); leaks are checked by the fuzzers.
SANITIZER_FLAGS = -Xswiftc -use-ld=lld -Xlinker --export-dynamic
# The suite again with every test broker loading its plugins in process (issue 14: each
# test passes in both modes where it applies; the tests about hosts pin the host mode).
.PHONY: test-in-process
test-in-process:
	QUICKACTIONS_TEST_PLUGIN_HOST=in-process $(SWIFT) test --skip-build

sanitizers: sanitizers-asan sanitizers-tsan

sanitizers-asan: deps
	$(SWIFT) build --build-tests --scratch-path .build/asan -Xswiftc -sanitize=address -Xcc -fsanitize=address $(SANITIZER_FLAGS)
	SWIFT_BACKTRACE=enable=no QUICKACTIONS_TEST_TIME_SCALE=10 QUICKACTIONS_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --scratch-path .build/asan

sanitizers-tsan: deps
	$(SWIFT) build --build-tests --scratch-path .build/tsan -Xswiftc -sanitize=thread -Xcc -fsanitize=thread $(SANITIZER_FLAGS)
	SWIFT_BACKTRACE=enable=no QUICKACTIONS_TEST_TIME_SCALE=10 QUICKACTIONS_SANITIZER=thread $(SWIFT) test --skip-build --scratch-path .build/tsan
