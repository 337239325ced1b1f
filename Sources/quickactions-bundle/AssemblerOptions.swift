import Foundation

/// The command line of `quickactions-bundle`.
struct AssemblerOptions: Hashable, Sendable {
    /// The folder holding the built libraries.
    var products: URL
    /// The plugin directory the bundles go into.
    var output: URL
    /// The folder holding the examples' sources.
    var source: URL
    /// The examples to assemble; empty for all.
    var names: [String]

    static let help = """
        USAGE: quickactions-bundle check BUNDLE...
               quickactions-bundle --products DIR --output DIR [--source DIR] [NAME...]

        check: reads each bundle folder exactly as the broker does, without loading
        its library, and prints every warning and error the broker would log
        (misspelt keys with the likely one, skipped items, icon files that are
        missing or lead out of the bundle, a missing library, broken strings
        tables), then "BUNDLE: ok: ..." or "BUNDLE: not usable". Exit status 0 when
        every bundle is usable (warnings allowed), 1 when one is not, 2 when none
        is named.

        Otherwise it assembles the example plugins into ready bundles: for each example folder
        <source>/<Name>, copies Bundle/ (Info.plist, *.lproj/InfoPlist.strings, icons)
        and the built library named by CFBundleExecutable into <output>/<Name>.bundle,
        then reads the bundle back as the broker will and checks it. It builds nothing:
        build the libraries first. A bundle is replaced whole, never half written.

        OPTIONS:
          --products DIR  the build products folder holding libQuickActionsExample<Name>.so
                          (`swift build -c release --show-bin-path`)
          --output DIR    the plugin directory to write <Name>.bundle folders into
                          (created if missing)
          --source DIR    the examples' folder (default: plugins)
          NAME...         only these examples (default: every folder of the source
                          folder with Bundle/Info.plist)
          -h, --help      show this help

        OUTPUT:
          The path of each bundle written, one per line.

        EXIT STATUS:
          0  every example was assembled
          1  an example could not be assembled (the others still were)
          2  the command line is wrong

        EXAMPLES:
          quickactions-bundle check plugins/com.example.Hello.bundle
          swift build -c release --product QuickActionsExampleContacts
          quickactions-bundle --products "$(swift build -c release --show-bin-path)" \\
              --output out/plugins Contacts
          make plugins            # builds and assembles every example into out/plugins
        """

    /// Parses `arguments` (without the program name); nil for `--help`.
    /// - Throws: ``AssemblerError/usage(_:)`` naming the argument at fault.
    static func parse(_ arguments: [String]) throws(AssemblerError) -> AssemblerOptions? {
        var products: String?
        var output: String?
        var source = "plugins"
        var names: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                return nil
            case "--products", "--output", "--source":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    throw .usage("\(argument) needs a folder")
                }
                switch argument {
                case "--products": products = value
                case "--output": output = value
                default: source = value
                }
            case let option where option.hasPrefix("-"):
                throw .usage("unknown option '\(option)'")
            default:
                names.append(argument)
            }
        }
        guard let products else { throw .usage("--products is required") }
        guard let output else { throw .usage("--output is required") }
        return AssemblerOptions(
            products: URL(fileURLWithPath: products, isDirectory: true),
            output: URL(fileURLWithPath: output, isDirectory: true),
            source: URL(fileURLWithPath: source, isDirectory: true), names: names)
    }
}
