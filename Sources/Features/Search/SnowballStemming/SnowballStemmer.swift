import CStemmer
import DocentCore
import Foundation

/// Snowball's stemmers (libstemmer, the reference C library) behind search's `WordStemming`:
/// one `sb_stemmer` per language, made on first use. A stemmer is not safe to share between
/// threads (it keeps its last result), and the index is built on the runner's thread while the
/// loop stems queries, so every call holds the lock; a call takes about a microsecond.
public final class SnowballStemmer: WordStemming, @unchecked Sendable {
    /// The one the guide uses (the C stemmers live as long as the program).
    public static let shared = SnowballStemmer()

    private let lock = NSLock()
    private var stemmers: [String: OpaquePointer?] = [:]

    public init() {}

    deinit {
        for case let s? in stemmers.values { sb_stemmer_delete(s) }
    }

    /// Snowball's name for a language the guide may meet; nil for the languages search does not
    /// stem (Chinese has no inflection to take off; Korean is matched by syllable prefixes).
    static func algorithm(_ language: Language) -> String? {
        switch language.content.code {
        case "zh", "ko", "ja": return nil
        case let code: return code.isEmpty ? nil : code
        }
    }

    /// The stemmer of `language`, made on first use (the lock is held).
    private func stemmer(_ language: Language) -> OpaquePointer? {
        guard let name = Self.algorithm(language) else { return nil }
        if let s = stemmers[name] { return s }
        // libstemmer knows languages by ISO 639 code or English name; an unknown one is nil.
        let s = sb_stemmer_new(name, "UTF_8")
        stemmers[name] = s
        return s
    }

    public func stems(_ language: Language) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return stemmer(language) != nil
    }

    public func stem(_ word: ArraySlice<UInt8>, _ language: Language) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard let s = stemmer(language), !word.isEmpty else { return nil }
        return word.withUnsafeBufferPointer { w -> [UInt8]? in
            guard let out = sb_stemmer_stem(s, w.baseAddress, Int32(w.count)) else { return nil }
            let n = Int(sb_stemmer_length(s))
            return Array(UnsafeBufferPointer(start: out, count: n))
        }
    }
}
