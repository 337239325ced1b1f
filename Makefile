# QuickActions: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT ?= swift

.PHONY: deps build test fuzz fuzz-smoke
deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

# Every test: unit, bus and end-to-end. Each starts its own private
# dbus-daemon (dbus/test-bus.conf) and never touches the session bus.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) fuzz-smoke

# libFuzzer targets (FUZZING.md): a short run of each, about a minute with the build.
fuzz-smoke: deps
	Fuzz/run.sh smoke

# The long run: FUZZ_SECONDS per target (default 1800), FUZZ_JOBS workers; findings go to
# Fuzz/Findings/<target>/. Example: make fuzz FUZZ_SECONDS=3600 FUZZ_JOBS=2
fuzz: deps
	Fuzz/run.sh long
