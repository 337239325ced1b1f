// swift-tools-version:6.0
// QuickActions: a per-user D-Bus broker for application quick actions.
//
// Layers, each importing only the ones below it:
//   CDBus → DBus → QuickActionsModel → CQuickActionsPlugin / QuickActionsHost → QuickActionsBroker
//   → the executables quickactionsd and quickactions.
// Plugin authors use QuickActionsSDK (Swift) or the C header in CQuickActionsPlugin.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

var package = Package(
    name: "QuickActions",
    products: [
        .executable(name: "quickactionsd", targets: ["quickactionsd"]),
        .executable(name: "quickactions", targets: ["quickactions"]),
        .library(name: "QuickActionsSDK", targets: ["QuickActionsSDK"]),
    ],
    targets: [
        // MARK: D-Bus
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .target(name: "DBus", dependencies: ["CDBus"], swiftSettings: strict),

        // MARK: Apps, items, bundles
        .target(name: "QuickActionsModel", swiftSettings: strict),

        // MARK: Plugins
        .target(name: "CQuickActionsPlugin"),
        .target(
            name: "QuickActionsSDK",
            dependencies: ["CQuickActionsPlugin", "QuickActionsModel"],
            swiftSettings: strict
        ),
        .target(
            name: "QuickActionsHost",
            dependencies: ["CQuickActionsPlugin", "QuickActionsModel"],
            swiftSettings: strict
        ),

        // MARK: Broker and executables
        .target(
            name: "QuickActionsBroker",
            dependencies: ["DBus", "QuickActionsModel", "QuickActionsHost"],
            swiftSettings: strict
        ),
        .executableTarget(name: "quickactionsd", dependencies: ["QuickActionsBroker"], swiftSettings: strict),
        .executableTarget(name: "quickactions", dependencies: ["DBus"], swiftSettings: strict),

        // MARK: Test support and tests
        .target(name: "QuickActionsTestSupport", swiftSettings: strict),
        .testTarget(
            name: "DBusTests",
            dependencies: ["DBus", "QuickActionsTestSupport"],
            exclude: ["Conformance/roundtrip.py"],
            swiftSettings: strict
        ),
        .testTarget(name: "QuickActionsModelTests", dependencies: ["QuickActionsModel"], swiftSettings: strict),
    ]
)
