import DocentCoreTestSupport
import XCTest

@testable import DocentCore

/// The prepared copy of a museum (issue 14): what a second start opens instead of the appData.
final class PreparedMuseumTests: XCTestCase {
    private func documents() throws -> [(String, AppData)] {
        let sample = Fixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        var out: [(String, AppData)] = [("SampleData", try AppDataReader.read(try Fixtures.bytes(sample), source: sample.path).get())]
        for name in ["appData-v1.json", "appData-v2.json"] {
            out.append((name, try AppDataReader.read(try Fixtures.aicBytes(name), source: Fixtures.aic.appendingPathComponent(name).path).get()))
        }
        out.append(("cjk", try Fixtures.app(Self.cjk)))
        return out
    }

    /// Korean and Chinese transcripts long enough to be left in the copy, escaped in the JSON.
    static let cjk = """
        {"objects": {"7": {"nid": "7", "title": "\\uD654\\uC870\\uB3C4", "gallery_location": "Gallery 1",
           "audio_commentary": [{"audio": "9", "object_selector_number": "42"}]}},
         "galleries": {"3": {"nid": "3", "title": "Gallery 1", "floor": "1", "location": "41.879,-87.623"}},
         "audio_files": {"9": {"nid": "9", "title": "화조도", "audio_file_url": "a/9.mp3",
           "audio_transcript": "\(String(repeating: "꽃과 새를 그린 그림입니다. ", count: 30))",
           "translations": [{"language": "zh-hans", "audio_file_url": "a/9-zh.mp3",
             "audio_transcript": "\(String(repeating: "这是一幅花鸟画。", count: 40))"}]}},
         "tours": {}}
        """

    func testEveryDocumentComesBackAsItWasRead() throws {
        for (name, app) in try documents() {
            let copy = PreparedMuseum.encode(app, identity: "test")
            let back = try XCTUnwrap(PreparedMuseum.decode(copy, identity: "test"), name)
            XCTAssertEqual(back, app, name)
            // Beyond ==: the parts tests elsewhere read, and every transcript in full.
            XCTAssertEqual(back.diagnostics, app.diagnostics, name)
            XCTAssertEqual(back.keypad, app.keypad, name)
            XCTAssertEqual(back.tours.map(\.id), app.tours.map(\.id), name)
            for (id, audio) in app.audioFiles {
                let other = try XCTUnwrap(back.audioFiles[id])
                XCTAssertEqual(other.english.transcript, audio.english.transcript, "\(name) audio \(id)")
                for (language, v) in audio.translations { XCTAssertEqual(other.translations[language]?.transcript, v.transcript) }
            }
        }
    }

    func testTheSameMuseumGivesTheSameBytes() throws {
        for (name, app) in try documents() {
            XCTAssertEqual(PreparedMuseum.encode(app, identity: "x"), PreparedMuseum.encode(app, identity: "x"), name)
        }
    }

