import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The members of one interface in introspection XML as comparable lines, e.g.
/// "method Match(in s query, out a(sssida{sv}) matches)"; annotations and comments left out.
enum InterfaceMembers {
    static func of(_ interface: String, inXML xml: String) throws -> Set<String> {
        let document = try XMLDocument(xmlString: xml, options: [])
        let nodes = try document.nodes(forXPath: "//interface[@name='\(interface)']/*")
        return Set(nodes.compactMap { node -> String? in
            guard let element = node as? XMLElement, let kind = element.name, kind != "annotation",
                  let name = element.attribute(forName: "name")?.stringValue else { return nil }
            let arguments = element.elements(forName: "arg").map { argument in
                [argument.attribute(forName: "direction")?.stringValue ?? (kind == "method" ? "in" : ""),
                 argument.attribute(forName: "type")?.stringValue ?? "",
                 argument.attribute(forName: "name")?.stringValue ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
            }
            let property = kind == "property"
                ? " \(element.attribute(forName: "type")?.stringValue ?? "") \(element.attribute(forName: "access")?.stringValue ?? "")"
                : ""
            return "\(kind) \(name)(\(arguments.joined(separator: ", ")))\(property)"
        })
    }
}
