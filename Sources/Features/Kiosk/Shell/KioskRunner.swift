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
        // The lock's end on the wall clock, read when the code was given (the log is written
        // off the loop thread).
        let now = Date()
        context.background { Self.write(effect, at: now, to: log) }
    }

    static func write(_ effect: KioskEffect, at now: Date, to log: GuideLog) {
        switch effect {
        case .logRefused(let wrong):
            log.write("kiosk: staff code not looked at (\(wrong) wrong in a row; codes are refused for now)")
        case .logCode(let accepted, let wrong, let seconds):
            if accepted {
                log.write("kiosk: staff code accepted; the guide quits")
            } else if let seconds {
                let until = now.addingTimeInterval(seconds)
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
