import Locking
import CDBus
import Glibc
import WorkQueues

/// A D-Bus server for peer-to-peer connections without a bus daemon: listens on a private
/// address and hands each accepted connection, as a ``Connection`` served by the same loop
/// thread as `sharing`, to `accept`. Wraps `dbus_server_listen`,
/// `dbus_server_set_new_connection_function` and `dbus_server_disconnect`.
///
/// libdbus authenticates every peer (EXTERNAL over a Unix socket, which proves the peer's
/// user and process), and `allow` decides on them before the first message of the peer is
/// dispatched: a connection `allow` refuses is closed without a message handled.
public final class PeerServer: @unchecked Sendable {
    // @unchecked Sendable: `raw`, `loop` and the closures are set in init and never change;
    // libdbus locks the server itself.
    private let raw: OpaquePointer
    private let loop: MainLoop
    private let allow: @Sendable (_ processID: Int32, _ userID: UInt32) -> Bool
    private let accepted: @Sendable (Connection, _ processID: Int32) -> Void
    private let isOpen = Locked(true)
    /// The address peers connect to, as libdbus reports it (with its guid).
    public let address: String

    /// Listens on `address` (e.g. `unix:path=/run/user/1000/quickactions/hosts`).
    /// - Parameters:
    ///   - sharing: whose loop thread serves the server and every accepted connection.
    ///   - allow: whether to keep a connection from this process and user; runs on the loop
    ///     thread when the peer's first message arrives (credentials are known only once
    ///     libdbus has authenticated it).
    ///   - accepted: receives each kept connection, on the loop thread, right after `allow`
    ///     and before its first message is dispatched.
    public init(
        listeningAt address: String, sharing connection: Connection,
        allow: @escaping @Sendable (_ processID: Int32, _ userID: UInt32) -> Bool,
        accepted: @escaping @Sendable (Connection, _ processID: Int32) -> Void
    ) throws(DBusError) {
        Connection.initializeThreads()
        raw = try withCError { error in address.withCString { dbus_server_listen($0, error) } }
        loop = connection.loop
        self.allow = allow
        self.accepted = accepted
        self.address = dbus_server_get_address(raw).map { pointer in
            defer { dbus_free(pointer) }
            return String(cString: pointer)
        } ?? address
        // Only EXTERNAL: the peer proves its user through the socket's credentials.
        var mechanisms: [UnsafePointer<CChar>?] = []
        let external = strdup("EXTERNAL")
        defer { free(external) }
        mechanisms.append(UnsafePointer(external))
        mechanisms.append(nil)
        _ = mechanisms.withUnsafeMutableBufferPointer { buffer in
            dbus_server_set_auth_mechanisms(raw, buffer.baseAddress)
        }
        dbus_server_set_new_connection_function(
            raw,
            { _, connection, data in
                guard let connection, let data else { return }
                Unmanaged<PeerServer>.fromOpaque(data).takeUnretainedValue().newConnection(connection)
            },
            Unmanaged.passUnretained(self).toOpaque(), nil)
        do {
            try loop.attach(server: raw)
        } catch {
            dbus_server_set_new_connection_function(raw, nil, nil, nil)
            dbus_server_disconnect(raw)
            dbus_server_unref(raw)
            throw error
        }
    }

    deinit {
        close()
        dbus_server_unref(raw)
    }

    /// Stops listening; connections already accepted stay open. Safe to call twice.
    public func close() {
        let wasOpen = isOpen.withLock { open in
            defer { open = false }
            return open
        }
        guard wasOpen else { return }
        let handle = RawServer(raw: raw)
        let loop = self.loop
        let finish: @Sendable () -> Void = {
            let raw = handle.raw
            loop.detach(server: raw)
            dbus_server_set_new_connection_function(raw, nil, nil, nil)
            dbus_server_disconnect(raw)
        }
        if loop.isLoopThread {
            finish()
            return
        }
        let done = Semaphore(value: 0)
        if loop.enqueue({
            finish()
            done.signal()
        }) {
            done.wait()
        } else {
            finish()
        }
    }

    /// A peer connected: serve it, admitting it at its first message (see `init`).
    private func newConnection(_ raw: OpaquePointer) {
        // The server's reference is borrowed: take one of our own for the Connection.
        dbus_connection_ref(raw)
        let allow = self.allow
        let accepted = self.accepted
        _ = try? Connection(owning: raw, loop: loop, uniqueName: "") { connection in
            guard let credentials = connection.peerCredentials,
                  allow(credentials.processID, credentials.userID) else { return false }
            accepted(connection, credentials.processID)
            return true
        }
    }
}

/// @unchecked Sendable: libdbus locks the server itself.
private struct RawServer: @unchecked Sendable {
    let raw: OpaquePointer
}

extension Connection {
    /// The peer's process and user, as authenticated; nil before authentication or where the
    /// transport has none. Wraps `dbus_connection_get_unix_process_id` and `…_unix_user`.
    public var peerCredentials: (processID: Int32, userID: UInt32)? {
        var pid: UInt = 0
        var uid: UInt = 0
        guard dbus_connection_get_unix_process_id(raw, &pid) != 0, dbus_connection_get_unix_user(raw, &uid) != 0,
              let processID = Int32(exactly: pid), let userID = UInt32(exactly: uid) else { return nil }
        return (processID, userID)
    }
}
