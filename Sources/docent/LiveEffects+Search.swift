import DocentApp
import DocentCore
import Foundation

extension LiveEffects {
    /// Runs search's effects (live API requests) off the loop thread.
    func runSearch(_ effect: SearchEffect, mailbox: Mailbox) {
        switch effect {
        case .none: break
        }
    }
}
