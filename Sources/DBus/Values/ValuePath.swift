/// Where inside a ``Value`` something is, for error messages.
///
/// Rendered like `[3].key`, `.1[0]` or `.variant`: `[i]` is element (or dict entry) `i`
/// of an array, `.key`/`.value` the parts of a dict entry, `.i` field `i` of a struct,
/// `.variant` the content of a variant. The empty path is the value itself.
public struct ValuePath: Hashable, Sendable, CustomStringConvertible {
    /// One step into a container.
    public enum Component: Hashable, Sendable {
        /// Element `i` of an array.
        case element(Int)
        /// The key of dict entry `i`.
        case key(Int)
        /// The value of dict entry `i`.
        case value(Int)
        /// Field `i` of a struct.
        case field(Int)
        /// The content of a variant.
        case variant
    }

    /// The steps from the outermost value inwards.
    public var components: [Component]

    /// The value itself.
    public static let root = ValuePath(components: [])

    public init(components: [Component]) {
        self.components = components
    }

    /// Whether this is the value itself.
    public var isRoot: Bool { components.isEmpty }

    /// This path with `component` in front.
    func prepending(_ component: Component) -> ValuePath {
        ValuePath(components: [component] + components)
    }

    public var description: String {
        if components.isEmpty {
            return "the value"
        }
        var result = ""
        for component in components {
            switch component {
            case .element(let index): result += "[\(index)]"
            case .key(let index): result += "[\(index)].key"
            case .value(let index): result += "[\(index)].value"
            case .field(let index): result += ".\(index)"
            case .variant: result += ".variant"
            }
        }
        return result
    }
}
