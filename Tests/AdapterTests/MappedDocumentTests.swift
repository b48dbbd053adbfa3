import DocentCore
import DocentCoreTestSupport
import Foundation
import NetCurl
import TwoCores
import XCTest

/// A large local appData is mapped, not read (issue 14): the parser reads the page cache and
/// the pages it has passed go from the guide's memory; a file cut short under the mapping is
/// said, never a crash.
final class MappedDocumentTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("docent-mapped-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// About 7 MB (`LargeDocuments`).
    private static let document = LargeDocuments.longTranscripts(repeats: 14)

    private func write(_ bytes: [UInt8], _ name: String = "appData.json") throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func mapped(_ path: String, maxBytes: Int = 256 << 20) throws -> JSONBytes {
        switch CurlFetcher().mapDocument(path, maxBytes: maxBytes) {
        case .success(let d)?: return d
        case .failure(let e)?: throw e
        // These files are all over the 1 MiB line: not mapping one is the defect under test.
        case nil: throw MappingRefused(path: path)
        }
    }

    func testALargeFileIsMappedAndReadsAsTheSameMuseum() throws {
        let path = try write(Self.document)
        let document = try mapped(path)
        XCTAssertEqual(document.count, Self.document.count)
        XCTAssertEqual(document.withBuffer { Array($0) }, Self.document)
        let options = ReadOptions(both: TwoCores.both)
        let fromMap = try AppDataReader.read(document, source: path, options: options).get()
        let fromBytes = try AppDataReader.read(Self.document, source: path, options: options).get()
        XCTAssertEqual(fromMap, fromBytes)
        XCTAssertEqual(fromMap.diagnostics, fromBytes.diagnostics)
        XCTAssertEqual(fromMap.audioFiles[2999]?.translations[.spanish]?.transcript, fromBytes.audioFiles[2999]?.translations[.spanish]?.transcript)
        XCTAssertFalse(document.changed)
    }

    func testOnlyLargeLocalFilesAreMapped() throws {
        let fetcher = CurlFetcher()
        XCTAssertNil(fetcher.mapDocument(try write(Array(#"{"objects": {}}"#.utf8), "small.json"), maxBytes: 1 << 20), "a small file is read")
        XCTAssertNil(fetcher.mapDocument("http://127.0.0.1:9/appData.json", maxBytes: 1 << 20), "a URL is fetched")
        guard case .failure(.fileNotFound)? = fetcher.mapDocument(directory.appendingPathComponent("gone.json").path, maxBytes: 1 << 20) else {
            return XCTFail("a missing file is said as fetch says it")
        }
        guard case .failure(let e)? = fetcher.mapDocument(directory.path, maxBytes: 1 << 20) else { return XCTFail("a directory") }
        XCTAssertTrue(e.description.contains("directory"), e.description)
        let path = try write(Self.document)
        guard case .failure(.tooLarge)? = fetcher.mapDocument(path, maxBytes: 1 << 20) else { return XCTFail("over the limit") }
    }

    /// The pages the parser has passed (and the artworks read again) are let go: what stays
    /// in memory of the mapping is a small part of the file.
    func testTheFileIsNotInMemoryOnceRead() throws {
        let path = try write(Self.document)
        let document = try mapped(path)
        let base = document.withBuffer { UInt(bitPattern: $0.baseAddress) }
        let app = try AppDataReader.read(document, source: path).get()
        XCTAssertEqual(app.audioFiles.count, 3000)
        let resident = try XCTUnwrap(Self.residentBytes(of: base))
        XCTAssertLessThan(resident, Self.document.count / 4, "\(resident) of \(Self.document.count) bytes still in memory")
        // A transcript read brings its own pages back, and reads right.
        XCTAssertTrue(app.audioFiles[1500]?.english.transcript.hasPrefix("1500 Monet painted") == true)
        withExtendedLifetime(document) {}
    }

    /// The file cut short while mapped (rewritten in place): the read says so instead of
    /// crashing (SIGBUS) on the pages that are gone, and a museum already read shows an empty
    /// or shortened transcript rather than crashing the guide.
    func testAFileCutShortUnderTheMappingIsSaidNotACrash() throws {
        let path = try write(Self.document)
        let document = try mapped(path)
        XCTAssertEqual(truncate(path, off_t(Self.document.count / 3)), 0)
        guard case .failure(let e) = AppDataReader.read(document, source: path) else { return XCTFail("read a file cut short") }
        XCTAssertEqual(e, .changedWhileRead)
        XCTAssertTrue(e.description.contains("changed while it was read"), e.description)

        // Another museum mapped beside it is not taken for changed.
        let path3 = try write(Self.document, "third.json")
        let third = try mapped(path3)
        XCTAssertEqual(try AppDataReader.read(third, source: path3).get().audioFiles.count, 3000)
        XCTAssertFalse(third.changed)
        XCTAssertTrue(document.changed)

        let path2 = try write(Self.document, "second.json")
        let second = try mapped(path2)
        let app = try AppDataReader.read(second, source: path2).get()
        XCTAssertEqual(truncate(path2, 0), 0)
        let transcript = try XCTUnwrap(app.audioFiles[2999]?.english.transcript)
        XCTAssertFalse(transcript.contains("Monet"), "the bytes are gone; nothing is invented")
        XCTAssertTrue(second.changed)
    }

    /// The resident size of the mapping that starts at `base`, from /proc/self/smaps.
    private static func residentBytes(of base: UInt) -> Int? {
        // Read to its end: a /proc file says its size is 0.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        var inside = false
        for line in text.split(separator: "\n") {
            // A mapping's first line: "start-end perms offset dev inode path".
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, let dash = range.firstIndex(of: "-"), fields.count >= 5, let start = UInt(range[..<dash], radix: 16) {
                inside = start == base
                continue
            }
            if inside, fields.first == "Rss:", fields.count >= 2, let kb = Int(fields[1]) { return kb * 1024 }
        }
        return nil
    }
}

private struct MappingRefused: Error, CustomStringConvertible {
    let path: String
    var description: String { "\(path) was not mapped, though it is a large regular file" }
}
