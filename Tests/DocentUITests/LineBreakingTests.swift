import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 33 #6 on screen: the welcome box in Korean breaks at spaces, never inside a word; in
/// Traditional Chinese at 40×12 no line of it starts with a full stop or a comma.
final class LineBreakingTests: XCTestCase {
    /// The text rows inside a box: what is between its side borders, without the padding.
    static func boxRows(_ screen: Screen) -> [String] {
        (0..<screen.height).compactMap { y in
            let row = screen.row(y)
            guard let l = row.firstIndex(of: "│"), let r = row.lastIndex(of: "│"), l < r else { return nil }
            return row[row.index(after: l)..<r].trimmingCharacters(in: .whitespaces)
        }
    }

    func welcome(_ language: Language, _ size: Size) -> Screen {
        var s = UIFixtures.loadedState(language: language, size: size)
        s.overlay = .help(firstRun: true)
        return RootView.render(s, size: size)
    }

    func testKoreanWelcomeAt100x30KeepsEveryWordWhole() {
        let size = Size(width: 100, height: 30)
        let screen = welcome(.korean, size)
        assertSnapshot(screen, named: "help-first-run-ko-100x30")
        let rows = Self.boxRows(screen)
        let words = Set(rows.flatMap { $0.split(separator: " ").map(String.init) })
        let intro = UIFixtures.catalog.strings(for: .korean)(.helpIntro)
        for w in intro.split(separator: " ").map(String.init) {
            XCTAssertTrue(words.contains(w), "\(w) is not whole on one line of \(rows)")
        }
        // The lines.
        XCTAssertFalse(rows.contains { $0.hasSuffix(" 홈") || $0.hasSuffix("키패") || $0.hasPrefix("에서") || $0.hasPrefix("드용이므로") }, "\(rows)")
    }

    func testTraditionalChineseWelcomeAt40x12StartsNoLineWithPunctuation() {
        let screen = welcome(.traditionalChinese, RootView.minimumSize)
        let rows = Self.boxRows(screen)
        XCTAssertTrue(rows.contains { $0.contains("Docent") }, "the welcome box shows: \(rows)")
        for r in rows {
            if let first = r.first { XCTAssertFalse("。，、；：！？」）".contains(first), "a line starts with \(first): \(rows)") }
            if let last = r.last { XCTAssertFalse("「（".contains(last), "a line ends with \(last): \(rows)") }
        }
    }
}
