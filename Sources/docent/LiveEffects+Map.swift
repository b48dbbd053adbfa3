import DocentApp
import DocentCore
import Foundation

extension LiveEffects {
    /// Runs the map's effects (rasterising floor plans) off the loop thread.
    func runMap(_ effect: MapEffect, mailbox: Mailbox) {
        switch effect {
        case .none: break
        }
    }
}
