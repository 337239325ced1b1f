/// One app's items, as `GetAllItems` lists them.
public struct AppItems: Sendable, Equatable {
    public let appID: String
    public let items: [Item]

    public init(appID: String, items: [Item]) {
        self.appID = appID
        self.items = items
    }
}
