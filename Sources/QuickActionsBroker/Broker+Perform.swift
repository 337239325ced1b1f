import DBus
import Dispatch
import Foundation
import QuickActionsHost
import QuickActionsBundles
import QuickActionsModel

extension Broker {
    /// Perform(app_id, type, options): checks everything it can at once, then
    /// hands the item to the plugin (loading it first when this is its first
    /// Perform). The reply goes out when the plugin completes, when the
    /// timeout passes, or never if the caller leaves the bus first.
    ///
    /// When an in-process plugin completes inside its perform, all of this and the reply
    /// run on the bus loop, one after the other.
    func perform(
        appID: String, type: String, options raw: [String: Value], caller sender: String?, reply: PerformReplyHandle
    ) throws(DBusError) {
        let options = try CallOptions(raw)
        guard let app = catalog.withLock({ $0[appID] }) else { throw DBusError.unknownApplication(appID) }
        let locale = options.locale ?? configuration.locale
        let selected = try selectItem(in: app, type: type, id: options.itemID, locale: locale)
        let caller = sender ?? ""
        let timeout = options.timeoutMilliseconds ?? configuration.defaultTimeoutMilliseconds
        guard pending.hasRoom(for: caller) else {
            throw DBusError(.limitsExceeded,
                "caller \(caller) already has \(PendingPerforms.perCallerLimit) Performs pending; wait for some to complete")
        }
        let item: ShortcutItem
        switch selected {
        case .plugin(let pluginItem):
            item = pluginItem
        case .provided(let provider, let providedItem):
            performProvided(providedItem, of: appID, by: provider, options: options, caller: caller, timeout: timeout,
                            reply: reply)
            return
        }
        let request = PerformRequest(
            item: item, resolvedIcon: app.resolvedIcon(of: item), arguments: options.arguments,
            activationToken: options.activationToken)
        log(.debug, "Perform \(appID) \(type) from \(caller)")
        // The timeout counts from here, however long the hand-over below takes.
        let received = DispatchTime.now()
        let handOff = PerformHandOff()
        let usage = usage
        let usedItem = request.item.id ?? request.item.type
        let ticket = slot(for: app).executor.perform(request, timeoutMilliseconds: timeout) { [weak self] result in
            guard let id = handOff.complete(with: result), let entry = self?.pending.take(id) else { return }
            Self.answer(entry.reply, with: result, usage: usage, app: appID, item: usedItem)
        }
        // Completed during the hand-over (an in-process plugin that completes inside perform,
        // the common case): answered here, and the call never was pending.
        if let result = handOff.completedEarly() {
            Self.answer(reply, with: result, usage: usage, app: appID, item: usedItem)
            return
        }
        let id = pending.add(reply: reply, caller: caller, app: appID, ticket: ticket,
                             timeoutMilliseconds: timeout, received: received)
        if let result = handOff.register(id), let entry = pending.take(id) {
            // It completed between the hand-over's end and the registration.
            Self.answer(entry.reply, with: result, usage: usage, app: appID, item: usedItem)
        }
    }

    /// Answers a Perform with its plugin's result, the use ranked first on success. A function,
    /// not a closure the completion captures: that was one more allocation per Perform.
    private static func answer(
        _ reply: PerformReplyHandle, with result: ExecutionResult, usage: UsageRanking, app: String, item: String
    ) {
        switch result {
        case .completed(let outcome, let launched):
            // Before the reply, so a caller that lists right after its Perform's answer
            // (`quickactions invoke`, then `pick`) sees the use ranked.
            if outcome.success { usage.record(app: app, item: item) }
            PerformReply.send(reply, success: outcome.success, message: outcome.message, launched: launched)
        case .failed(let error):
            reply.fail(error)
        }
    }

    /// The item a Perform names: exactly the one with `id` when given (its type must be
    /// `type`), else the first current item of `type`.
    private func selectItem(
        in app: AppSnapshot, type: String, id: String?, locale: String
    ) throws(DBusError) -> AppSnapshot.Selected {
        guard let id else {
            guard let item = app.item(ofType: type, locale: locale) else { throw DBusError.unknownItem(type, app: app.id) }
            return item
        }
        guard let selected = app.item(withID: id, locale: locale) else { throw DBusError.unknownItemID(id, app: app.id) }
        let itemType = switch selected {
        case .plugin(let item): item.type
        case .provided(_, let item): item.type
        }
        guard itemType == type else { throw DBusError.itemTypeMismatch(id: id, type: itemType, asked: type, app: app.id) }
        return selected
    }

    /// The app's slot, made on first use; a new one when its library changed
    /// on disk (the old plugin stays mapped: Swift code is never unloaded).
    /// Only for an app with a bundle: a Perform selects a plugin item only there.
    func slot(for app: AppSnapshot) -> PluginSlot {
        guard let bundle = app.bundle else {
            let slot = PluginSlot(appID: app.id, executable: nil)
            slot.setExecutor(FailingExecutor(DBusError(.pluginFailed, "\(app.id) has no plugin")))
            return slot
        }
        let executable = bundle.identity.executable
        return slots.withLock { slots in
            if let slot = slots[app.id], slot.executable == executable { return slot }
            let made = PluginSlot(appID: app.id, executable: executable)
            made.setExecutor(makeExecutor(for: bundle, slot: made))
            if let old = slots.updateValue(made, forKey: app.id) {
                // A rebuilt library: the old host ends (an in-process plugin stays mapped).
                old.executor.stop(bound: .seconds(5)) {}
            }
            return made
        }
    }

