import QuickActionsAPI
import DBus
import Locking
import QuickActionsModel
import QuickActionsProviding

/// Controls for the media players on the session bus (MPRIS 2): Play or Pause, Next and
/// Previous of every `org.mpris.MediaPlayer2.*` name, as dynamic items of the app its
/// `DesktopEntry` names (see ``MediaPlayersCatalog`` for the app, id and title rules).
///
/// It follows `NameOwnerChanged` (after one `ListNames`) and each player's
/// `PropertiesChanged`, re-reading invalidated properties; what it publishes follows within
/// a republish interval (75 ms), however fast a player sends. Nothing is kept on disk: a
/// player that quits takes its items with it.
///
/// A player can only cost itself: every call to it has a timeout (2 s) and never blocks
/// anyone (replies are handled as they come, on the connection's loop thread); what it sends
/// is read only for the properties used, each checked for its type (a wrong one is ignored and
/// logged once, naming the player and the property) and cut to bounded sizes
/// (``PlayerProperties/Limits``); at most ``maximumPlayers`` names are followed. The whole of a
/// message a player sends is still decoded by libdbus, within the bus's message size limit.
public final class MediaPlayersProvider: ItemProvider {
    public let name = ItemKey.Provider.mediaPlayers
    /// Each player is asked for its properties, and a player may take its time answering.
    public let readsLocally = false
    /// Names followed at once; more are logged and left out.
    public static let maximumPlayers = 64

    private let connection: Connection
    private let applications: any InstalledApplications
    private let log: @Sendable (LogLevel, String) -> Void
    private let callTimeout: Duration
    private let state = Locked(State())
    private let throttle: PublishThrottle

    /// A player followed: who owns its name now, what it said, what is in flight.
    private struct Tracked: Sendable {
        var owner: String
        /// Changes with every new owner, so a late reply for an old one is dropped.
        var generation: UInt64
        var properties = PlayerProperties()
        var subscription: SignalSubscription?
        /// `interface property` pairs being read again after an invalidation.
        var pendingGets: Set<String> = []
        /// Properties already logged as wrong (each once per owner).
        var reported: Set<String> = []
    }

    private struct State: Sendable {
        var started = false
        var stopped = false
        var publish: (@Sendable ([ProvidedApp]) -> Void)?
        var players: [String: Tracked] = [:]
        var nextGeneration: UInt64 = 1
        var catalog = MediaPlayersCatalog()
        var published: [ProvidedApp]?
        var nameWatch: SignalSubscription?
        var applicationsToken: ObservationToken?
        var reportedTooMany = false
    }

    /// - Parameters:
    ///   - connection: a connection to the session bus; the provider never closes it.
    ///   - applications: the installed applications the players' `DesktopEntry` names.
    ///   - log: where lines about players go (a hostile player, a player that does not answer).
    ///   - callTimeout: how long any call to a player may take: `GetAll`, `Get`, the controls.
    ///   - republishInterval: the least time between two publishes.
    public init(
        connection: Connection, applications: any InstalledApplications,
        log: @escaping @Sendable (LogLevel, String) -> Void,
        callTimeout: Duration = .seconds(2), republishInterval: Duration = .milliseconds(75)
    ) {
        self.connection = connection
        self.applications = applications
        self.log = log
        self.callTimeout = callTimeout
        let milliseconds = Int(republishInterval.components.seconds * 1000
            + republishInterval.components.attoseconds / 1_000_000_000_000_000)
        let box = WeakBox()
        throttle = PublishThrottle(interval: .milliseconds(max(1, milliseconds))) { box.provider?.publishNow() }
        box.provider = self
    }

    /// Lets the throttle reach the provider without keeping it alive.
    private final class WeakBox: @unchecked Sendable {
        // @unchecked Sendable: `provider` is set once, in the provider's init, before the
        // throttle can run; afterwards it is only read.
        weak var provider: MediaPlayersProvider?
    }

    deinit { stop() }

    // MARK: ItemProvider

