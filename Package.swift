// swift-tools-version:6.2
// QuickActions: a per-user D-Bus broker for application quick actions.
//
// Layers, each importing only the ones below it:
//   CDBus → DBus → QuickActionsAPI; QuickActionsModel (the core values) → QuickActionsBundles
//   (files and stores) and CQuickActionsPlugin / QuickActionsABI → QuickActionsHost
//   → QuickActionsBroker → the executables quickactionsd and quickactions.
// Plugin authors use QuickActionsSDK (Swift; it re-exports QuickActionsModel and nothing else)
// or the C header in CQuickActionsPlugin.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]
// For every module the plugin host links: Swift imports _StringProcessing into every module
// implicitly, and each object file then asks the linker for it and _RegexParser (0.9 MiB of an
// idle host's RSS), used or not. The host's modules use neither; HostLinkTests keeps it so.
// Three of them (Locking, QuickActionsModel, QuickActionsABI) are in the SDK product: an unsafe
// flag keeps a product from being used as a versioned dependency only for packages below
// swift-tools-version 6.2 (SwiftPM 6.2 dropped that check for newer manifests), hence 6.2 above.
let hostLinked: [SwiftSetting] = strict + [
    .unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"]),
]

// The C targets the broker and the host link: clang writes DWARF 5 by default, and valgrind
// 3.19 (Debian 12's, what BENCHMARKS.md's callgrind profiles use) gives up on a binary with
// more than one such unit ("Possibly corrupted debuginfo file").
let dwarf4: [CSetting] = [.unsafeFlags(["-gdwarf-4"])]

// libdbus's headers as `pkg-config --cflags dbus-1` gives them on Debian and Ubuntu.
#if arch(arm64)
let libdbusArchInclude = "/usr/lib/aarch64-linux-gnu/dbus-1.0/include"
#else
let libdbusArchInclude = "/usr/lib/x86_64-linux-gnu/dbus-1.0/include"
#endif
let libdbusIncludeFlags = ["-I/usr/include/dbus-1.0", "-I\(libdbusArchInclude)"]

