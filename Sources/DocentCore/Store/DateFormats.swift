import Foundation

/// Date formatters, made once per language, zone and style (making one costs about 0.5 ms;
/// a list of events made one per row per frame). Formatting with one is thread-safe; the
/// cache itself is locked.
public final class DateFormats: @unchecked Sendable {
    public static let shared = DateFormats()

    private struct Key: Hashable {
        let language: String
        let zone: String
        let date: UInt
        let time: UInt
    }

    private let lock = NSLock()
    private var cache: [Key: DateFormatter] = [:]
    /// Formatters made so far (tests check that a second frame makes none).
    public private(set) var made = 0

    public func formatter(language: Language, timeZone: TimeZone, date: DateFormatter.Style, time: DateFormatter.Style) -> DateFormatter {
        let key = Key(language: language.code, zone: timeZone.identifier, date: date.rawValue, time: time.rawValue)
        lock.lock()
        defer { lock.unlock() }
        if let f = cache[key] { return f }
        let f = DateFormatter()
        let ids = ["en": "en_US", "es": "es_ES", "fr": "fr_FR", "ko": "ko_KR", "zh": "zh_Hans_CN", "zh-hant": "zh_Hant_TW"]
        f.locale = Locale(identifier: ids[language.code] ?? "en_US")
        f.timeZone = timeZone
        f.dateStyle = date
        f.timeStyle = time
        cache[key] = f
        made += 1
        return f
    }
}