    func testLongTranscriptsStayInTheCopyUntilReadAndKeepItAlive() throws {
        let app = try Fixtures.app(Self.cjk)
        let copy = PreparedMuseum.encode(app, identity: "id")
        let released = LockedCounter()
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: copy.count, alignment: 8)
        storage.copyBytes(from: copy)
        let address = UInt(bitPattern: storage.baseAddress)
        var back: AppData? = PreparedMuseum.decode(
            SharedBytes(UnsafeRawBufferPointer(storage)) {
                released.add()
                UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
            }, identity: "id")
        let audio = try XCTUnwrap(back?.audioFiles[9])
        XCTAssertEqual(released.value, 0, "the museum keeps the copy's bytes while it lives")
        XCTAssertTrue(audio.english.transcript.hasPrefix("꽃과 새를 그린 그림입니다."))
        XCTAssertEqual(audio.translations[.chinese]?.transcript, app.audioFiles[9]?.translations[.chinese]?.transcript)
        back = nil
        XCTAssertEqual(released.value, 0, "a version still held keeps the bytes")
        _ = audio
        withExtendedLifetime(audio) {}
    }

    /// Search reads every transcript's bytes where they lie when they need no work: whatever
    /// the storage (the appData's JSON, plain, escaped or with entities; a prepared copy; a
    /// text), they are the bytes of `transcript`.
    func testTranscriptBytesAreTheTranscriptsBytes() throws {
        let odd = """
            {"objects": {"7": {"nid": "7", "title": "Work", "gallery_location": "Gallery 1",
               "audio_commentary": [{"audio": "1", "object_selector_number": "42"}]}},
             "galleries": {"3": {"nid": "3", "title": "Gallery 1", "floor": "1", "location": "41.879,-87.623"}},
             "tours": {}, "audio_files": {
              "1": {"nid": "1", "title": "a", "audio_file_url": "a/1.mp3", "audio_transcript": "Plain words, café and 港口",
                "translations": [
                  {"language": "es", "audio_file_url": "a/1-es.mp3", "audio_transcript": "Con \\"comillas\\" y\\r\\nlíneas"},
                  {"language": "fr", "audio_file_url": "a/1-fr.mp3", "audio_transcript": "Rock &amp; roll&nbsp;caf&eacute;"},
                  {"language": "de", "audio_file_url": "a/1-de.mp3", "audio_transcript": "  spaces  around  "},
                  {"language": "it", "audio_file_url": "a/1-it.mp3", "audio_transcript": "tab\\there \\u001b[31m"}]}}}
            """
        let app = try Fixtures.app(odd)
        var checked = 0
        for (name, a) in try documents() + [("odd", app)] {
            let back = try XCTUnwrap(PreparedMuseum.decode(PreparedMuseum.encode(a, identity: "t"), identity: "t"), name)
            for museum in [a, back] {
                for audio in museum.audioFiles.values {
                    for v in [audio.english] + Array(audio.translations.values) {
                        XCTAssertEqual(v.withTranscriptUTF8 { Array($0) }, Array(v.transcript.utf8), "\(name) \(audio.id) \(v.language)")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 20)
        let text = AudioVersion(language: .english, url: "", transcript: "Held as text", trackTitle: "")
        XCTAssertEqual(text.withTranscriptUTF8 { Array($0) }, Array("Held as text".utf8))
    }

    /// The UTF-8 check that lets bytes through unread agrees with the standard library's.
    func testValidUTF8AsTheStandardLibraryHasIt() {
        var samples: [[UInt8]] = [
            [], Array("café 港口 😀".utf8), [0xC0, 0x80], [0xC2], [0xE0, 0x9F, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xF0, 0x9F, 0x98], [0x80], [0xFF], Array("abcdefgh".utf8) + [0xE2, 0x82, 0xAC], Array("abcdefghijklmnop".utf8) + [0xE2, 0x82],
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        let lead: [UInt8] = [0x41, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x90, 0x8F]
        for _ in 0..<3000 { samples.append((0..<Int(next() % 12)).map { _ in next() % 3 == 0 ? next() : lead[Int(next()) % lead.count] }) }
        for b in samples {
            let ours = b.withUnsafeBufferPointer { TextCleaner.isValidUTF8($0) }
            XCTAssertEqual(ours, String(validating: b, as: UTF8.self) != nil, "\(b)")
        }
    }

    func testTheBytesAreLetGoWithTheLastText() throws {
        let released = LockedCounter()
        do {
            let copy = PreparedMuseum.encode(try Fixtures.app(Self.cjk), identity: "id")
            let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: copy.count, alignment: 8)
            storage.copyBytes(from: copy)
            let address = UInt(bitPattern: storage.baseAddress)
            let back = PreparedMuseum.decode(
                SharedBytes(UnsafeRawBufferPointer(storage)) {
                    released.add()
                    UnsafeMutableRawPointer(bitPattern: address)?.deallocate()
                }, identity: "id")
            XCTAssertNotNil(back)
        }
        XCTAssertEqual(released.value, 1)
    }

    func testAnotherIdentityOrVersionIsAMiss() throws {
        let app = try Fixtures.app(Self.cjk)
        var copy = PreparedMuseum.encode(app, identity: "dev=1 ino=2 size=3")
        XCTAssertEqual(copy.withUnsafeBytes { PreparedMuseum.identity(of: $0) }, "dev=1 ino=2 size=3")
        XCTAssertNil(PreparedMuseum.decode(copy, identity: "dev=1 ino=2 size=4"))
        XCTAssertNotNil(PreparedMuseum.decode(copy, identity: "dev=1 ino=2 size=3"))
        copy[PreparedMuseum.magic.count] &+= 1  // the version
        XCTAssertNil(PreparedMuseum.decode(copy, identity: "dev=1 ino=2 size=3"))
        XCTAssertNil(PreparedMuseum.decode(Array("{\"objects\": {}}".utf8), identity: "dev=1 ino=2 size=3"), "an appData is not a copy")
        XCTAssertNil(PreparedMuseum.decode([], identity: ""))
    }

    func testAShortOrPaddedCopyIsAMissNeverACrash() throws {
        let sample = Fixtures.repoRoot.appendingPathComponent("SampleData/appData.json")
        let app = try AppDataReader.read(try Fixtures.bytes(sample), source: sample.path).get()
        let copy = PreparedMuseum.encode(app, identity: "id")
        XCTAssertNil(PreparedMuseum.decode(copy + [0], identity: "id"), "bytes left over")
        // Every length short of the whole, in steps that land inside every section.
        var checked = 0
        for n in stride(from: 0, to: copy.count, by: max(1, copy.count / 997)) {
            XCTAssertNil(PreparedMuseum.decode(Array(copy[0..<n]), identity: "id"), "cut at \(n)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 900)
        // Damaged bytes anywhere: read as a miss or as some museum, never a crash or a hang.
        var rng = SplitMix(seed: 14)
        var misses = 0
        for _ in 0..<300 {
            var bad = copy
            for _ in 0..<4 { bad[Int(rng.next() % UInt64(bad.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1) }
            if PreparedMuseum.decode(bad, identity: "id") == nil { misses += 1 }
        }
        XCTAssertGreaterThan(misses, 0, "some damage must be noticed")
    }

    /// A sink that keeps what it is given and how, failing at the write numbered `failAt`.
    struct RecordingSink: PreparedSink {
        struct Refused: Error, Equatable {}
        var bytes: [UInt8] = []
        var writes: [Int] = []
        var patches = 0
        var failAt = Int.max
        mutating func write(_ chunk: UnsafeRawBufferPointer) throws(Refused) {
            if writes.count == failAt { throw Refused() }
            writes.append(chunk.count)
            bytes.append(contentsOf: chunk)
        }
        mutating func patch(_ replacement: [UInt8], at offset: Int) throws(Refused) {
            patches += 1
            bytes.replaceSubrange(offset..<offset + replacement.count, with: replacement)
        }
    }

    /// The copy goes to its sink a piece at a time, never whole (issue 14), and the pieces make
    /// exactly the copy; a sink that fails stops the writing with its error.
    func testTheCopyIsWrittenInPiecesThatMakeTheWhole() throws {
        let app = try AppDataReader.read(LargeDocuments.longTranscripts(), source: "/m/appData.json").get()
        var sink = RecordingSink()
        try PreparedMuseum.encode(app, identity: "id", to: &sink)
        let whole = PreparedMuseum.encode(app, identity: "id")
        XCTAssertEqual(sink.bytes, whole)
        XCTAssertGreaterThan(whole.count, 3_000_000)
        XCTAssertGreaterThan(sink.writes.count, 2)
        XCTAssertLessThanOrEqual(sink.writes.max() ?? 0, (1 << 20) + 4096, "no piece much larger than a megabyte")
        XCTAssertEqual(sink.patches, 1, "the middle entry's place, filled in once known")
        XCTAssertEqual(PreparedMuseum.decode(sink.bytes, identity: "id"), app)
        var failing = RecordingSink(failAt: 1)
        XCTAssertThrowsError(try PreparedMuseum.encode(app, identity: "id", to: &failing)) { XCTAssertEqual($0 as? RecordingSink.Refused, RecordingSink.Refused()) }
        XCTAssertEqual(failing.writes.count, 1, "nothing written after the failure")
    }

    /// Opening a copy hands each stretch of its string table back as it is read (the adapter
    /// lets those pages go), one reader or two, and the museum is the same.
    func testTheTableIsHandedBackAsItIsRead() throws {
        let app = try AppDataReader.read(LargeDocuments.longTranscripts(), source: "/m/appData.json").get()
        let copy = PreparedMuseum.encode(app, identity: "id")
        for both in [nil, ParallelReadTests.both] as [ReadOptions.Both?] {
            let passed = LockedRanges()
            let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: copy.count, alignment: 8)
            storage.copyBytes(from: copy)
            let address = UInt(bitPattern: storage.baseAddress)
            let shared = SharedBytes(UnsafeRawBufferPointer(storage), release: { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }, passed: { passed.add($0) })
            let back = PreparedMuseum.decode(shared, identity: "id", both: both)
            XCTAssertEqual(back, app)
            let ranges = passed.value.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
            XCTAssertGreaterThan(ranges.count, 2, "a stretch at a time")
            for (a, b) in zip(ranges, ranges.dropFirst()) { XCTAssertLessThanOrEqual(a.upperBound, b.lowerBound, "no byte handed back twice") }
            XCTAssertTrue(ranges.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= copy.count })
            let covered = ranges.reduce(0) { $0 + $1.count }
            XCTAssertGreaterThan(covered, copy.count * 8 / 10, "the table (most of the copy) is handed back")
            for (id, audio) in app.audioFiles.prefix(50) {
                XCTAssertEqual(back?.audioFiles[id]?.english.transcript, audio.english.transcript)
            }
        }
    }

    /// Search's words read every transcript of a museum opened from its copy; the copy hears
    /// that it may let its pages go every megabyte (a mapped copy: the pages stay in the page
    /// cache; a second start's peak memory held the whole copy, issue 30), and the index is
    /// the one built from the museum in memory.
    func testSearchsWordsLetTheCopysPagesGoAsTheyReadTranscripts() throws {
        let app = try AppDataReader.read(LargeDocuments.longTranscripts(), source: "/m/appData.json").get()
        let copy = PreparedMuseum.encode(app, identity: "id")
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: copy.count, alignment: 8)
        storage.copyBytes(from: copy)
        let address = UInt(bitPattern: storage.baseAddress)
        let passed = LockedRanges()
        let shared = SharedBytes(UnsafeRawBufferPointer(storage), release: { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }, passed: { passed.add($0) })
        let back = try XCTUnwrap(PreparedMuseum.decode(shared, identity: "id"))
        let afterOpening = passed.value.count
        let index = SearchIndex(app: back)
        let whole = passed.value.dropFirst(afterOpening).filter { $0 == 0..<copy.count }
        let transcriptBytes = back.audioFiles.values.reduce(0) { $0 + $1.english.transcript.utf8.count }
        XCTAssertGreaterThan(transcriptBytes, 2 << 20)
        XCTAssertGreaterThanOrEqual(whole.count, transcriptBytes >> 20, "the copy hears it once a megabyte of transcripts")
        let inMemory = SearchIndex(app: app)
        let word = try XCTUnwrap(back.audioFiles.values.first?.english.transcript.split(separator: " ").dropFirst(3).first)
        let q = index.fold(word)
        let found = index.results(index.matches(q), cap: 50)
        XCTAssertGreaterThan(found.count(.artwork) + found.count(.tour), 0, "a transcript's word finds its stop")
        XCTAssertEqual(found, inMemory.results(inMemory.matches(inMemory.fold(word)), cap: 50))
    }

    /// Reading a document held by the adapter (a mapped file) tells it how far the parser has
    /// read, and writing a copy of the museum lets the document's pages go after reading
    /// its transcripts.
    func testTheDocumentHearsHowFarItWasReadAndLetsGoAfterACopy() throws {
        let doc = LargeDocuments.longTranscripts()
        let pages = RecordingPages()
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: doc.count, alignment: 8)
        storage.copyBytes(from: doc)
        let address = UInt(bitPattern: storage.baseAddress)
        let bytes = JSONBytes(UnsafeRawBufferPointer(storage), release: { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }, pages: pages)
        let app = try AppDataReader.read(bytes, source: "/m/appData.json").get()
        XCTAssertEqual(app, try AppDataReader.read(doc, source: "/m/appData.json").get())
        let offsets = pages.passedOffsets
        XCTAssertGreaterThanOrEqual(offsets.count, doc.count / (1 << 20) - 1)
        XCTAssertEqual(offsets, offsets.sorted(), "only ever forward")
        XCTAssertTrue(offsets.allSatisfy { $0 > 0 && $0 <= doc.count })
        let before = pages.letGoCount
        XCTAssertGreaterThan(before, 0, "after the artworks were read again")
        _ = PreparedMuseum.encode(app, identity: "id")
        XCTAssertGreaterThan(pages.letGoCount, before, "after the transcripts were read for the copy")
        XCTAssertFalse(bytes.changed)
    }
}

private final class LockedRanges: @unchecked Sendable {
    private let lock = NSLock()
    private var ranges: [Range<Int>] = []
    func add(_ r: Range<Int>) {
        lock.lock()
        ranges.append(r)
        lock.unlock()
    }
    var value: [Range<Int>] {
        lock.lock()
        defer { lock.unlock() }
        return ranges
    }
}

private final class RecordingPages: JSONPages, @unchecked Sendable {
    private let lock = NSLock()
    private var offsets: [Int] = []
    private var letGos = 0
    func passed(_ offset: Int) {
        lock.lock()
        offsets.append(offset)
        lock.unlock()
    }
    func letGo() {
        lock.lock()
        letGos += 1
        lock.unlock()
    }
    var changed: Bool { false }
    var passedOffsets: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return offsets
    }
    var letGoCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return letGos
    }
}

private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() {
        lock.lock()
        n += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return n
    }
}
