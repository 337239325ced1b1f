import DBus
import QuickActionsHost

/// Where one app's plugin code runs: the one seam between the broker and plugin code. The
/// broker never knows which kind it talks to.
///
/// - ``HostProcessExecutor`` (the default): a `quickactions-host` process of the app's own,
///   over a private peer-to-peer connection; a crash costs only that app.
/// - ``InProcessExecutor`` (opt-in, for plugins a user trusts): the library loaded into the
///   broker, called on a serial queue of its own.
protocol PluginExecutor: AnyObject, Sendable {
    /// Hands one request to the plugin, loading or starting it first when needed (that
    /// request is then its launch). `completion` runs at most once, on any thread; never once
    /// the returned ticket (if any) was abandoned.
    func perform(
        _ request: PerformRequest, timeoutMilliseconds: UInt32,
        completion: @escaping @Sendable (ExecutionResult) -> Void
    ) -> PerformTicket?

    /// Whether the plugin is loaded (its host runs) now.
    var isLoaded: Bool { get }
    /// The host's process id while one runs; 0 in process or when none runs.
    var hostProcessID: Int32 { get }

    /// Will-resign on a loaded plugin, waiting for the dynamic items it sets; then, for a
    /// host, its end. `done` runs once, within about `bound` whatever the plugin does.
    func stop(bound: Duration, done: @escaping @Sendable () -> Void)
}

/// How one request ended, for the broker to answer its caller.
enum ExecutionResult: Sendable {
    /// The plugin completed it; `launched` when this request loaded the plugin.
    case completed(PerformOutcome, launched: Bool)
    /// It could not be performed: PluginFailed, PluginCrashed, …
    case failed(DBusError)
}

/// How the broker runs an app's plugin (`--plugin-host`, the bundle key
/// `QuickActionsRunsInProcess`).
public enum PluginHostMode: String, Sendable, CaseIterable {
    /// Each app's plugin in a process of its own (the default).
    case process
    /// Plugins inside the broker, for plugins the user trusts: faster to launch, but a crash
    /// takes the broker and every app down.
    case inProcess = "in-process"
}
