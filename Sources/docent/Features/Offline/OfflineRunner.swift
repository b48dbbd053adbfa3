import AudioPlayback
import DocentApp
import DocentCore
import Foundation

/// Counts, fetches and removes a tour's kept recordings (`KeptRecordings`, the player's own
/// offline copies) on a thread of its own.
struct OfflineRunner: FeatureRunner {
    typealias Core = OfflineFeature
    let context: RunnerContext

    func run(_ effect: OfflineFeature.Effect, mailbox: Mailbox) {
        let kept = KeptRecordings(directory: KeptRecordings.defaultDirectory(environment: context.environment))
        let fetcher = context.fetcher
        let log = context.log
        context.background {
            switch effect {
            case .count(let id, let lang, let urls):
                let t = kept.tally(urls)
                mailbox.post(.offline(.counted(tourID: id, lang, .init(total: urls.count, kept: t.kept, bytes: t.bytes))))
            case .save(let id, let lang, let urls):
                let t = kept.tally(urls)
                mailbox.post(.offline(.counted(tourID: id, lang, .init(total: urls.count, kept: t.kept, bytes: t.bytes))))
                let failure = kept.save(urls, fetcher: fetcher) { t in
                    mailbox.post(.offline(.counted(tourID: id, lang, .init(total: urls.count, kept: t.kept, bytes: t.bytes))))
                }
                if let failure { log.write("save tour \(id) for offline: \(failure.description)") }
                mailbox.post(.offline(.saveEnded(tourID: id, lang, failure.map(\.problem))))
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
