#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call: which call, on which path, and `errno`'s text.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed (`open`, `rename`, `fsync`, …).
    public let call: String
    /// The path it was called on.
    public let path: String
    /// `errno` after the call.
    public let errno: Int32

    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    public var description: String {
        "\(call) \(path): \(String(cString: strerror(errno)))"
    }

}

#if canImport(Glibc)
@inline(__always) func currentErrno() -> Int32 { Glibc.errno }
#else
@inline(__always) func currentErrno() -> Int32 { Darwin.errno }
#endif

/// Runs a system call that returns -1 on failure, retrying on `EINTR`.
/// - Throws: `SystemCallError` with `call`, `path` and `errno`.
@discardableResult
func systemCall<Result: FixedWidthInteger & SignedInteger>(
    _ call: String, _ path: String, _ body: () -> Result
) throws(SystemCallError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = currentErrno()
        if error == EINTR { continue }
        throw SystemCallError(call: call, path: path, errno: error)
    }
}