var package = Package(
    name: "QuickActions",
    products: [
        .executable(name: "quickactionsd", targets: ["quickactionsd"]),
        .executable(name: "quickactions", targets: ["quickactions"]),
        .executable(name: "quickactions-host", targets: ["quickactions-host"]),
        .library(name: "QuickActionsSDK", targets: ["QuickActionsSDK"]),
        .executable(name: "quickactions-bundle", targets: ["quickactions-bundle"]),
    ],
    targets: [
        // MARK: D-Bus
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // One lock for every module: a pthread mutex ThreadSanitizer can see.
        .target(name: "Locking", swiftSettings: hostLinked),
        // A serial queue and a semaphore on libdispatch's C API, for the modules the plugin host
        // links: Swift's Dispatch overlay would bring _StringProcessing and _RegexParser with it.
        .target(name: "CWorkQueues", cSettings: dwarf4),
        // glibc's malloc_trim, for giving back a large transient working set.
        .target(name: "CHeap", cSettings: dwarf4),
        .target(name: "WorkQueues", dependencies: ["CWorkQueues"], swiftSettings: hostLinked),
        // inotify folder watching with bursts coalesced: the broker's plugin folders and the
        // desktop-entry bridge's originals.
        .target(name: "FolderWatching", dependencies: ["Locking"], swiftSettings: strict),
        .target(name: "DBus", dependencies: ["CDBus", "Locking", "WorkQueues"], swiftSettings: hostLinked),
        // The public contract in one place: names, option and item keys, the item codec, a client.
        .target(name: "QuickActionsAPI", dependencies: ["DBus"], swiftSettings: hostLinked),

        // MARK: Apps, items, bundles
        // The model core every plugin sees through the SDK: items, user info, icons, app ids,
        // limits, log levels. Plain values: no files, no bus.
        .target(name: "QuickActionsModel", dependencies: ["Locking"], swiftSettings: hostLinked),
        // What only the broker side needs: property lists, strings tables, bundles, item identity,
        // plugin directories, the item, usage and last-seen stores.
        .target(name: "QuickActionsBundles", dependencies: ["QuickActionsModel", "QuickActionsIconFiles", "Locking"], swiftSettings: strict),
        // Icon files resolved inside a bundle, on Glibc alone: the plugin host needs only this of
        // the bundle code, and links no Foundation, not even FoundationEssentials
        // (QuickActionsBundles re-exports it, with a URL overload).
        .target(name: "QuickActionsIconFiles", dependencies: ["QuickActionsModel"], swiftSettings: hostLinked),

        // MARK: Plugins
        .target(name: "CQuickActionsPlugin"),
        // The Swift side of the C ABI (values and items in both directions), shared by SDK and host.
        .target(
            name: "QuickActionsABI",
            dependencies: ["CQuickActionsPlugin", "QuickActionsModel", "Locking"],
            swiftSettings: hostLinked
        ),
        .target(
            name: "QuickActionsSDK",
            dependencies: ["CQuickActionsPlugin", "QuickActionsABI", "QuickActionsModel", "Locking"],
            swiftSettings: strict
        ),
        .target(
            name: "QuickActionsHost",
            dependencies: [
                "CQuickActionsPlugin", "CQuickActionsHostSupport", "QuickActionsABI", "QuickActionsModel",
                "QuickActionsIconFiles", "Locking", "WorkQueues",
            ],
            swiftSettings: hostLinked
        ),
        // The broker↔host protocol's codec (items, user info, requests), shared by both ends.
        .target(
            name: "QuickActionsHostProtocol", dependencies: ["DBus", "QuickActionsAPI", "QuickActionsModel"],
            swiftSettings: hostLinked),
        // One app's plugin in a process of its own, served to the broker over a peer connection.
        .target(name: "CQuickActionsHostSupport", cSettings: dwarf4),
        .executableTarget(
            name: "quickactions-host",
            dependencies: [
                "CQuickActionsHostSupport", "DBus", "QuickActionsAPI", "QuickActionsHostProtocol", "QuickActionsHost",
                "QuickActionsModel", "Locking", "WorkQueues",
            ],
            swiftSettings: hostLinked),

        // MARK: Broker and executables
        .target(
            name: "QuickActionsBroker",
            dependencies: [
                "DBus", "QuickActionsAPI", "QuickActionsHostProtocol", "QuickActionsModel", "QuickActionsBundles",
                "QuickActionsHost", "CQuickActionsHostSupport", "FolderWatching", "Locking", "QuickActionsProviding", "CHeap",
            ],
            swiftSettings: strict
        ),
        // MARK: Providers
        // The seam every item provider stands on (issue 33): apps and items as providers give
        // them, the installed applications they share, launching. The broker knows only this.
        .target(name: "QuickActionsProviding", dependencies: ["QuickActionsModel", "Locking"], swiftSettings: strict),
        // The item providers themselves (issue 33), a folder each: recent documents from the
        // Desktop Bookmark file, media players over MPRIS.
        .target(
            name: "QuickActionsProviders",
            dependencies: ["QuickActionsProviding", "QuickActionsAPI", "QuickActionsModel", "FolderWatching", "Locking", "DBus"],
            swiftSettings: strict),

        // MARK: Bridges
        // Desktop entry actions (issue 15): every app's items on its icon, in every freedesktop desktop.
        .target(
            name: "QuickActionsDesktopEntries",
            dependencies: [
                "DBus", "FolderWatching", "QuickActionsAPI", "QuickActionsProviding", "CQuickActionsLaunching", "Locking",
                "CFileExchange",
            ],
            swiftSettings: strict),
        // renameat2's exchange and no-replace: an entry is replaced or removed only if it still
        // holds what the bridge read, checked by the kernel in the same step.
        .target(name: "CFileExchange", cSettings: dwarf4),
        // Starting an installed application detached (double fork, own session, /dev/null
        // stdio): what must happen between fork and exec is C, where only async-signal-safe
        // calls run.
        .target(name: "CQuickActionsLaunching", cSettings: dwarf4),
        // The search bridges (issue 16): GNOME Shell, KRunner, dock quicklists; clients of the contract only.
        // QuickActionsModel only for LogLevel, the one log-level type of every part.
        .target(
            name: "QuickActionsSearch", dependencies: ["DBus", "QuickActionsAPI", "QuickActionsModel", "Locking", "CHeap"],
            swiftSettings: strict),

        .executableTarget(
            name: "quickactionsd",
            dependencies: [
                "QuickActionsBroker", "QuickActionsBundles", "QuickActionsDesktopEntries", "QuickActionsSearch", "DBus",
                "Locking", "QuickActionsProviders", "QuickActionsProviding", "CQuickActionsHostSupport",
            ],
            swiftSettings: strict),
        // The launcher CLI's logic (argument parsing, broker client, output), testable as a library.
        .target(name: "QuickActionsCLI", dependencies: ["DBus", "QuickActionsAPI", "Locking"], swiftSettings: strict),
        .executableTarget(name: "quickactions", dependencies: ["QuickActionsCLI"], swiftSettings: strict),
        // Assembles the example plugins (plugins/) into bundles; never builds anything itself.
        .executableTarget(
            name: "quickactions-bundle", dependencies: ["QuickActionsModel", "QuickActionsBundles"], swiftSettings: strict),

        // MARK: Benchmark (issue 8)
        // The floor: a Perform responder on plain libdbus in C. It does not go through CDBus (only
        // DBus imports that); it includes <dbus/dbus.h> from Debian's multiarch paths and links libdbus.
        .executableTarget(
            name: "qa-bench-floor",
            cSettings: [.unsafeFlags(libdbusIncludeFlags)],
            linkerSettings: [.linkedLibrary("dbus-1")]
        ),
        // The floor of an isolated broker: a relay that forwards each Perform to a host process.
        .executableTarget(
            name: "qa-bench-relay",
            cSettings: [.unsafeFlags(libdbusIncludeFlags)],
            linkerSettings: [.linkedLibrary("dbus-1")]
        ),
        .executableTarget(
            name: "quickactions-bench",
            dependencies: [
                "DBus", "QuickActionsAPI", "QuickActionsBroker", "QuickActionsTestSupport", "Locking",
                // BookmarkFile and its sample, for issue 33 §6's parse row; the installed
                // applications' index, to profile it alone (read-applications).
                "QuickActionsProviders", "QuickActionsDesktopEntries",
            ],
            swiftSettings: strict),

        // MARK: Test support and tests
        // Test buses, processes, bundles, and InterfaceProof (which needs DBus).
        .target(
            name: "QuickActionsTestSupport", dependencies: ["CQuickActionsHostSupport", "DBus", "QuickActionsAPI"],
            swiftSettings: strict),
        .testTarget(
            name: "DBusTests",
            dependencies: ["DBus", "QuickActionsTestSupport", "Locking"],
            exclude: ["Conformance/roundtrip.py"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "QuickActionsSearchTests",
            dependencies: ["QuickActionsSearch", "QuickActionsAPI", "DBus", "QuickActionsTestSupport"],
            exclude: ["Scripts", "KRunnerHarness"], swiftSettings: strict),
        .testTarget(
            name: "QuickActionsAPITests", dependencies: ["QuickActionsAPI", "DBus", "QuickActionsTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "FolderWatchingTests", dependencies: ["FolderWatching", "Locking"], swiftSettings: strict),
        .testTarget(name: "WorkQueuesTests", dependencies: ["WorkQueues", "Locking"], swiftSettings: strict),
        .testTarget(name: "QuickActionsModelTests", dependencies: ["QuickActionsModel", "Locking"], swiftSettings: strict),
        .testTarget(
            name: "QuickActionsBundlesTests", dependencies: ["QuickActionsBundles", "QuickActionsModel", "Locking", "QuickActionsTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "QuickActionsBrokerTests",
            dependencies: ["QuickActionsBroker", "QuickActionsAPI", "QuickActionsHostProtocol", "QuickActionsTestSupport", "DBus", "QuickActionsProviding", "Locking"],
            exclude: ["Scripts"],
            swiftSettings: strict
        ),
        .testTarget(name: "QuickActionsABITests", dependencies: ["QuickActionsABI"], swiftSettings: strict),
        // The SDK's public surface: a plugin's source type-checked against the SDK alone sees the
        // model core and none of QuickActionsBundles (needs the SDK built: `swift build --build-tests`);
        // and the SDK's package-internal request reading (its actions kept by request_id).
        .testTarget(
            name: "QuickActionsSDKTests", dependencies: ["QuickActionsTestSupport", "QuickActionsSDK", "QuickActionsABI"],
            swiftSettings: strict),
        .testTarget(
            name: "QuickActionsCLITests",
            dependencies: ["QuickActionsCLI", "DBus", "QuickActionsTestSupport", "QuickActionsModel", "QuickActionsBundles"],
            swiftSettings: strict),
        .testTarget(
            name: "QuickActionsHostTests", dependencies: ["QuickActionsHost", "QuickActionsABI", "CQuickActionsHostSupport", "Locking"],
            swiftSettings: strict),
        // Load, faults, bad input and crash consistency against a real broker on private buses.
        .testTarget(
            name: "QuickActionsReliabilityTests",
            dependencies: [
                "QuickActionsTestSupport", "DBus", "QuickActionsAPI", "QuickActionsModel", "QuickActionsBundles", "Locking",
            ],
            exclude: ["Scripts", "README.md"],
            swiftSettings: strict
        ),
        // The plugin guide, the plugin templates and the man pages, built and run as a reader would.
        .testTarget(name: "DocumentationTests", dependencies: ["QuickActionsTestSupport"], swiftSettings: strict),
        // `make install` / `make uninstall` into a temporary DESTDIR.
        .testTarget(name: "InstallTests", dependencies: ["QuickActionsTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "QuickActionsDesktopEntriesTests",
            dependencies: ["QuickActionsDesktopEntries", "QuickActionsProviding", "QuickActionsTestSupport", "DBus", "Locking"],
            exclude: ["Scripts"],
            swiftSettings: strict),
        .testTarget(name: "BenchmarkTests", dependencies: ["QuickActionsTestSupport"], swiftSettings: strict),
        .testTarget(name: "QuickActionsProvidingTests", dependencies: ["QuickActionsProviding"], swiftSettings: strict),
        .testTarget(
            name: "QuickActionsProvidersTests",
            dependencies: ["QuickActionsProviders", "QuickActionsProviding", "QuickActionsTestSupport", "DBus"],
            swiftSettings: strict),
    ]
)

// MARK: Test plugins
// Small purpose-built plugins (Tests/Plugins/<folder>) that QuickActionsHostTests load with dlopen.
// Each is a dynamic library product, built as .build/<config>/lib<name>.so by `swift build` and
// `swift test`; the tests find them beside the test bundle.
let testPlugins: [(name: String, folder: String, language: String)] = [
    ("QATestSwiftPlugin", "SwiftPlugin", "swift"),
    ("QATestSwiftInitFails", "SwiftInitFails", "swift"),
    ("QATestCPlugin", "CPlugin", "c"),
    ("QATestInitFails", "InitFails", "c"),
    ("QATestNoEntry", "NoEntry", "c"),
    ("QATestABIMajor2", "ABIMajor2", "c"),
    ("QATestABINewerMinor", "ABINewerMinor", "c"),
    ("QATestABI10", "ABI10", "c"),
    ("QATestCrashPlugin", "CrashPlugin", "c"),
    ("QATestFast", "Fast", "c"),
    ("QATestChurn", "Churn", "swift"),
    ("QATestTitles", "Titles", "swift"),
    ("QABenchPlugin", "BenchPlugin", "c"),
    ("QABenchSwiftPlugin", "BenchSwiftPlugin", "swift"),
]
/// A plugin as a dynamic library product: Swift plugins on the SDK, C plugins on the header alone.
@MainActor func addPlugin(name: String, path: String, language: String) {
    package.products.append(.library(name: name, type: .dynamic, targets: [name]))
    package.targets.append(
        language == "swift"
            ? .target(name: name, dependencies: ["QuickActionsSDK"], path: path, swiftSettings: strict)
            : .target(name: name, dependencies: ["CQuickActionsPlugin"], path: path, publicHeadersPath: ".")
    )
}

for plugin in testPlugins {
    addPlugin(name: plugin.name, path: "Tests/Plugins/\(plugin.folder)", language: plugin.language)
}

// MARK: Example plugins
// The four example apps (plugins/<folder>: sources in Sources/, bundle resources in Bundle/),
// each a dynamic library product built as lib<name>.so. `make plugins` builds them in release
// and `quickactions-bundle` assembles them into <folder>.bundle; see plugins/README.md.
let examplePlugins: [(name: String, folder: String, language: String)] = [
    ("QuickActionsExampleContacts", "Contacts", "swift"),
    ("QuickActionsExampleStacks", "Stacks", "swift"),
    ("QuickActionsExampleMusic", "Music", "c"),
    ("QuickActionsExampleFavorites", "Favorites", "swift"),
]
for plugin in examplePlugins {
    addPlugin(name: plugin.name, path: "plugins/\(plugin.folder)/Sources", language: plugin.language)
}
package.targets.append(
    .testTarget(
        name: "ExamplePluginsTests",
        dependencies: ["QuickActionsModel", "QuickActionsBundles", "QuickActionsHost", "QuickActionsTestSupport", "Locking"],
        swiftSettings: strict))
