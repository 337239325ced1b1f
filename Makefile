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
PLUGINDIR ?= $(if $(PREFIX),$(PREFIX)/share,$(USER_DATA_HOME))/quickactions/plugins
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
