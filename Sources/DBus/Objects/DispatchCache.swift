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
    /// A class, so that a hit costs one reference, not a copy of five fields (the method's
    /// among them): copying the entry out of the lock was ≈ 1,000 instructions per call.
    final class Entry: Sendable {
        let generation: UInt64
        let path: String
        let interface: InterfaceName?
        let member: String
        let method: Method

        init(generation: UInt64, path: String, interface: InterfaceName?, member: String, method: Method) {
            self.generation = generation
            self.path = path
            self.interface = interface
            self.member = member
            self.method = method
        }
    }

    private let last = Mutex<Entry?>(nil)

    /// The entry of the method `message` resolves to, when it is the last one resolved in
    /// `generation`.
    func entry(for message: Message, generation: UInt64) -> Entry? {
        guard let path = dbus_message_get_path(message.raw), let member = dbus_message_get_member(message.raw) else {
            return nil
        }
        let interface = dbus_message_get_interface(message.raw)
        return last.withLock { entry -> Entry? in
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
            return entry
        }
    }

    /// Remembers the method a full lookup found.
    func store(_ entry: Entry) {
        last.withLock { $0 = entry }
    }
}
