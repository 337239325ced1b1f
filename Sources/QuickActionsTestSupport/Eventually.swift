/// Waits up to `timeout` for `condition` to hold, checking every 20 ms; true once it holds,
/// else what a last check says. For what a test waits on across processes: a broker's rescan,
/// a host's exit, a signal reaching a client.
public func eventually(
    _ timeout: Duration = .seconds(15), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
