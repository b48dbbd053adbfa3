import DocentCore
import Foundation
import NetCurl
import StateStore
import XCTest

/// Prepared copies on disk (issue 14): trusted only while the appData is the file they were
/// made from, written whole or not at all.
final class PreparedCopiesTests: XCTestCase {
    private var dir = ""
    private var data = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "docent-prepared-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        data = dir + "/appData.json"
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("SampleData/appData.json").path, toPath: data)
        try settle(data)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Dates the file a minute back, as a file not edited just now is.
    private func settle(_ path: String, secondsAgo: Double = 60) throws {
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-secondsAgo)], ofItemAtPath: path)
    }

    private func copies(program: String = "docent-test", clock: @escaping @Sendable () -> Date = Date.init) -> FilePreparedCopies {
        FilePreparedCopies(directory: dir + "/prepared", program: program, localPath: CurlFetcher.localPath(of:), clock: clock)
    }

    private func read(_ path: String) throws -> AppData {
        try AppDataReader.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), source: path).get()
    }

    func testACopyOpensAsTheMuseumItWasMadeFrom() throws {
        let store = copies()
        let ticket = try XCTUnwrap(store.ticket(for: data, options: ReadOptions()))
        XCTAssertNil(store.open(ticket), "nothing prepared yet")
        let app = try read(data)
        try store.write(app, for: ticket).get()
        let opened = try XCTUnwrap(store.open(ticket))
        XCTAssertEqual(opened, app)
        XCTAssertEqual(opened.audioFiles.values.map(\.english.transcript).sorted(), app.audioFiles.values.map(\.english.transcript).sorted())
        // The same file named by a file: URL is another source, with its own copy.
        XCTAssertNotEqual(store.copyPath(for: "file://" + data, options: ReadOptions()), store.copyPath(for: data, options: ReadOptions()))
    }

    func testOnlyLocalFilesHaveTickets() throws {
        let store = copies()
        XCTAssertNil(store.ticket(for: "https://museum.example/appData.json", options: ReadOptions()))
        XCTAssertNil(store.ticket(for: dir + "/missing.json", options: ReadOptions()))
        XCTAssertNil(store.ticket(for: dir, options: ReadOptions()), "a directory")
    }

    func testAChangedFileIsReadAgainEvenAtTheSameSize() throws {
        let store = copies()
        let ticket = try XCTUnwrap(store.ticket(for: data, options: ReadOptions()))
        try store.write(try read(data), for: ticket).get()
        // Same size, same modification time set back: the change time and the content differ.
        var text = try String(contentsOfFile: data, encoding: .utf8)
        let title = try XCTUnwrap(text.range(of: "\"title\": \""))
        text.replaceSubrange(title.upperBound..<text.index(title.upperBound, offsetBy: 1), with: "Q")
        let before = try FileManager.default.attributesOfItem(atPath: data)
        try text.write(toFile: data, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: before[.modificationDate] as Any], ofItemAtPath: data)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: data)[.size] as? Int, before[.size] as? Int)
        let now = try XCTUnwrap(store.ticket(for: data, options: ReadOptions()))
        XCTAssertNotEqual(now, ticket)
        XCTAssertNil(store.open(now), "never the copy of what the file was")
        // Replaced by another file (a new inode) at the same path: a miss as well.
        try FileManager.default.removeItem(atPath: data)
        try text.write(toFile: data, atomically: true, encoding: .utf8)
        XCTAssertNil(store.open(try XCTUnwrap(store.ticket(for: data, options: ReadOptions()))))
    }

    func testAnotherProgramOrOtherOptionsMiss() throws {
        let ticket = try XCTUnwrap(copies().ticket(for: data, options: ReadOptions()))
        try copies().write(try read(data), for: ticket).get()
        XCTAssertNotNil(copies().open(try XCTUnwrap(copies().ticket(for: data, options: ReadOptions()))))
        XCTAssertNil(copies(program: "rebuilt").open(try XCTUnwrap(copies(program: "rebuilt").ticket(for: data, options: ReadOptions()))))
        let rewrite = ReadOptions(rewrite: URLResolver.Rewrite(from: "http://a/", to: "http://b/"))
        XCTAssertNil(copies().open(try XCTUnwrap(copies().ticket(for: data, options: rewrite))))
    }

    func testAFileEditedJustNowOrWhileReadIsNotPrepared() throws {
        try settle(data, secondsAgo: 0.5)
        let store = copies()
        let ticket = try XCTUnwrap(store.ticket(for: data, options: ReadOptions()))
        guard case .failure(let racy) = store.write(try read(data), for: ticket) else { return XCTFail("prepared a file edited just now") }
        XCTAssertTrue(racy.message.contains("less than 2 s ago"), racy.message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.copyPath(for: data, options: ReadOptions())))

        try settle(data)
        let before = try XCTUnwrap(store.ticket(for: data, options: ReadOptions()))
        try settle(data, secondsAgo: 30)  // edited between the ticket and the write
        guard case .failure(let moved) = store.write(try read(data), for: before) else { return XCTFail("prepared a file that changed") }
        XCTAssertTrue(moved.message.contains("changed while it was read"), moved.message)
    }

    func testADamagedCopyIsAMiss() throws {
        let store = copies()
        let ticket = try XCTUnwrap(store.ticket(for: data, options: ReadOptions()))
        try store.write(try read(data), for: ticket).get()
        let path = store.copyPath(for: data, options: ReadOptions())
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(whole.count - 10).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(store.open(ticket))
        try Data().write(to: URL(fileURLWithPath: path))
        XCTAssertNil(store.open(ticket), "an empty file")
    }

    func testAnUnwritableDirectoryIsSaidNotFatal() throws {
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/prepared"))  // a file where the directory would be
        let store = copies()
        let ticket = try XCTUnwrap(store.ticket(for: data, options: ReadOptions()))
        guard case .failure(let f) = store.write(try read(data), for: ticket) else { return XCTFail("wrote through a file") }
        XCTAssertTrue(f.message.contains("cannot write the prepared museum"), f.message)
        XCTAssertNil(store.open(ticket))
    }

    /// A copy per source, the newest few kept: a URL whose query changes every day does not
    /// fill the disk; an abandoned half-written copy goes too, a fresh one (being written) stays.
    func testOnlyTheNewestCopiesAreKept() throws {
        let store = copies()
        let app = try read(data)
        let prepared = dir + "/prepared"
        try FileManager.default.createDirectory(atPath: prepared, withIntermediateDirectories: true)
        let abandoned = prepared + "/x.museum.tmp-1-2", writing = prepared + "/y.museum.tmp-3-4"
        try Data("half".utf8).write(to: URL(fileURLWithPath: abandoned))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: abandoned)
        try Data("half".utf8).write(to: URL(fileURLWithPath: writing))
        var paths: [String] = []
        for day in 0..<6 {
            let url = "https://museum.example/appData.json?v=\(day)"
            let ticket = try XCTUnwrap(store.ticket(forRemote: url, fingerprint: "bytes=1 fnv1a64=\(day)", options: ReadOptions()))
            try store.write(app, for: ticket).get()
            let path = store.copyPath(for: url, options: ReadOptions())
            // Older by a day each, as the days went by.
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(Double(day - 6) * 86400)], ofItemAtPath: path)
            paths.append(path)
        }
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: prepared).map { prepared + "/" + $0 })
        XCTAssertEqual(left, Set(paths.suffix(FilePreparedCopies.keptCopies)).union([writing]))
        let newest = try XCTUnwrap(store.ticket(forRemote: "https://museum.example/appData.json?v=5", fingerprint: "bytes=1 fnv1a64=5", options: ReadOptions()))
        XCTAssertNotNil(store.open(newest), "the newest copy still opens")
    }
}
