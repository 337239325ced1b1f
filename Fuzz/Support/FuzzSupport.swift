// Shared by every fuzz target (Fuzz/run.sh compiles it into each binary).
#if canImport(Glibc)
import Glibc
#endif

/// A broken property: print what was wrong, then abort so libFuzzer saves the input as a
/// crash artifact. (Never used on library code's behalf: only the fuzz target's own checks.)
enum FuzzFailure {
    static func report(_ reason: String, input: [UInt8]) -> Never {
        let preview = input.prefix(64).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined(separator: " ")
        fputs("FUZZ PROPERTY FAILED: \(reason)\n  input (\(input.count) bytes): \(preview)\(input.count > 64 ? " …" : "")\n", stderr)
        abort()
    }
}

/// `QA_FUZZ_SEEDS_MUST_PARSE=1` (set by `Fuzz/run.sh check-seeds`): every input must be
/// accepted, so a seed corpus that went stale (e.g. after a format change) fails loudly instead
/// of silently fuzzing nothing but the first error path.
enum FuzzSeedCheck {
    static let enabled: Bool = getenv("QA_FUZZ_SEEDS_MUST_PARSE").map { String(cString: $0) == "1" } ?? false

    static func rejected(_ reason: String) {
        guard enabled else { return }
        fputs("SEED REJECTED: \(reason)\n", stderr)
        abort()
    }
}
