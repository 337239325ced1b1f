import DBus
import QuickActionsAPI
import Testing
@testable import QuickActionsBroker

/// The app id an Application1 object's path names: the escaped element right below
/// /org/quickactions/Broker1/apps, and nothing deeper, shallower or elsewhere.
@Suite struct AppObjectPathTests {
    @Test(arguments: ["org.example.Editor", "firefox-esr", "vendor-org.gnome.TextEditor", "a/b", "ünïcødé", "_", ""])
    func everyAppsPathGivesBackItsID(_ id: String) throws {
        #expect(try Broker.appID(at: BrokerAPI.appPath(id)) == id)
    }

    @Test(arguments: ["/org/quickactions/Broker1/apps", "/org/quickactions/Broker1/apps/a/b", "/org/quickactions/Broker1",
                      "/org/quickactions/Broker1/appsx/a", "/org/other/apps/a"])
    func otherPathsAreNoAppsObjectAndSaySo(_ path: String) throws {
        let objectPath = try ObjectPath(path)
        do throws(DBusError) {
            let id = try Broker.appID(at: objectPath)
            Issue.record("\(path) named the app \(id)")
        } catch {
            #expect(error.name == .unknownObject && error.message.contains(path), "\(error)")
        }
    }
}
