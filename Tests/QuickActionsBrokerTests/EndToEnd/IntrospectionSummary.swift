import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The members of an introspected interface as comparable lines, e.g.
/// "method GetItems(in s app_id, in a{sv} options, out aa{sv} items)".
struct IntrospectionSummary {
    private let document: XMLDocument

    init(xml: String) throws {
        document = try XMLDocument(xmlString: xml, options: [])
    }

    func members(of interface: String) throws -> [String] {
        let nodes = try document.nodes(forXPath: "//interface[@name='\(interface)']/*")
        return nodes.compactMap { node -> String? in
            guard let element = node as? XMLElement, let kind = element.name, kind != "annotation",
                  let name = element.attribute(forName: "name")?.stringValue else { return nil }
            let arguments = (element.elements(forName: "arg")).map { argument in
                [argument.attribute(forName: "direction")?.stringValue ?? (kind == "method" ? "in" : ""),
                 argument.attribute(forName: "type")?.stringValue ?? "",
                 argument.attribute(forName: "name")?.stringValue ?? ""]
                    .filter { !$0.isEmpty }.joined(separator: " ")
            }
            let extra = kind == "property"
                ? " \(element.attribute(forName: "type")?.stringValue ?? "") \(element.attribute(forName: "access")?.stringValue ?? "")"
                : ""
            return "\(kind) \(name)(\(arguments.joined(separator: ", ")))\(extra)"
        }.sorted()
    }
}
