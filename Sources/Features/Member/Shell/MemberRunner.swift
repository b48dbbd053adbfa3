import DocentApp
import DocentCore
import Foundation

/// Asks the membership service about a card on its own thread (curl blocks); the answer
/// goes back with its token so a late answer to an abandoned sign-in is ignored.
struct MemberRunner: FeatureRunner {
    typealias Core = MemberFeature
    let context: RunnerContext

    func run(_ effect: MemberEffect, mailbox: Mailbox) {
        switch effect {
        case .validate(let token, let request):
            let fetcher = context.fetcher
            context.background {
                mailbox.post(.member(.answered(token: token, MemberCardAPI.answer(fetcher.fetch(request)))))
            }
        }
    }
}

extension MemberFeature: RunsInShell {
    typealias Runner = MemberRunner
}
