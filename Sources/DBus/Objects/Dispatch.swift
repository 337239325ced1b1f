extension Connection {
    /// Routes one incoming method call to its handler, or answers it with the
    /// standard error that says what was not found.
    func dispatch(_ message: Message) {
        // Read before the lookup: a change meanwhile makes the stored entry stale, never wrong.
        let generation = objects.generation
        if let entry = dispatchCache.entry(for: message, generation: generation) {
            invoke(entry.method, message: message, interface: entry.interface)
            return
        }
        guard let path = message.path, let member = message.member else {
            reject(message, DBusError(.unknownMethod, "method call without path or member"))
            return
        }
        let interfaceName = message.interface
        let declared: [Interface]
        let standard: [Interface]
        if let node = objects.node(at: path) {
            declared = node.interfaces
            standard = standardInterfaces.forObject(isManager: objects.isManager(path))
        } else if objects.hasDescendants(path) || path == .root {
            declared = []
            standard = standardInterfaces.forIntermediateNode
        } else {
            reject(message, DBusError(.unknownObject, "no object at path \(path.rawValue.quoted())"))
            return
        }

        let method: Method
        if let interfaceName {
            guard let interface = declared.first(where: { $0.name == interfaceName })
                ?? standard.first(where: { $0.name == interfaceName }) else {
                reject(message, DBusError(.unknownInterface,
                    "object \(path.rawValue) has no interface \(interfaceName.rawValue)"))
                return
            }
            guard let found = interface.methodsByName[member.rawValue] else {
                reject(message, DBusError(.unknownMethod,
                    "interface \(interfaceName.rawValue) has no method \(member.rawValue)"))
                return
            }
            method = found
        } else {
            // No interface field: the first interface, in declaration order,
            // that has a method of that name.
            let search = { (interfaces: [Interface]) in interfaces.lazy.compactMap { $0.methodsByName[member.rawValue] }.first }
            guard let found = search(declared) ?? search(standard) else {
                reject(message, DBusError(.unknownMethod,
                    "object \(path.rawValue) has no method \(member.rawValue)"))
                return
            }
            method = found
        }
        dispatchCache.store(DispatchCache.Entry(
            generation: generation, path: path.rawValue, interface: interfaceName, member: member.rawValue,
            method: method))
        invoke(method, message: message, interface: interfaceName)
    }

    private func invoke(_ method: Method, message: Message, interface: InterfaceName?) {
        let label = CallLabel(interface: interface, member: method.name)
        guard message.hasSignature(method.inputSignature) else {
            reject(message, method.signatureMismatch(message, label: label))
            return
        }
        if let typed = method.typed {
            // Decoded straight from the message into the declared Swift types.
            typed.run(message, Reply(call: message, connection: self, outputTypes: method.outputTypes, label: label))
            return
        }
        let arguments: [Value]
        do {
            arguments = try message.arguments()
        } catch {
            reject(message, error)
            return
        }
        let call = MethodCall(message: message, arguments: arguments)
        let reply = Reply(call: message, connection: self, outputTypes: method.outputTypes, label: label)
        switch method.handler {
        case .immediate(let body):
            do {
                reply.send(try body(call))
            } catch {
                reply.fail(Self.dbusError(error, label: label))
            }
        case .deferred(let body):
            do {
                try body(call, reply)
            } catch {
                reply.fail(Self.dbusError(error, label: label))
            }
        case .async(let body):
            Task {
                do {
                    reply.send(try await body(call))
                } catch {
                    reply.fail(Self.dbusError(error, label: label))
                }
            }
        }
    }

    /// A handler's error as a D-Bus error: its own name when it threw a
    /// `DBusError`, else `Failed` with its description.
    @usableFromInline
    static func dbusError(_ error: any Error, label: some CustomStringConvertible) -> DBusError {
        if let error = error as? DBusError { return error }
        return DBusError(.failed, "\(label) failed: \(error)")
    }

    private func reject(_ message: Message, _ error: DBusError) {
        guard !message.noReplyExpected, let reply = try? message.makeError(error) else { return }
        try? send(reply)
    }
}

/// "interface.Member" for messages about a call, built only when one is needed.
@usableFromInline
struct CallLabel: Sendable, CustomStringConvertible {
    let interface: InterfaceName?
    let member: MemberName

    @usableFromInline
    init(interface: InterfaceName?, member: MemberName) {
        self.interface = interface
        self.member = member
    }

    @usableFromInline
    var description: String {
        guard let interface else { return member.rawValue }
        return "\(interface.rawValue).\(member.rawValue)"
    }
}
