import Crypto
import PulseKit
import Foundation

/// The posting gate a museum can switch on (issue 32, `docent-pulse serve --posting`): who may
/// post notes. Reactions, reports and reads stay open (see DECISIONS.md).
public struct PostingCheck: Sendable {
    public enum Mode: Sendable {
        case open
        /// Today's visit code (printed on tickets).
        case visitCode(VisitCode)
        /// A member card number on the museum's list.
        case members(MemberList)
    }

    public let mode: Mode
    public init(_ mode: Mode) { self.mode = mode }
    public static let open = PostingCheck(.open)

    public var gate: PostingGate {
        switch mode {
        case .open: return .open
        case .visitCode: return .visitCode
        case .members: return .members
        }
    }

    /// Nil when `pass` lets a note through at `now`, else why not. A pass of the wrong kind
    /// (a member card where a code is asked) is no pass.
    public func refusal(_ pass: PostingPass?, at now: Date) -> PostingRefusal? {
        switch (mode, pass) {
        case (.open, _): return nil
        case (.visitCode(let v), .visitCode(let typed)?): return v.accepts(typed, at: now) ? nil : .visitCodeWrong
        case (.visitCode, _): return .visitCodeRequired
        case (.members(let list), .memberCard(let card)?): return list.contains(card) ? nil : .memberUnknown
        case (.members, _): return .memberRequired
        }
    }
}

/// A museum's daily visit code: HMAC-SHA256 under the museum's secret of its local date
/// (`docent-visit-code:YYYY-MM-DD`), its first 30 bits written as six characters of
/// `VisitCodeText.alphabet` (no 0/O, 1/I). Anyone with the secret file prints the same code
/// (`docent-pulse visit-code`); without it, a code is one in 2^30 (and wrong tries are limited
/// per address). Yesterday's code is still taken for `grace` after the museum's midnight.
public struct VisitCode: Sendable {
    private let key: SymmetricKey
    public let timeZone: TimeZone
    public let grace: TimeInterval

    public static let standardGrace: TimeInterval = 2 * 3600

    public init(secret: String, timeZone: TimeZone, grace: TimeInterval = VisitCode.standardGrace) {
        key = SymmetricKey(data: Array(secret.utf8))
        self.timeZone = timeZone
        self.grace = grace
    }

    /// The museum's date at `date`, as YYYY-MM-DD.
    public func day(of date: Date) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// The code of a museum date (YYYY-MM-DD).
    public func code(on day: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("docent-visit-code:\(day)".utf8), using: key)
        var bits: UInt64 = 0
        for b in Array(mac).prefix(8) { bits = bits << 8 | UInt64(b) }
        let alphabet = VisitCodeText.alphabet
        return String((0..<VisitCodeText.length).map { i in alphabet[Int((bits >> UInt64(59 - 5 * i)) & 31)] })
    }

    public func code(at date: Date) -> String { code(on: day(of: date)) }

    /// Today's code, or yesterday's within `grace` of midnight, as a visitor may type it.
    public func accepts(_ typed: String, at now: Date) -> Bool {
        let given = Array(VisitCodeText.normalized(typed).utf8)
        var ok = false
        // Both compared, in time that does not depend on where they differ.
        for day in Set([day(of: now), day(of: now.addingTimeInterval(-grace))]) {
            if sameBytes(given, Array(code(on: day).utf8)) { ok = true }
        }
        return ok
    }

    /// A date given as YYYY-MM-DD (a real one), for `docent-pulse visit-code --date`.
    public static func isDay(_ s: String) -> Bool {
        let p = s.split(separator: "-", omittingEmptySubsequences: false)
        guard p.count == 3, p[0].count == 4, p[1].count == 2, p[2].count == 2, let y = Int(p[0]), let m = Int(p[1]), let d = Int(p[2]) else { return false }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC") ?? cal.timeZone
        guard let date = cal.date(from: DateComponents(year: y, month: m, day: d)) else { return false }
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return c.year == y && c.month == m && c.day == d
    }

    /// The secret: the file's first line, trimmed, at least 16 characters.
    public static func readSecret(path: String) -> Result<String, LoadFailure> {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(LoadFailure("cannot read the visit-code secret file \(path)")) }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard line.utf8.count >= 16 else {
            return .failure(LoadFailure("the visit-code secret in \(path) must be at least 16 characters on its first line (as from: openssl rand -hex 32)"))
        }
        return .success(line)
    }
}

private func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var diff = UInt8(a.count == b.count ? 0 : 1)
    for i in 0..<max(a.count, b.count) { diff |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0) }
    return diff == 0
}

/// The member card numbers that may post (`--member-cards-file`: one a line, `#` comments),
/// read again when the file changes (looked at most every `recheck` seconds), so the nightly
/// export from the museum's membership system needs no restart. The service cannot ask the
/// membership service itself (see DECISIONS.md).
public final class MemberList: @unchecked Sendable {
    public let path: String
    private let lock = NSLock()
    private var cards: Set<String>
    private var modified: Date?
    private var lookedAt: Double
    private let recheck: Double
    private let clock: @Sendable () -> Double

    /// Reads the file now; a file that cannot be read is an error (the service does not start).
    public static func load(path: String, recheck: Double = 30, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime })
        -> Result<MemberList, LoadFailure>
    {
        guard let data = FileManager.default.contents(atPath: path) else { return .failure(LoadFailure("cannot read the member cards file \(path)")) }
        let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        return .success(MemberList(path: path, cards: parse(data), modified: modified, recheck: recheck, clock: clock))
    }

    private init(path: String, cards: Set<String>, modified: Date?, recheck: Double, clock: @escaping @Sendable () -> Double) {
        self.path = path
        self.cards = cards
        self.modified = modified
        self.recheck = recheck
        self.clock = clock
        lookedAt = clock()
    }

    static func parse(_ data: Data) -> Set<String> {
        Set(
            String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    public var count: Int { lock.withLock { cards.count } }

    public func contains(_ card: String) -> Bool {
        let card = card.trimmingCharacters(in: .whitespaces)
        lock.lock()
        defer { lock.unlock() }
        let now = clock()
        if now - lookedAt >= recheck {
            lookedAt = now
            // A file gone or unreadable meanwhile: the last list read stays (never "nobody").
            let m = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let m, m != modified, let data = FileManager.default.contents(atPath: path) {
                cards = Self.parse(data)
                modified = m
            }
        }
        return cards.contains(card)
    }
}
