import DocentApp
import DocentCore
import Foundation

extension LiveEffects {
    /// Runs search's effects: each live request on its own thread (curl is blocking). The
    /// answer goes back with its token; the reducer ignores answers to an older query, so a
    /// slow request for "har" can never overwrite the results for "harbour".
    func runSearch(_ effect: SearchEffect, mailbox: Mailbox) {
        switch effect {
        case .autocomplete(let token, let request):
            background { [fetcher] in
                let r = fetcher.fetch(request).map(\.body).mapError { LoadFailure($0.description) }
                mailbox.post(.search(.autocompleteLoaded(token: token, r)))
            }
        case .multisearch(let token, let request):
            background { [fetcher] in
                let r = fetcher.fetch(request).map(\.body).mapError { LoadFailure($0.description) }
                mailbox.post(.search(.multisearchLoaded(token: token, r)))
            }
        }
    }
}
