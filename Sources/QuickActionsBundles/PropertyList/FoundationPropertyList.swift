import Foundation
import QuickActionsModel

/// Checks a value Foundation's text property-list readers returned before the model sees it.
///
/// Foundation's XML reader turns a dictionary holding only `CF$UID` into a keyed-archiver UID
/// object, which is no property-list value; this walk refuses it (and anything else unexpected),
/// bounds depth and size as `BinaryPropertyList` does, and rebuilds dictionaries as
/// `[String: Any]`.
enum FoundationPropertyList {
    /// `object` rebuilt from the property-list types alone.
    /// - Throws: `PropertyListError` naming the path of the first value of another type.
    static func checked(_ object: Any) throws(PropertyListError) -> Any {
        var values = 0
        return try checked(object, path: "", depth: 1, values: &values)
    }

    private static func checked(_ object: Any, path: String, depth: Int, values: inout Int) throws(PropertyListError) -> Any {
        let place = path.isEmpty ? "the top level" : path
        if depth > PropertyListLimits.maximumDepth {
            throw PropertyListError("\(place) is nested deeper than \(PropertyListLimits.maximumDepth) levels")
        }
        values += 1
        if values > PropertyListLimits.maximumValues {
            throw PropertyListError("the property list has more than \(PropertyListLimits.maximumValues) values")
        }
        if type(of: object) == Bool.self { return object }
        switch object {
        case is String, is Data:
            return object
        case let date as Date:
            guard date.timeIntervalSinceReferenceDate.isFinite else {
                throw PropertyListError("the date at \(place) is not a finite time")
            }
            return date
        case let array as [Any]:
            var result: [Any] = []
            result.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                result.append(try checked(element, path: "\(path)[\(index)]", depth: depth + 1, values: &values))
            }
            return result
        case let dictionary as [AnyHashable: Any]:
            var result: [String: Any] = [:]
            result.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                guard let string = key.base as? String else {
                    throw PropertyListError("a key at \(place) is \(type(of: key.base)), not a string")
                }
                result[string] = try checked(element, path: "\(path).\(string)", depth: depth + 1, values: &values)
            }
            return result
        case let number as NSNumber:
            return number
        default:
            throw PropertyListError("\(place) holds a \(type(of: object)), which is not a property-list value")
        }
    }
}
