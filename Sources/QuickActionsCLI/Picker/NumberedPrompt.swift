import DBus
/// The built-in picker: the items numbered on stderr, a number read from
/// stdin. On a terminal a wrong answer asks again; from a pipe it is a usage error.
struct NumberedPrompt {
    let menu: PickMenu
    let console: Console

    /// The chosen entry, or nil for an empty answer, "q", or end of input.
    func ask() throws(CLIError) -> PickMenu.Entry? {
        let count = menu.entries.count
        let digits = String(count).count
        for (index, entry) in menu.entries.enumerated() {
            let number = String(index + 1)
            let padded = String(repeating: " ", count: digits - number.count) + number
            let line = console.terminal.width.map { DisplayWidth.truncate(entry.line, to: $0 - digits - 4) } ?? entry.line
            console.writeError("  \(padded)  \(line)\n")
        }
        while true {
            console.writeError("Quick action [1-\(count), q to quit]: ")
            guard let answer = readLine(strippingNewline: true) else {
                console.writeError("\n")
                return nil
            }
            let trimmed = answer.trimmingSpaces
            if trimmed.isEmpty || trimmed == "q" { return nil }
            if let number = Int(trimmed), (1...count).contains(number) {
                return menu.entries[number - 1]
            }
            let problem = "\(trimmed.quoted(mark: "'")) is not a number from 1 to \(count)"
            guard console.terminal.stdinIsTerminal else { throw .usage(UsageError(problem, command: "pick")) }
            console.writeError("\(problem)\n")
        }
    }
}

extension String {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
