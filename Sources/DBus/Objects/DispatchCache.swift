import CDBus
import Glibc
import Synchronization

/// The method the last incoming call resolved to, by its raw header strings (path,
/// interface, member), so that a run of calls to one method (a launcher's Performs, a
/// benchmark) is routed with three `strcmp`s instead of three Swift strings, two registry
/// lookups and a method-table hash each.
///
/// An entry is valid only for the registry generation it was resolved in: exporting,
/// unexporting or adding an object manager anywhere changes the generation, so a hit
/// always names the method a full lookup would find now.
final class DispatchCache: Sendable {
    struct Entry: Sendable {
        let generation: UInt64
        let path: String
        let interface: InterfaceName?
        let member: String
        let method: Method
    }

    private let last = Mutex<Entry?>(nil)

    /// The method `message` resolves to, when it is the last one resolved in `generation`.
    func method(for message: Message, generation: UInt64) -> (Method, InterfaceName?)? {
        guard let path = dbus_message_get_path(message.raw), let member = dbus_message_get_member(message.raw) else {
            return nil
        }
        let interface = dbus_message_get_interface(message.raw)
        return last.withLock { entry -> (Method, InterfaceName?)? in
            guard let entry, entry.generation == generation,
                  entry.member.withCString({ strcmp($0, member) }) == 0,
                  entry.path.withCString({ strcmp($0, path) }) == 0 else { return nil }
            switch (entry.interface, interface) {
            case (nil, nil):
                break
            case (let cached?, let raw?):
                guard cached.rawValue.withCString({ strcmp($0, raw) }) == 0 else { return nil }
            default:
                return nil
            }
            return (entry.method, entry.interface)
        }
    }

    /// Remembers the method a full lookup found.
    func store(_ entry: Entry) {
        last.withLock { $0 = entry }
    }
}
