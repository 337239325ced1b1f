import Foundation

/// A fresh directory under the system's temporary folder, removed with everything in it when
/// the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("qa-model-XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard let created = mkdtemp(&bytes) else {
            throw CocoaError(.fileWriteUnknown)
        }
        url = URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }

    var path: String { url.path }

    /// Writes `data` at `relative` (creating folders) and returns its URL.
    @discardableResult
    func write(_ data: Data, to relative: String) throws -> URL {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    @discardableResult
    func write(_ text: String, to relative: String) throws -> URL {
        try write(Data(text.utf8), to: relative)
    }

    @discardableResult
    func makeFolder(_ relative: String) throws -> URL {
        let folder = url.appendingPathComponent(relative, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
