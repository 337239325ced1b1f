import Foundation
import Locking

/// What `quickactions status` reads beyond the catalog: when the broker
/// started and each app's last load error. The quarantine and the catalog
/// keep the rest.
final class BrokerStatus: Sendable {
    /// Microseconds since the Unix epoch when the broker started.
    let startTime: UInt64
    /// App id → why its plugin's last load failed; absent once a load succeeded.
    private let loadErrors = Locked<[String: String]>([:])

    init(now: Date = Date()) {
        startTime = UInt64(max(0, now.timeIntervalSince1970 * 1_000_000))
    }

    /// The last load error of `appID`, or "".
    func lastLoadError(of appID: String) -> String {
        loadErrors.withLock { $0[appID] ?? "" }
    }

    /// Records the outcome of a load: `error` nil for a success. Returns
    /// whether the recorded error changed (so PropertiesChanged is due).
    func recordLoad(of appID: String, error: String?) -> Bool {
        loadErrors.withLock { errors in
            let before = errors[appID]
            errors[appID] = error
            return before != error
        }
    }

    /// Forgets a removed app.
    func forget(_ appID: String) {
        loadErrors.withLock { _ = $0.removeValue(forKey: appID) }
    }
}
