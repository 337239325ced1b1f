# QuickActions: the two commands a newcomer needs are `make demo` and `make test`.
SWIFT ?= swift

.PHONY: deps build test
deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

# Every test: unit, bus and end-to-end. Each starts its own private
# dbus-daemon (dbus/test-bus.conf) and never touches the session bus.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The main job on an embedded default (see README.md).
.PHONY: demo
demo:
	@scripts/demo.sh

# The benchmark (issue 8): release build, then one run on a private bus that
# adds its results to BENCHMARKS.md. About a minute on 2 cores.
.PHONY: bench
bench: deps
	$(SWIFT) build -c release
	.build/release/quickactions-bench --write BENCHMARKS.md
