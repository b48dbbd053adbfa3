/// Bytes owned elsewhere and kept alive as long as anything points into them: a prepared copy
/// of a museum, mapped by the adapter, which `release` unmaps once nothing reads from it.
public final class SharedBytes: @unchecked Sendable {
    public let bytes: UnsafeRawBufferPointer
    private let release: (@Sendable () -> Void)?
    /// Told when a reader is done with a range for now (the adapter may let those pages go from
    /// memory: a mapped file reads them again if they are asked for).
    let passed: (@Sendable (Range<Int>) -> Void)?

    /// The bytes stay valid and unchanged until `release` is called (from `deinit`).
    public init(_ bytes: UnsafeRawBufferPointer, release: (@Sendable () -> Void)?, passed: (@Sendable (Range<Int>) -> Void)? = nil) {
        self.bytes = bytes
        self.release = release
        self.passed = passed
    }

    /// A copy of `array`, owned by this object.
    public convenience init(copying array: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(array.count, 1), alignment: 8)
        copy.copyBytes(from: array)
        let address = UInt(bitPattern: copy.baseAddress)
        self.init(UnsafeRawBufferPointer(rebasing: copy[0..<array.count]), release: { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() })
    }

    deinit { release?() }
}

/// A text that may still be bytes (in a prepared copy, or in the appData as parsed): turned
/// into a `String` only when read.
/// Transcripts are most of a large museum's bytes and only the player reads them, one at a
/// time, so a museum opened from its copy leaves them where they are.
struct DeferredText: Hashable, @unchecked Sendable {
    private enum Storage {
        case text(String)
        /// Cleaned text in a prepared copy.
        case bytes(SharedBytes, start: Int, count: Int)
        /// A JSON string still in the appData's bytes, cleaned when read.
        case json(JSONRawString, TextCleaner.Options)
    }

    private let storage: Storage

    init(_ text: String) { storage = .text(text) }

    init(_ owner: SharedBytes, start: Int, count: Int) { storage = .bytes(owner, start: start, count: count) }

    init(_ raw: JSONRawString, cleaning options: TextCleaner.Options) { storage = .json(raw, options) }

    var string: String {
        switch storage {
        case .text(let s): return s
        case .bytes(let owner, let start, let count):
            // Invalid UTF-8 (a damaged copy) is repaired, never trusted.
            return String(decoding: UnsafeRawBufferPointer(rebasing: owner.bytes[start..<start + count]), as: UTF8.self)
        case .json(let raw, let options):
            return TextCleaner.clean(raw.string, options)
        }
    }

    /// Calls `body` with the UTF-8 bytes of `string`: the bytes where they lie when they are
    /// already what `string` would be (valid UTF-8 that needs no unescaping nor cleaning, as
    /// most transcripts are), else those of `string`. For readers of every transcript (search's
    /// words), which need no `String` of each.
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch storage {
        case .text(let s):
            var t = s
            return t.withUTF8(body)
        case .bytes(let owner, let start, let count):
            let slice = UnsafeBufferPointer(rebasing: owner.bytes.assumingMemoryBound(to: UInt8.self)[start..<start + count])
            if TextCleaner.isValidUTF8(slice) { return body(slice) }
        case .json(let raw, let options):
            if !raw.escaped {
                let start = raw.start
                let count = raw.count
                let direct: R? = raw.owner.withBuffer { buf in
                    let slice = UnsafeBufferPointer(rebasing: buf[start..<start + count])
                    guard TextCleaner.isClean(slice, options), TextCleaner.isValidUTF8(slice) else { return nil }
                    return body(slice)
                }
                if let direct { return direct }
            }
        }
        var t = string
        return t.withUTF8(body)
    }

    /// Lets the pages of the document this text is read from go from memory (a mapped
    /// appData, or a mapped prepared copy: a reader of every transcript, such as search's
    /// words, calls it every megabyte); nothing for a text in memory. The pages stay in the
    /// page cache, and a mapped file reads them again if they are asked for.
    func letSourceGo() {
        switch storage {
        case .json(let raw, _): raw.owner.letGo()
        case .bytes(let owner, _, _): owner.passed?(0..<owner.bytes.count)
        case .text: break
        }
    }

    static func == (a: DeferredText, b: DeferredText) -> Bool { a.string == b.string }
    func hash(into h: inout Hasher) { h.combine(string) }
}
