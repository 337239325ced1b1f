# QuickActions: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT ?= swift

.PHONY: deps build test fuzz fuzz-smoke sanitizers sanitizers-asan sanitizers-tsan
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

# Every test under AddressSanitizer, then under ThreadSanitizer (issue 7, item 11), each in its
# own scratch path so the normal build is untouched. About 1.5 min each here (build and run).
# --export-dynamic: plugins loaded by the tests find the host's Swift symbols (needed under TSan).
# detect_leaks=0: LeakSanitizer reports reachable Swift indirect-enum boxes as leaked, because
# Swift sets tag bits in those pointers (see Fuzz/lsan.supp); leaks are checked by the fuzzers.
SANITIZER_FLAGS = -Xswiftc -use-ld=lld -Xlinker --export-dynamic
sanitizers: sanitizers-asan sanitizers-tsan

sanitizers-asan: deps
	$(SWIFT) build --build-tests --scratch-path .build/asan -Xswiftc -sanitize=address -Xcc -fsanitize=address $(SANITIZER_FLAGS)
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --scratch-path .build/asan

sanitizers-tsan: deps
	$(SWIFT) build --build-tests --scratch-path .build/tsan -Xswiftc -sanitize=thread -Xcc -fsanitize=thread $(SANITIZER_FLAGS)
	SWIFT_BACKTRACE=enable=no $(SWIFT) test --skip-build --scratch-path .build/tsan
