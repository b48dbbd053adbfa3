import AudioPlayback
import DocentApp
import DocentCore
import Foundation

/// Counts, fetches and removes a tour's kept recordings (`KeptRecordings`, the player's own
/// offline copies) on a thread of its own.
struct OfflineRunner: FeatureRunner {
    typealias Core = OfflineFeature
    let context: RunnerContext
    /// The switch of each save in progress, by tour: `.cancel` stops it in the middle of a
    /// recording (issue 45 #6).
    let running = RunningSaves()

    init(context: RunnerContext) { self.context = context }

    func run(_ effect: OfflineFeature.Effect, mailbox: Mailbox) {
        let kept = KeptRecordings(directory: KeptRecordings.defaultDirectory(environment: context.environment))
        let fetcher = context.fetcher
        let log = context.log
        let running = running
        // On the loop's thread, so a cancel sent right after a save finds its switch.
        let cancellation: FetchCancellation?
        switch effect {
        case .cancel(let ids):
            running.cancel(ids)
            return
        case .save(let id, _, _):
            cancellation = running.start(id)
        case .count, .remove:
            cancellation = nil
        }
        context.background {
            switch effect {
            case .count(let id, let lang, let urls):
                let t = kept.tally(urls)
                mailbox.post(.offline(.counted(tourID: id, lang, .init(total: urls.count, kept: t.kept, bytes: t.bytes))))
            case .save(let id, let lang, let urls):
                let t = kept.tally(urls)
                mailbox.post(.offline(.counted(tourID: id, lang, .init(total: urls.count, kept: t.kept, bytes: t.bytes))))
                defer { if let cancellation { running.end(id, cancellation) } }
                let failure = kept.save(urls, fetcher: fetcher, progress: { t in
                    mailbox.post(.offline(.counted(tourID: id, lang, .init(total: urls.count, kept: t.kept, bytes: t.bytes))))
                }, cancellation: cancellation)
                if let failure { log.write("save tour \(id) for offline: \(failure.description)") }
                mailbox.post(.offline(.saveEnded(tourID: id, lang, failure.map(\.problem))))
            case .cancel:
                break  // taken above, on the loop's thread
            case .remove(let id, let lang, let urls):
                kept.remove(urls)
                let t = kept.tally(urls)
                mailbox.post(.offline(.counted(tourID: id, lang, .init(total: urls.count, kept: t.kept, bytes: t.bytes))))
            }
        }
    }
}

extension OfflineFeature: RunsInShell {
    typealias Runner = OfflineRunner
}

/// The cancel switches of the saves in progress, by tour (a save started again while the
/// last one is still stopping has a switch of its own).
final class RunningSaves: @unchecked Sendable {
    private let lock = NSLock()
    private var switches: [Int: FetchCancellation] = [:]

    func start(_ tour: Int) -> FetchCancellation {
        let c = FetchCancellation()
        lock.lock()
        switches[tour] = c
        lock.unlock()
        return c
    }

    func end(_ tour: Int, _ c: FetchCancellation) {
        lock.lock()
        if switches[tour] === c { switches[tour] = nil }
        lock.unlock()
    }

    func cancel(_ tours: [Int]) {
        lock.lock()
        let found = tours.compactMap { switches[$0] }
        lock.unlock()
        for c in found { c.cancel() }
    }
}