    public func start(publish: @escaping @Sendable ([ProvidedApp]) -> Void) {
        let first = state.withLock { state in
            guard !state.started, !state.stopped else { return false }
            state.started = true
            state.publish = publish
            return true
        }
        guard first else { return }
        let token = applications.observe { [weak self] _ in self?.throttle.request() }
        let keep = state.withLock { state in
            guard !state.stopped else { return false }
            state.applicationsToken = token
            return true
        }
        if !keep { token.cancel() }
        Task { [weak self] in await self?.watchNames() }
    }

    public func stop() {
        let taken = state.withLock { state in
            state.stopped = true
            state.publish = nil
            defer {
                state.players = [:]
                state.nameWatch = nil
                state.applicationsToken = nil
            }
            return (state.players.values.compactMap(\.subscription), state.nameWatch, state.applicationsToken)
        }
        taken.0.forEach { $0.cancel() }
        taken.1?.cancel()
        taken.2?.cancel()
        throttle.stop()
    }

    public func perform(_ request: ProvidedPerform, completion: @escaping @Sendable (ProvidedOutcome) -> Void) {
        let found = state.withLock { state -> (MediaPlayersCatalog.Target, Tracked?, String)? in
            let target = state.catalog.targets[request.appID]?[request.item.id] ?? Self.target(of: request.item)
            guard let target else { return nil }
            let appName = state.catalog.apps.first { $0.appID == request.appID }?.name.value
            let player = state.players[target.busName]
            let label = player?.properties.identity ?? appName ?? target.busName
            return (target, player, label)
        }
        guard let (target, player, label) = found else {
            completion(.failed("\(request.appID.quoted()) has no media player item \(request.item.id.quoted())"))
            return
        }
        guard let player else {
            completion(.failed("\(label) has quit: \(target.busName) is no longer on the bus"))
            return
        }
        guard target.control.isAccepted(by: player.properties) else {
            completion(.failed(target.control.notOffered(label)))
            return
        }
        let message: Message
        do {
            message = try Message.methodCall(
                destination: BusName(player.owner), path: MPRIS.path, interface: MPRIS.player, member: target.control.method)
        } catch {
            completion(.failed("\(label): cannot call \(player.owner.quoted()): \(error)"))
            return
        }
        let control = target.control
        let busName = target.busName
        connection.call(message, timeout: callTimeout) { result in
            switch result {
            case .success:
                completion(.succeeded(control.succeeded(label)))
            case .failure(let error) where error.name == .serviceUnknown || error.name == .nameHasNoOwner:
                completion(.failed("\(label) has quit: \(busName) is no longer on the bus"))
            case .failure(let error):
                completion(.failed(
                    "\(label) did not \(control.method.rawValue): \(error.name.rawValue): \(error.message.quoted(prefix: 200))"))
            }
        }
    }

    /// An item's player and control from its own fields (for an item published before the
    /// last change): the user info's player and the type's control.
    private static func target(of item: ProvidedItem) -> MediaPlayersCatalog.Target? {
        guard case .string(let busName)? = item.userInfo[MediaPlayersCatalog.playerKey],
              let control = MediaControl.allCases.first(where: { $0.type == item.type }) else { return nil }
        return MediaPlayersCatalog.Target(busName: busName, control: control)
    }

    // MARK: Names

    private func watchNames() async {
        do {
            let watch = try await connection.watchNameOwners { [weak self] name, _, newOwner in
                self?.ownerChanged(name: name, owner: newOwner)
            }
            let keep = state.withLock { state in
                guard !state.stopped else { return false }
                state.nameWatch = watch
                return true
            }
            guard keep else {
                watch.cancel()
                return
            }
        } catch {
            log(.error, "media-players: cannot follow NameOwnerChanged, players that start later are missed: \(error)")
        }
        do {
            let message = try Message.methodCall(destination: .bus, path: .bus, interface: .bus, member: "ListNames")
            connection.call(message, timeout: .seconds(10)) { [weak self] result in self?.listed(result) }
        } catch {
            log(.error, "media-players: cannot ask the bus for its names: \(error)")
            throttle.request()
        }
    }

