import Foundation
import Logging

/// What reaches the service's log from outside (a typed name, a path, a header, a database's
/// error text) is escaped and bounded (issue 44 #3): a control character, a line break or a
/// backslash becomes a visible escape (`\n`, `\u{1b}`, `\\`), so a value can never start a line
/// of its own, and a value longer than `max` characters is cut with the count of what was left
/// out, so one request cannot write kilobytes.
public enum LogText {
    public static func safe(_ s: String, max: Int = 200) -> String {
        var out = ""
        var shown = 0
        var total = 0
        for scalar in s.unicodeScalars {
            total += 1
            guard shown < max else { continue }
            shown += 1
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // C0, DEL, C1 and the Unicode line and paragraph separators.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        if total > shown { out += "…(+\(total - shown))" }
        return out
    }

    static func safe(_ value: Logger.MetadataValue, max: Int) -> Logger.MetadataValue {
        switch value {
        case .string(let s): return .string(safe(s, max: max))
        case .stringConvertible(let c): return .string(safe(c.description, max: max))
        case .array(let a): return .array(a.prefix(20).map { safe($0, max: max) })
        case .dictionary(let d): return .dictionary(Dictionary(d.prefix(20).map { (safe($0.key, max: 40), safe($0.value, max: max)) }) { a, _ in a })
        }
    }
}

/// A log handler that escapes and bounds every message and metadata value given to it before
/// the handler it wraps writes them (`docent-pulse serve` wraps its standard-error handler):
/// whatever a log call forgets to clean is cleaned here.
public struct SafeLogHandler: LogHandler {
    public var inner: any LogHandler
    /// The longest message, and the longest metadata value, written.
    public var maxMessage = 1000
    public var maxValue = 200

    public init(_ inner: any LogHandler) { self.inner = inner }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var e = event
        e.message = Logger.Message(stringLiteral: LogText.safe(event.message.description, max: maxMessage))
        var cleaned = event.metadata.map { m in Dictionary(m.map { (LogText.safe($0.key, max: 40), LogText.safe($0.value, max: maxValue)) }) { a, _ in a } }
        if let error = event.error {
            // An error's text may carry what a client sent: a value like the others.
            cleaned = (cleaned ?? [:]).merging(["error": .string(LogText.safe(String(describing: error), max: maxValue))]) { a, _ in a }
            e.error = nil
        }
        e.metadata = cleaned
        inner.log(event: e)
    }
}

/// A warning that a client can cause (a wrong token) logged at most `perMinute` times a
/// minute; the rest are counted, and the count is said in the next line logged after the minute
/// (issue 44 #4: a thousand wrong tokens wrote a thousand warnings).
public final class WarningThrottle: @unchecked Sendable {
    private let lock = NSLock()
    private let perMinute: Int
    private var windowStart: Double = -.infinity
    private var logged = 0
    private var suppressed = 0
    private let clock: @Sendable () -> Double

    public init(perMinute: Int, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.perMinute = perMinute
        self.clock = clock
    }

    public func log(_ logger: Logger, _ message: Logger.Message, _ metadata: Logger.Metadata) {
        let now = clock()
        lock.lock()
        if now - windowStart >= 60 {
            windowStart = now
            logged = 0
        }
        guard logged < perMinute else {
            suppressed += 1
            lock.unlock()
            return
        }
        logged += 1
        let before = suppressed
        suppressed = 0
        lock.unlock()
        var m = metadata
        if before > 0 { m["not_logged_before"] = .stringConvertible(before) }
        logger.warning(message, metadata: m)
    }
}
