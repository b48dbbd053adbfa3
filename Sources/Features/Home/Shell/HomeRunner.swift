import DocentApp
import DocentCore
import Foundation

/// Asks the museum's Data Aggregator for exhibitions and events on a thread of its own.
struct HomeRunner: FeatureRunner {
    typealias Core = HomeFeature
    let context: RunnerContext

    func run(_ effect: HomeFeature.Effect, mailbox: Mailbox) {
        switch effect {
        case .fetch(let purpose, let request):
            let fetcher = context.fetcher
            let log = context.log
            context.background {
                let r = fetcher.fetch(request).map(\.body)
                if case .failure(let e) = r { log.write("\(purpose.rawValue): \(e.description)") }
                mailbox.post(.fetched(purpose, r))
            }
        }
    }
}

extension HomeFeature: RunsInShell {
    typealias Runner = HomeRunner
}