    /// The `ListNames` reply, on the loop thread: each player's owner is asked for in order
    /// with `NameOwnerChanged`, so the two never disagree.
    private func listed(_ result: Result<Message, DBusError>) {
        defer { throttle.request() }
        let names: [String]
        do {
            var reader = MessageReader(try result.get())
            names = try reader.read()
        } catch {
            log(.error, "media-players: ListNames failed: \(error)")
            return
        }
        for name in names where MPRIS.playerKey(of: name) != nil {
            guard let message = try? Message.methodCall(destination: .bus, path: .bus, interface: .bus, member: "GetNameOwner"),
                  (try? message.append([.string(name)])) != nil else { continue }
            connection.call(message, timeout: .seconds(10)) { [weak self] result in
                guard let self, case .success(let reply) = result else { return }
                var reader = MessageReader(reply)
                guard let owner: String = try? reader.read() else { return }
                track(name, owner: owner)
            }
        }
    }

    private func ownerChanged(name: String, owner: String) {
        guard MPRIS.playerKey(of: name) != nil else { return }
        if owner.isEmpty {
            untrack(name)
        } else {
            track(name, owner: owner)
        }
    }

    // MARK: Players

    private func track(_ name: String, owner: String) {
        let outcome = state.withLock { state -> (generation: UInt64, replaced: SignalSubscription?, tooMany: Bool)? in
            guard !state.stopped, state.players[name]?.owner != owner else { return nil }
            if state.players[name] == nil, state.players.count >= Self.maximumPlayers {
                defer { state.reportedTooMany = true }
                return state.reportedTooMany ? nil : (0, nil, true)
            }
            let generation = state.nextGeneration
            state.nextGeneration += 1
            let replaced = state.players[name]?.subscription
            state.players[name] = Tracked(owner: owner, generation: generation)
            return (generation, replaced, false)
        }
        guard let outcome else { return }
        if outcome.tooMany {
            log(.warning, "media-players: more than \(Self.maximumPlayers) players on the bus; \(name.quoted()) and later ones are left out")
            return
        }
        outcome.replaced?.cancel()
        throttle.request()
        let generation = outcome.generation
        Task { [weak self] in await self?.follow(name, owner: owner, generation: generation) }
    }

    private func untrack(_ name: String) {
        let gone = state.withLock { state in state.players.removeValue(forKey: name) }
        guard let gone else { return }
        gone.subscription?.cancel()
        throttle.request()
    }

    /// Subscribes to the player's `PropertiesChanged` (by its unique name and the MPRIS path),
    /// then reads both interfaces' properties: a change sent after the read arrives after it.
    private func follow(_ name: String, owner: String, generation: UInt64) async {
        let rule = MatchRule(sender: owner, path: MPRIS.path, interface: MPRIS.properties, member: MPRIS.propertiesChanged)
        do {
            let subscription = try await connection.subscribe(rule) { [weak self] message in
                self?.propertiesChanged(name, generation: generation, message)
            }
            let keep = state.withLock { state in
                guard state.players[name]?.generation == generation else { return false }
                state.players[name]?.subscription = subscription
                return true
            }
            guard keep else {
                subscription.cancel()
                return
            }
        } catch {
            log(.warning, "media-players: cannot follow changes of player \(name) (\(owner)): \(error)")
        }
        for interface in [MPRIS.root, MPRIS.player] {
            read(name, owner: owner, generation: generation, interface: interface.rawValue, property: nil)
        }
    }

