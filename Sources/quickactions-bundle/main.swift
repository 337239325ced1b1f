// quickactions-bundle: the bundle checker (`check BUNDLE...`) and the assembler of the
// example plugins (plugins/) into ready bundles.
// See AssemblerOptions.help, and plugins/README.md for the packaging commands.
import Foundation
import Glibc

if CommandLine.arguments.dropFirst().first == "check" {
    let paths = Array(CommandLine.arguments.dropFirst(2))
    if paths.contains("--help") || paths.contains("-h") {
        print(AssemblerOptions.help)
        exit(0)
    }
    exit(CheckCommand.run(paths) { print($0) })
}

func fail(_ error: AssemblerError) -> Never {
    FileHandle.standardError.write(Data("quickactions-bundle: \(error)\n".utf8))
    exit(error.exitStatus)
}

let options: AssemblerOptions
do {
    guard let parsed = try AssemblerOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
        print(AssemblerOptions.help)
        exit(0)
    }
    options = parsed
} catch {
    fail(error)
}

let examples: [Example]
do {
    examples = try Example.find(in: options.source, named: options.names)
} catch {
    fail(error)
}

let assembler = BundleAssembler(products: options.products, output: options.output)
var status: Int32 = 0
for example in examples {
    do {
        let bundle = try assembler.assemble(example)
        print(bundle.path)
    } catch {
        FileHandle.standardError.write(Data("quickactions-bundle: \(example.name): \(error)\n".utf8))
        status = error.exitStatus
    }
}
exit(status)
