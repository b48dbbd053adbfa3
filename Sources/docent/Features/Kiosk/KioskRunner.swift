import DocentApp
import DocentCore
import Foundation

/// Writes kiosk mode's staff code attempts to the guide's log, so IT sees a script trying
/// codes (the code itself is never written).
struct KioskRunner: FeatureRunner {
    typealias Core = KioskFeature
    let context: RunnerContext

    func run(_ effect: KioskEffect, mailbox: Mailbox) {
        let log = context.log
        context.background { Self.write(effect, to: log) }
    }

    static func write(_ effect: KioskEffect, to log: GuideLog) {
        switch effect {
        case .logCode(let accepted, let wrong, let until):
            if accepted {
                log.write("kiosk: staff code accepted; the guide quits")
            } else if let until {
                let stamp = ISO8601DateFormatter.string(from: until, timeZone: TimeZone(secondsFromGMT: 0)!, formatOptions: [.withInternetDateTime])
                log.write("kiosk: wrong staff code (\(wrong) in a row); codes refused until \(stamp)")
            } else {
                log.write("kiosk: wrong staff code (\(wrong) in a row)")
            }
        }
    }
}

extension KioskFeature: RunsInShell {
    typealias Runner = KioskRunner
}
