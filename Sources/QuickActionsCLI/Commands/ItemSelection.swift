import DBus

/// Which of an app's current items a command line names: by id (`--id`, or an ITEM that is
/// an id), else by type when exactly one item has it. Ids win over types: a static item's id
/// is its type, so `invoke APP compose` is the static item even when dynamic ones share it.
struct ItemSelection: Sendable, Equatable {
    /// The item as the user wrote it: an id or a type (nil with `--id` alone).
    let item: String?
    /// `--id`, when given.
    let id: String?

    /// The one item named among `items`.
    /// - Throws: `.notFound` (exit 3) when nothing matches, `.usage` (exit 2) when a type is
    ///   shared by several items (listing their ids and titles) or ITEM and `--id` disagree.
    func resolve(in items: [Item], app: String) throws(CLIError) -> Item {
        if let id {
            guard let item = items.first(where: { $0.id == id }) else {
                throw .notFound("app \(app.quoted(mark: "'")) has no current item with id \(id.quoted(mark: "'"))")
            }
            if let named = self.item, named != item.type, named != item.id {
                throw .usage(UsageError(
                    "the item with id \(id.quoted(mark: "'")) has type \(item.type.quoted(mark: "'")), not \(named.quoted(mark: "'")); give one of them"))
            }
            return item
        }
        guard let named = item else { throw .usage(UsageError("name an item: <item> (an id or a type) or --id <id>")) }
        if let item = items.first(where: { $0.id == named }) { return item }
        let ofType = items.filter { $0.type == named }
        switch ofType.count {
        case 0:
            throw .notFound("app \(app.quoted(mark: "'")) has no current item with id or type \(named.quoted(mark: "'"))")
        case 1:
            return ofType[0]
        default:
            let width = ofType.map(\.id.count).max() ?? 0
            let lines = ofType.map { "  \($0.id.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.title)" }
            throw .usage(UsageError(
                "\(named.quoted(mark: "'")) is the type of \(ofType.count) items of app \(app.quoted(mark: "'")); name one by its id:\n"
                    + lines.joined(separator: "\n")))
        }
    }
}
