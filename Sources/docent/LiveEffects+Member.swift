import DocentApp
import DocentCore
import Foundation

extension LiveEffects {
    /// Asks the membership service about a card on its own thread (curl blocks); the answer
    /// goes back with its token so a late answer to an abandoned sign-in is ignored.
    func runMember(_ effect: MemberEffect, mailbox: Mailbox) {
        switch effect {
        case .validate(let token, let request):
            background { [fetcher] in
                mailbox.post(.member(.answered(token: token, MemberCardAPI.answer(fetcher.fetch(request)))))
            }
        }
    }
}
