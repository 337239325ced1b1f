import DBus

// Usage ranking (dbus/org.quickactions.Broker1.xml, "Usage ranking"): the option `order`, the
// item key `frecency` and ForgetUsage.

extension BrokerAPI.Option {
    /// s: GetItems and GetAllItems only, a ``BrokerAPI/Order`` value.
    public static let order = "order"
}

extension BrokerAPI.Member {
    public static let forgetUsage: MemberName = "ForgetUsage"
}

extension BrokerAPI {
    /// The values of the option `order`.
    public enum Order: String, Sendable, CaseIterable {
        /// Static items in manifest order, then dynamic items as set (the default).
        case display
        /// Highest frecency first; ties keep display order.
        case frecency
    }
}

extension ItemKey {
    /// d: only in listings in ``BrokerAPI/Order/frecency`` order, the item's usage score.
    public static let frecency = "frecency"
}

extension ListedItem {
    /// The usage score, in listings asked for in frecency order; nil otherwise.
    public var frecency: Double? { raw.dictionary?[.string(ItemKey.frecency)]?.double }
}

extension BrokerProxy {
    /// GetItems with option `order`.
    public func items(of appID: String, locale: String? = nil, order: BrokerAPI.Order) async throws(DBusError) -> [ListedItem] {
        let reply = try await connection.call(
            destination: destination, path: BrokerAPI.rootPath, interface: BrokerAPI.interface,
            member: BrokerAPI.Member.getItems, [.string(appID), Self.listingOptions(locale: locale, order: order)])
        do {
            return try ListedItem.list(decoding: reply.first, app: appID)
        } catch {
            throw error.dbusError
        }
    }

    /// GetAllItems with option `order`: every app's items, apps sorted by id.
    public func allItems(
        locale: String? = nil, order: BrokerAPI.Order
    ) async throws(DBusError) -> [(appID: String, items: [ListedItem])] {
        let reply = try await connection.call(
            destination: destination, path: BrokerAPI.rootPath, interface: BrokerAPI.interface,
            member: BrokerAPI.Member.getAllItems, [Self.listingOptions(locale: locale, order: order)])
        guard let groups = reply.first?.array else {
            throw APIDecodingError("GetAllItems answered \(reply.first?.type.signature ?? "nothing"), not a(saa{sv})").dbusError
        }
        var result: [(appID: String, items: [ListedItem])] = []
        for group in groups {
            guard let fields = group.structure, fields.count == 2, let app = fields[0].string else {
                throw APIDecodingError("GetAllItems listed a group as \(group.type.signature), not (saa{sv})").dbusError
            }
            do {
                result.append((app, try ListedItem.list(decoding: fields[1], app: app)))
            } catch {
                throw error.dbusError
            }
        }
        return result
    }

    /// ForgetUsage: clears one app's usage history, or every app's for ""; the number of items
    /// that had one.
    public func forgetUsage(app appID: String) async throws(DBusError) -> UInt32 {
        let reply = try await connection.call(
            destination: destination, path: BrokerAPI.rootPath, interface: BrokerAPI.interface,
            member: BrokerAPI.Member.forgetUsage, [.string(appID)])
        guard case .uint32(let count)? = reply.first else {
            throw APIDecodingError("ForgetUsage answered \(reply.first?.type.signature ?? "nothing"), not u").dbusError
        }
        return count
    }

    static func listingOptions(locale: String?, order: BrokerAPI.Order) -> Value {
        var entries = [DictionaryEntry(.string(BrokerAPI.Option.order), .variant(.string(order.rawValue)))]
        if let locale { entries.append(DictionaryEntry(.string(BrokerAPI.Option.locale), .variant(.string(locale)))) }
        return .dictionary(key: .string, value: .variant, entries)
    }
}
