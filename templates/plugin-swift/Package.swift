// swift-tools-version:6.0
// A QuickActions plugin in Swift. `make` builds it and assembles the bundle
// in plugins/; `make install` copies the bundle to your plugin directory.
import PackageDescription

let package = Package(
    name: "MyPlugin",
    products: [
        .library(name: "MyPlugin", type: .dynamic, targets: ["MyPlugin"])
    ],
    dependencies: [
        // Your QuickActions checkout.
        .package(name: "QuickActions", path: "../QuickActions")
    ],
    targets: [
        .target(
            name: "MyPlugin",
            dependencies: [.product(name: "QuickActionsSDK", package: "QuickActions")]
        )
    ]
)
