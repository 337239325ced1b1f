/// Why an example could not be assembled, or the command line not understood. Each case names
/// the value or file at fault.
enum AssemblerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The command line is wrong (exit status 2).
    case usage(String)
    /// The source folder holds no example (no `<Name>/Bundle/Info.plist`).
    case noExamples(source: String)
    /// A name on the command line is not an example in the source folder.
    case unknownExample(name: String, source: String, known: [String])
    /// The example's Info.plist cannot be used.
    case manifest(path: String, reason: String)
    /// The example's Info.plist or tables read with warnings; an example must read cleanly.
    case warnings(example: String, [String])
    /// The library named by CFBundleExecutable is not among the build products.
    case missingLibrary(path: String, product: String)
    /// A file in the example's resources is neither a regular file nor a folder.
    case unsupportedFile(path: String)
    /// A file-system operation failed.
    case fileSystem(operation: String, path: String, reason: String)
    /// The assembled bundle does not read back as it should.
    case check(bundle: String, reason: String)

    /// The exit status for this error: 2 for a usage error, else 1.
    var exitStatus: Int32 {
        if case .usage = self { return 2 }
        return 1
    }

    var description: String {
        switch self {
        case .usage(let message):
            return "\(message) (see --help)"
        case .noExamples(let source):
            return "no example in \(source): none of its folders has Bundle/Info.plist"
        case .unknownExample(let name, let source, let known):
            return "no example '\(name)' in \(source) (examples: \(known.joined(separator: ", ")))"
        case .manifest(let path, let reason):
            return "\(path): \(reason)"
        case .warnings(let example, let lines):
            return "\(example) does not read cleanly: \(lines.joined(separator: "; "))"
        case .missingLibrary(let path, let product):
            return "\(path) is missing: build it first (`make plugins`, or `swift build --product \(product)`)"
        case .unsupportedFile(let path):
            return "\(path) is neither a regular file nor a folder (symbolic links are not copied)"
        case .fileSystem(let operation, let path, let reason):
            return "cannot \(operation) \(path): \(reason)"
        case .check(let bundle, let reason):
            return "the assembled bundle \(bundle) is not right: \(reason)"
        }
    }
}