    /// `GetAll(interface)`, or `Get(interface, property)`, applied when it answers in time.
    /// A GetAll without an answer in time is asked again, at most ``readAttempts`` times in
    /// all: a player (or this process) busy for a moment at its start must not lose every
    /// item until it next changes a property; one that never answers costs three timeouts.
    private func read(
        _ name: String, owner: String, generation: UInt64, interface: String, property: String?, attempt: Int = 1
    ) {
        let message: Message
        do {
            message = try Message.methodCall(
                destination: BusName(owner), path: MPRIS.path, interface: MPRIS.properties,
                member: property == nil ? "GetAll" : "Get")
            try message.append(property.map { [.string(interface), .string($0)] } ?? [.string(interface)])
        } catch {
            log(.warning, "media-players: cannot ask player \(name) (\(owner.quoted())) for its properties: \(error)")
            return
        }
        connection.call(message, timeout: callTimeout) { [weak self] result in
            guard let self else { return }
            let what = property.map { "Get(\(interface), \($0))" } ?? "GetAll(\(interface))"
            do throws(DBusError) {
                let reply = try result.get()
                let values: [(String, Value)]
                if let property {
                    values = [(property, try PlayerReading.get(reply))]
                } else {
                    values = try PlayerReading.getAll(reply, interface: interface)
                }
                apply(values, to: name, generation: generation, finishing: property.map { "\(interface) \($0)" })
            } catch {
                if property == nil, error.name == ErrorName.noReply, attempt < Self.readAttempts,
                   state.withLock({ $0.players[name]?.generation == generation }) {
                    read(name, owner: owner, generation: generation, interface: interface, property: nil, attempt: attempt + 1)
                    return
                }
                if let property { apply([], to: name, generation: generation, finishing: "\(interface) \(property)") }
                report(name, generation: generation, key: what, "\(what) failed: \(error.name.rawValue): \(error.message.quoted(prefix: 200))")
            }
        }
    }

    private func propertiesChanged(_ name: String, generation: UInt64, _ message: Message) {
        let change: (interface: String, changed: [(String, Value)], invalidated: [String])
        do {
            change = try PlayerReading.propertiesChanged(message)
        } catch {
            report(name, generation: generation, key: "PropertiesChanged", "sent a PropertiesChanged that cannot be read: \(error)")
            return
        }
        guard !change.changed.isEmpty || !change.invalidated.isEmpty else { return }
        apply(change.changed, to: name, generation: generation, finishing: nil)
        let toRead = state.withLock { state -> (owner: String, properties: [String])? in
            guard var player = state.players[name], player.generation == generation else { return nil }
            let fresh = change.invalidated.filter { player.pendingGets.insert("\(change.interface) \($0)").inserted }
            state.players[name] = player
            return (player.owner, fresh)
        }
        guard let toRead else { return }
        for property in toRead.properties {
            read(name, owner: toRead.owner, generation: generation, interface: change.interface, property: property)
        }
    }

    /// Sets properties of the player's current owner; logs each wrongly typed one once.
    private func apply(_ values: [(String, Value)], to name: String, generation: UInt64, finishing pending: String?) {
        let problems = state.withLock { state -> [PlayerProperties.Problem] in
            guard var player = state.players[name], player.generation == generation else { return [] }
            if let pending { player.pendingGets.remove(pending) }
            var problems: [PlayerProperties.Problem] = []
            for (property, value) in values {
                if let problem = player.properties.apply(property, value), player.reported.insert(problem.property).inserted {
                    problems.append(problem)
                }
            }
            state.players[name] = player
            return problems
        }
        for problem in problems {
            log(.warning, "media-players: player \(name): \(problem); ignored")
        }
        if !values.isEmpty { throttle.request() }
    }

    /// Logs a player's failure once per owner and `key`.
    static let readAttempts = 3

    private func report(_ name: String, generation: UInt64, key: String, _ text: String) {
        let first = state.withLock { state in
            guard var player = state.players[name], player.generation == generation else { return false }
            defer { state.players[name] = player }
            return player.reported.insert(key).inserted
        }
        if first { log(.warning, "media-players: player \(name) \(text)") }
    }

    // MARK: Publishing

    /// On the throttle's queue: the apps as they stand now, published when they changed.
    private func publishNow() {
        let players = state.withLock { state in
            state.players.map { PlayerSnapshot(busName: $0.key, owner: $0.value.owner, properties: $0.value.properties) }
        }
        let catalog = MediaPlayersCatalog(players: players, installed: applications.applications)
        let publish = state.withLock { state -> (@Sendable ([ProvidedApp]) -> Void)? in
            guard !state.stopped else { return nil }
            state.catalog = catalog
            guard state.published != catalog.apps else { return nil }
            state.published = catalog.apps
            return state.publish
        }
        publish?(catalog.apps)
    }
}
