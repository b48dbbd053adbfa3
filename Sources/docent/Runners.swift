import CShims
import DocentApp
import DocentCore
import DocentUI
import Foundation
import NetCurl
import StateStore

/// What a feature's runner may use: the HTTP client, the environment, a way to run blocking
/// work off the loop thread (tracked, so quitting can wait for it).
struct RunnerContext: Sendable {
    let fetcher: CurlFetcher
    let environment: [String: String]
    /// The state database when it can be written (features keep what must survive a restart
    /// there, as Pulse's outbox); nil when it cannot.
    let statePath: String?
    /// The guide's log file: the detail behind what a visitor is told in a plain sentence.
    let log: GuideLog
    /// The lock of the work that holds much memory (`HeavyWork`), shared with the museum's load.
    let heavyWork: HeavyWork
    /// Blocking work off the loop thread; quitting waits for it (bounded).
    let background: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Blocking work whose result is of no use once the guide quits (it computes, it writes
    /// nothing): quitting does not wait for it.
    let discardable: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Work that only prepares (opening a library a later effect needs): run at a low
    /// priority once the guide's first frame with the museum is on screen
    /// (`EffectHandling.warmUp`), at once if it already is; quitting does not wait for it.
    let afterFirstFrame: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Work that takes much memory for a while and only computes (building the search index):
    /// it waits for the museum's load and the prepared copy it writes (`HeavyWork`), so that
    /// the two never hold their working memory at the same time; quitting does not wait for it.
    var heavy: @Sendable (@escaping @Sendable () -> Void) -> Void {
        { [discardable, heavyWork] work in
            discardable {
                heavyWork.lock.lock()
                defer { heavyWork.lock.unlock() }
                work()
                // What the work let go goes back to the system, not kept for this thread.
                cs_release_free_memory()
            }
        }
    }
}

/// Runs one feature's effects in the shell; results go back through the mailbox as that
/// feature's actions.
protocol FeatureRunner: Sendable {
    associatedtype Core: Feature
    init(context: RunnerContext)
    func run(_ effect: Core.Effect, mailbox: Mailbox)
}

/// A feature whose effects need the outside world, with its runner: the conformance lives
/// beside the runner, in the feature's folder, and the runner is found by it (`Runners.all`),
/// so registering a feature stays its one line in `Registry.entries`.
protocol RunsInShell: Feature {
    associatedtype Runner: FeatureRunner where Runner.Core == Self
}

/// A runner, type-erased, by feature.
struct AnyRunner: Sendable {
    let feature: FeatureID
    let run: @Sendable (FeatureValue, Mailbox) -> Bool

    init<R: FeatureRunner>(_ type: R.Type, context: RunnerContext) {
        let runner = R(context: context)
        feature = R.Core.id
        run = { value, mailbox in
            guard let e = value.as(R.Core.Effect.self) else { return false }
            runner.run(e, mailbox: mailbox)
            return true
        }
    }
}

/// The runners of the registered features whose effects need the outside world (found by
/// their `RunsInShell` conformance), and the storages of those that keep something in the
/// state database (their `SavesInDatabase` conformance). No list names a feature.
enum Runners {
    /// The state database's storages: `FeatureSet.storages`, of the guide's registry.
    static func storages(_ features: FeatureSet = Registry.features) -> [any FeatureStorage] { features.storages }
    static func all(_ context: RunnerContext, features: FeatureSet = Registry.features) -> [AnyRunner] {
        features.all.compactMap { f in (f.type as? any RunsInShell.Type).map { runner($0, context) } }
    }

    private static func runner<F: RunsInShell>(_: F.Type, _ context: RunnerContext) -> AnyRunner {
        AnyRunner(F.Runner.self, context: context)
    }
}
