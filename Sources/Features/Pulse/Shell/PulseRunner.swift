import DocentApp
import DocentCore
import Foundation
import NetCurl
import StateStore

/// Holds the Pulse store once opened and runs the feature's effects on threads of their own
/// (a store call may wait on another process's lock; over HTTP, on the network).
struct PulseRunner: FeatureRunner {
    typealias Core = PulseFeature
    let context: RunnerContext
    private let holder = StoreHolder()

    init(context: RunnerContext) { self.context = context }

    func run(_ effect: PulseEffect, mailbox: Mailbox) {
        let holder = self.holder
        let env = context.environment
        let statePath = context.statePath
        context.background {
            if case .open(let location, let identity, let seed) = effect {
                let opened = Self.open(location, identity: identity, seed: seed, environment: env, statePath: statePath, holder: holder)
                mailbox.post(.pulse(.opened(opened)))
                return
            }
            guard let store = holder.store else { return }
            let answer: PulseAction? = Self.wait {
                switch effect {
                case .open: return nil
                case .check(let viewer, let dayStart, let since):
                    return .checked(await Self.result { () async throws(PulseStoreError) in try await store.snapshot(viewer: viewer, dayStart: dayStart, since: since) })
                case .react(let value, let subject, let creds):
                    return .reacted(subject, await Self.result { () async throws(PulseStoreError) in try await store.react(value, on: subject, as: creds) })
                case .post(let draft, let creds):
                    return .posted(await Self.result { () async throws(PulseStoreError) in try await store.post(draft, as: creds) })
                case .loadNotes(let subject, let viewer):
                    return .notesLoaded(subject, await Self.result { () async throws(PulseStoreError) in try await store.notes(on: subject, viewer: viewer) })
                case .report(let note, let on, let creds):
                    return .reported(note, await Self.result { () async throws(PulseStoreError) in try await store.report(note, on, as: creds); return on })
                case .deleteNote(let note, let creds):
                    return .deleted(note, await Self.result { () async throws(PulseStoreError) in try await store.deleteOwnNote(note, as: creds); return true })
                case .recordPlay(let subject):
                    try? await store.recordPlay(subject)
                    return nil
                }
            }
            if let answer { mailbox.post(.pulse(answer)) }
        }
    }

    static func open(
        _ location: PulseLocation, identity: VisitorCredentials?, seed: String?, environment: [String: String], statePath: String?, holder: StoreHolder
    ) -> Result<VisitorCredentials, PulseStoreError> {
        let path: String
        var named = false
        switch location {
        case .defaultFile: path = SQLitePulseStore.defaultPath(environment: environment)
        case .sqlite(let p):
            path = p
            named = true
        case .service(let url):
            // The service keeps its own upkeep and seed; the guide only registers its identity.
            let store = OutboxPulseStore(store: HTTPPulseStore(baseURL: url), outbox: outbox(statePath: statePath, environment: environment), clock: { Date() })
            holder.store = store
            return wait { await register(identity, in: store) }
        }
        let store: SQLitePulseStore
        switch SQLitePulseStore.open(path: path, createDirectory: !named, clock: { Date() }) {
        case .success(let s): store = s
        case .failure(let f): return .failure(.unavailable(f.message))
        }
        holder.store = store
        return wait {
            // Upkeep first: notes past retention go (highlights stay).
            _ = try? store.purge()
            if let seed, let data = FileManager.default.contents(atPath: seed), case .success(let s) = PulseSeed.read([UInt8](data)) {
                _ = try? await store.seedIfEmpty(s)
            }
            return await register(identity, in: store)
        }
    }

    /// Where writes wait until the service has them: the state database's outbox; when that
    /// database cannot keep them, a file of its own (`SQLitePulseOutbox.fallbackPath`); when
    /// neither can be written, memory, which says so (a note is then not called saved). Writes
    /// a broken state database left in the file go over to the state database once it works.
    static func outbox(statePath: String?, environment: [String: String]) -> any PulseOutbox {
        let fallback = SQLitePulseOutbox.fallbackPath(environment: environment)
        if let statePath, case .success(let main) = SQLitePulseOutbox.open(path: statePath) {
            if FileManager.default.fileExists(atPath: fallback), case .success(let left) = SQLitePulseOutbox.openFile(path: fallback) {
                main.takeOver(left)
            }
            return main
        }
        if case .success(let file) = SQLitePulseOutbox.openFile(path: fallback) { return file }
        return MemoryPulseOutbox(keepsWritesOnDisk: false)
    }

    /// Registers the kept identity, or a new one made from random bytes.
    static func register(_ identity: VisitorCredentials?, in store: some PulseStore) async -> Result<VisitorCredentials, PulseStoreError> {
        var creds = identity
        if creds == nil {
            var rng = SystemRandomNumberGenerator()
            creds = VisitorCredentials.make(random: (0..<26).map { _ in UInt8.random(in: 0...255, using: &rng) })
        }
        guard let creds else { return .failure(.badCredentials) }
        return await result { () async throws(PulseStoreError) in
            try await store.register(creds)
            return creds
        }
    }

    static func result<T>(_ body: () async throws(PulseStoreError) -> T) async -> Result<T, PulseStoreError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Runs async store work to its end on this (background) thread.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await work()
            done.signal()
        }
        done.wait()
        guard let v = box.value else { fatalError("unreachable: the task always sets its value") }
        return v
    }

    final class Box<T>: @unchecked Sendable { var value: T? }
}

/// The store, once opened (shared by the runner's threads).
final class StoreHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var _store: (any PulseStore)?
    var store: (any PulseStore)? {
        get { lock.withLock { _store } }
        set { lock.withLock { _store = newValue } }
    }
}

extension PulseFeature: RunsInShell {
    typealias Runner = PulseRunner
}
