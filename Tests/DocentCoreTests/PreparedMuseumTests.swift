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
