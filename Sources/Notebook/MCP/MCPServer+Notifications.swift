// Change notifications: while the server runs, a note added, changed or removed by any process
// reaches the client as `notifications/resources/list_changed` and, for the notes it watches,
// `notifications/resources/updated`: after `resources/subscribe` in the handshake era, on a
// `subscriptions/listen` stream (each message stamped with the stream's id) in the stateless one.
import MCP
import Notes
import Storage

extension MCPServer {
    /// The note a `resources/subscribe` (or `unsubscribe`) names, and its URI as written.
    func subscribedNote(_ params: JSON?) throws -> (NoteID, String) {
        guard let uri = params?["uri"]?.string else { throw RPCError(RPCError.invalidParams, "needs a \"uri\" (a string)") }
        guard let note = try NoteResources.note(at: uri, store: access.store) else { throw resourceNotFound(uri) }
        return (note.id, uri)
    }

    /// Opens a stream: acknowledges what it will send (the resources' notifications; this
    /// server's tools never change), first. The response comes when the stream ends.
    func listen(_ id: RequestID, params: JSON?) throws -> JSON {
        guard let wanted = params?["notifications"], wanted.object != nil else {
            throw RPCError(RPCError.invalidParams, "subscriptions/listen needs \"notifications\" (an object)")
        }
        var listen = Listen(listChanged: wanted["resourcesListChanged"] == .bool(true), notes: [:])
        for uri in wanted["resourceSubscriptions"]?.array?.compactMap(\.string) ?? [] {
            if let note = try NoteResources.note(at: uri, store: access.store) { listen.notes[note.id] = uri }
        }
        listens.removeAll { $0.id == id }
        listens.append((id, listen))
        var honored: [(String, JSON)] = []
        if listen.listChanged { honored.append(("resourcesListChanged", .bool(true))) }
        if !listen.notes.isEmpty { honored.append(("resourceSubscriptions", .array(listen.notes.values.sorted().map(JSON.string)))) }
        return Outgoing.notification("notifications/subscriptions/acknowledged",
                                     params: .object([("notifications", .object(honored)), ("_meta", stamp(id))]))
    }

    func stamp(_ id: RequestID) -> JSON { .object([(ProtocolRevisions.subscriptionIDKey, id.json)]) }

    /// Looks at the notebook again (it changed on disk) and returns the notifications due.
    public func notebookChanged() throws -> [JSON] {
        let changed = try changes.refresh(access.store)
        guard !changed.isEmpty else { return [] }
        switch era {
        case .handshake(initialized: true):
            return (changed.listChanged ? [Outgoing.notification("notifications/resources/list_changed")] : [])
                + changed.updated.compactMap { id in
                    subscriptions[id].map { Outgoing.notification("notifications/resources/updated", params: .object([("uri", .string($0))])) }
                }
        case .stateless:
            return listens.flatMap { id, listen in
                (changed.listChanged && listen.listChanged
                    ? [Outgoing.notification("notifications/resources/list_changed", params: .object([("_meta", stamp(id))]))] : [])
                    + changed.updated.compactMap { note in
                        listen.notes[note].map {
                            Outgoing.notification("notifications/resources/updated", params: .object([("uri", .string($0)), ("_meta", stamp(id))]))
                        }
                    }
            }
        case .handshake, .undecided:
            return []
        }
    }

    /// The server stops (a signal): each open listen stream gets its closing response.
    public func close() -> [JSON] {
        defer { listens = [] }
        return listens.map { id, _ in Outgoing.result(statelessResult(.object([("_meta", stamp(id))]), cacheable: false), id: id) }
    }
}
