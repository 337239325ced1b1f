import Foundation

/// One example plugin's sources: the folder `<source>/<name>`, whose `Bundle/` holds the bundle's
/// resources (Info.plist, `*.lproj/InfoPlist.strings`, icons).
struct Example: Hashable, Sendable {
    /// The folder's name, and the bundle's: `<name>.bundle`.
    var name: String
    /// The `Bundle/` folder.
    var resources: URL

    var infoPlist: URL { resources.appendingPathComponent("Info.plist") }

    /// The examples in `source`: every folder with `Bundle/Info.plist`, sorted by name; only
    /// those in `names` when it is not empty (in its order).
    /// - Throws: ``AssemblerError`` when there is none, or a name is not among them.
    static func find(in source: URL, named names: [String]) throws(AssemblerError) -> [Example] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: source.path)
        } catch {
            throw .fileSystem(operation: "list", path: source.path, reason: error.localizedDescription)
        }
        let all = entries.sorted().filter { !$0.hasPrefix(".") }.map { name in
            Example(name: name, resources: source.appendingPathComponent(name).appendingPathComponent("Bundle"))
        }.filter { FileManager.default.fileExists(atPath: $0.infoPlist.path) }
        guard !all.isEmpty else { throw .noExamples(source: source.path) }
        if names.isEmpty { return all }
        var chosen: [Example] = []
        for name in names {
            guard let example = all.first(where: { $0.name == name }) else {
                throw .unknownExample(name: name, source: source.path, known: all.map(\.name))
            }
            if !chosen.contains(example) { chosen.append(example) }
        }
        return chosen
    }
}
