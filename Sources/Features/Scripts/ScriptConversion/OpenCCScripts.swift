import CLazyLibs
import COpenCC
import DocentCore
import Foundation

/// OpenCC (Debian's libopencc, its phrase and character dictionaries) as the guide's
/// `ReadersScript`: Simplified → Traditional with the Taiwan standard's forms (`s2tw.json`:
/// 头发 → 頭髮, 皇后 stays 皇后), Traditional → Simplified with `t2s.json`. Which characters
/// belong to one script only is read from the same dictionaries (each character converted
/// alone), less the ones OpenCC lists among their own candidates (`OpenCCOwnCandidates`).
public enum OpenCCScripts {
    /// The conversion, or nil when OpenCC or its data cannot be opened (then Chinese is drawn as
    /// written; `problem` says why).
    public static func open() -> (script: ReadersScript?, problem: String?) {
        // OpenCC is opened when the conversion is first wanted, not at every start (issue 48).
        guard docent_lazy_load(DOCENT_LAZY_OPENCC) != 0 else {
            return (nil, "OpenCC cannot be opened (\(String(cString: docent_lazy_error(DOCENT_LAZY_OPENCC)))); Chinese is shown as written")
        }
        guard let s2tw = OpenCCConverter(config: "s2tw.json"), let s2t = OpenCCConverter(config: "s2t.json"),
            let t2s = OpenCCConverter(config: "t2s.json")
        else { return (nil, "OpenCC's dictionaries cannot be opened (\(OpenCCConverter.lastError)); Chinese is shown as written") }
        let simplifiedOnly = changed(by: s2t).subtracting(OpenCCOwnCandidates.simplifiedToTraditional.unicodeScalars.map(\.value))
        let traditionalOnly = changed(by: t2s).subtracting(OpenCCOwnCandidates.traditionalToSimplified.unicodeScalars.map(\.value))
        let script = ReadersScript(
            name: "OpenCC s2tw/t2s", toTraditional: { s2tw.convert($0) }, toSimplified: { t2s.convert($0) },
            simplifiedOnly: simplifiedOnly, traditionalOnly: traditionalOnly)
        return (script, nil)
    }

    /// The blocks looked at: CJK Unified Ideographs and Extension A, the compatibility
    /// ideographs, Extension B.
    static let blocks: [ClosedRange<UInt32>] = [0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2A6DF]

    /// The characters `converter` changes on their own: every character of `blocks`, one a line
    /// (no phrase spans a line), in one call.
    static func changed(by converter: OpenCCConverter) -> Set<UInt32> {
        let scalars = blocks.flatMap { $0.compactMap(Unicode.Scalar.init) }
        var input = String.UnicodeScalarView()
        for s in scalars {
            input.append(s)
            input.append("\n")
        }
        let lines = converter.convert(String(input), cached: false).split(separator: "\n", omittingEmptySubsequences: false)
        var set = Set<UInt32>()
        for (s, line) in zip(scalars, lines) where line.unicodeScalars.count != 1 || line.unicodeScalars.first != s {
            set.insert(s.value)
        }
        return set
    }
}

/// One OpenCC configuration, opened once. Conversions are serialised (OpenCC's converter is not
/// documented as safe across threads) and remembered: a frame converts the same rows again and
/// again.
final class OpenCCConverter: @unchecked Sendable {
    private let handle: opencc_t
    private let lock = NSLock()
    private var cache: [String: String] = [:]
    static let cacheLimit = 4096

    init?(config: String) {
        guard let h = opencc_open(config), Int(bitPattern: h) != -1 else { return nil }
        handle = h
    }

    deinit { opencc_close(handle) }

    /// OpenCC's message about the last failure.
    static var lastError: String { opencc_error().map { String(cString: $0) } ?? "unknown error" }

    func convert(_ text: String, cached: Bool = true) -> String {
        lock.lock()
        defer { lock.unlock() }
        if cached, let hit = cache[text] { return hit }
        // A NUL would end OpenCC's answer early: such text is left as it is.
        if text.utf8.contains(0) { return text }
        var utf8 = Array(text.utf8)
        let count = utf8.count
        utf8.append(0)
        guard let out = utf8.withUnsafeBufferPointer({ p in p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: count + 1) { opencc_convert_utf8(handle, $0, count) } })
        else { return text }
        defer { opencc_convert_utf8_free(out) }
        let result = String(cString: out)
        if cached {
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[text] = result
        }
        return result
    }
}
