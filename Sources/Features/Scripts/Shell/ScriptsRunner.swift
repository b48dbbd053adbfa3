import DocentApp
import DocentCore
import Foundation
import ScriptConversion

/// Opens the Chinese script conversion (OpenCC's dictionaries, and the characters of one
/// script only read from them: about 0.1 s) off the loop thread, once. When OpenCC cannot be
/// opened the log says why and Chinese is drawn as written.
struct ScriptsRunner: FeatureRunner {
    typealias Core = ScriptsFeature
    let context: RunnerContext

    func run(_ effect: ScriptsFeature.Effect, mailbox: Mailbox) {
        switch effect {
        case .build:
            let log = context.log
            context.background {
                let (script, problem) = OpenCCScripts.open()
                if let problem { log.write("Chinese scripts: \(problem)") }
                mailbox.post(ScriptsFeature.action(.built(script)))
            }
        }
    }
}

extension ScriptsFeature: RunsInShell {
    typealias Runner = ScriptsRunner
}