    /// Where `bundle`'s plugin runs: in a host process of its own, unless the broker runs
    /// every plugin in process (`--plugin-host in-process`) or the user trusts this one
    /// (`--in-process APP_ID`, or the bundle's `QuickActionsRunsInProcess` when the broker
    /// allows bundles to ask, `--allow-in-process-bundles`).
    func makeExecutor(for bundle: PluginBundle, slot: PluginSlot) -> any PluginExecutor {
        if executionMode(of: bundle) == .inProcess {
            return InProcessExecutor(broker: self, bundle: bundle, slot: slot)
        }
        do {
            return HostProcessExecutor(
                broker: self, launcher: try launcher(), bundle: bundle, slot: slot,
                idleSeconds: configuration.hostIdleSeconds)
        } catch {
            log(.error, "cannot run plugin hosts (\(error)); \(bundle.appID.rawValue) cannot be performed")
            return FailingExecutor(DBusError(.pluginFailed, "\(bundle.appID.rawValue) could not be loaded: cannot run plugin hosts: \(error)"))
        }
    }

    func executionMode(of bundle: PluginBundle) -> PluginHostMode {
        if configuration.pluginHost == .inProcess || configuration.inProcessApps.contains(bundle.appID.rawValue) {
            return .inProcess
        }
        if configuration.allowInProcessBundles && bundle.manifest.runsInProcess { return .inProcess }
        return .process
    }

    /// Where a plugin keeps its own files: `<state dir>/data/<app id>`.
    func dataDirectory(of appID: String) -> URL {
        configuration.stateDirectory.appendingPathComponent("data").appendingPathComponent(appID)
    }

    func callbacks(for appID: String, slot: PluginSlot) -> PluginCallbacks {
        PluginCallbacks(
            setDynamicItems: { [weak self] items throws(DynamicItemsRejection) in
                guard let self else { throw DynamicItemsRejection("the broker is stopping") }
                try setDynamicItems(items, for: appID, slot: slot)
            },
            log: { [weak self] record in
                // Log.Level is the one LogLevel the plugin's record carries.
                self?.log(record.level, record.text)
            },
            runningPluginCode: { [flag = journal.flag(for: appID)] running in
                flag?.set(running)
            },
            dynamicItems: { [weak self] in self?.publishedItems(of: appID) ?? [] })
    }

    /// The app's dynamic items as its plugin set them (and the store keeps them).
    func publishedItems(of appID: String) -> [ShortcutItem] {
        catalog.withLock { $0[appID] }?.publishedItems ?? []
    }
}

/// An executor for an app whose plugin cannot run at all (no host executable): every Perform
/// fails with the reason.
final class FailingExecutor: PluginExecutor {
    private let error: DBusError
    init(_ error: DBusError) { self.error = error }
    var isLoaded: Bool { false }
    var hostProcessID: Int32 { 0 }
    func perform(
        _ request: PerformRequest, timeoutMilliseconds: UInt32, completion: @escaping @Sendable (ExecutionResult) -> Void
    ) -> PerformTicket? {
        completion(.failed(error))
        return nil
    }
    func stop(bound: Duration, done: @escaping @Sendable () -> Void) { done() }
}

extension Broker {
    /// A plugin replaced its dynamic items: check, store atomically, then
    /// show them. One app's updates are serialised so the store and what the
    /// broker lists always agree.
    func setDynamicItems(_ items: [ShortcutItem], for appID: String, slot: PluginSlot) throws(DynamicItemsRejection) {
        let updated: AppSnapshot = try slot.updates.withLock { _ throws(DynamicItemsRejection) -> AppSnapshot in
            guard let app = catalog.withLock({ $0[appID] }) else {
                throw DynamicItemsRejection("\(appID) is no longer installed")
            }
            let updated = try checkedSnapshot(app, publishing: items)
            do {
                guard let bundle = app.bundle else { throw DynamicItemsRejection("\(appID) has no plugin") }
                try store.save(items, for: bundle.appID)
            } catch let rejection as DynamicItemsRejection {
                throw rejection
            } catch {
                guard case StoreError.system = error else { throw DynamicItemsRejection("\(error)") }
                // A state directory that cannot be written (read-only, full): the
                // items are served, and the log says they will not persist.
                log(.warning, "\(appID): \(error); its \(items.count) dynamic item(s) are served but will not persist")
            }
            // What the providers give the app may have changed since it was read: kept.
            return catalog.withLock { catalog in
                let now = (catalog[appID] ?? app).replacing(dynamicItems: items)
                catalog.set(now)
                return now
            }
        }
        log(.info, "\(appID) set \(items.count) dynamic item(s)")
        emitItemsChanged(updated)
    }

    /// The app with `items` as its dynamic items, after checking their ids: two given ids
    /// alike, or a given id that is a static item's, refuse the whole list.
    private func checkedSnapshot(_ app: AppSnapshot, publishing items: [ShortcutItem]) throws(DynamicItemsRejection) -> AppSnapshot {
        let staticIDs = Set(app.bundle?.staticItems.compactMap(\.id) ?? [])
        do {
            _ = try ItemIdentity.assign(items, staticIDs: staticIDs)
        } catch {
            throw DynamicItemsRejection("\(error)")
        }
        return app.replacing(dynamicItems: items)
    }
}
