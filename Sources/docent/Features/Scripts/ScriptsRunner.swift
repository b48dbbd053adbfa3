import DocentApp
import DocentCore
import Foundation
import ScriptConversion

/// Builds the Chinese script tables (ICU, about 0.2 s) off the loop thread, once.
struct ScriptsRunner: FeatureRunner {
    typealias Core = ScriptsFeature
    let context: RunnerContext

    func run(_ effect: ScriptsFeature.Effect, mailbox: Mailbox) {
        switch effect {
        case .build:
            context.background { mailbox.post(ScriptsFeature.action(.built(ChineseScripts.scripts))) }
        }
    }
}
