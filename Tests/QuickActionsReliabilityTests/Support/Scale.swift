import Foundation

/// How big the reliability tests run. CI runs the short variants (a few
/// seconds each); `QUICKACTIONS_LONG_TESTS=1` runs the full counts the
/// issue asks for (see README.md in this folder).
enum Scale {
    static let isLong = ProcessInfo.processInfo.environment["QUICKACTIONS_LONG_TESTS"] == "1"

    /// `short` in CI, `long` with QUICKACTIONS_LONG_TESTS=1.
    static func pick(short: Int, long: Int) -> Int { isLong ? long : short }

    /// How much slower than usual everything runs: `make sanitizers` sets
    /// QUICKACTIONS_TEST_TIME_SCALE=10, as ThreadSanitizer slows the broker
    /// and the tests several times over. Timeouts a test relies on to *not*
    /// expire are multiplied by it.
    static let timeScale = max(1, Int(ProcessInfo.processInfo.environment["QUICKACTIONS_TEST_TIME_SCALE"] ?? "") ?? 1)

    /// Whether the broker runs under AddressSanitizer (`make sanitizers-asan`
    /// sets QUICKACTIONS_SANITIZER=address). ASan holds freed memory in its
    /// quarantine, so resident memory grows by design and memory bounds say
    /// nothing there; those checks are skipped, and the sanitizer checks leaks
    /// and use-after-free itself.
    static let memoryIsMeaningful = ProcessInfo.processInfo.environment["QUICKACTIONS_SANITIZER"] != "address"

    /// A line in the test log, so a run shows what was measured.
    static func report(_ line: String) {
        FileHandle.standardError.write(Data("[reliability] \(line)\n".utf8))
    }
}
