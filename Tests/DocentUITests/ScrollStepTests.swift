import DocentUI
import XCTest

/// `Screen.scrollStep`: the frame a terminal shows after a page's rows scrolled, before what
/// else changed (the highlight) is drawn; the curses backend draws it first so that ncurses
/// scrolls the whole block once instead of two regions around the highlight.
final class ScrollStepTests: XCTestCase {
    /// A list of `items` from `first`, `selected` in reverse video, on a 30×10 screen under a
    /// title row, with a status row at the bottom.
    private func page(first: Int, selected: Int, items: Int = 20) -> Screen {
        var s = Screen(width: 30, height: 10)
        s.put("Title", x: 0, y: 0)
        for row in 0..<8 where first + row < items {
            let i = first + row
            s.put("\(i == selected ? "▸" : " ") item \(i)", x: 0, y: 1 + row, style: i == selected ? Style(reverse: true) : .plain)
        }
        s.put("status", x: 0, y: 9)
        return s
    }

    private func rows(_ s: Screen) -> [String] { (0..<s.height).map { s.row($0) } }

    func testAListThatScrolledTwoRowsIsTheOldRowsMovedAndTheTwoNewOnes() throws {
        let old = page(first: 0, selected: 4)
        let new = page(first: 2, selected: 6)
        let step = try XCTUnwrap(new.scrollStep(from: old))
        // Rows 1…6 hold old rows 3…8 (the highlight still on item 4, now row 3); rows 7 and 8
        // are the new frame's; the title and the status did not move.
        XCTAssertEqual(rows(step), [old.row(0)] + (3...8).map { old.row($0) } + [new.row(7), new.row(8), old.row(9)])
        XCTAssertEqual(step[2, 3], old[2, 5], "the old highlight moved with its row")
        // What is left to draw after the step: the highlight's two rows only.
        XCTAssertEqual((0..<10).filter { step.row($0) != new.row($0) || step[0, $0] != new[0, $0] }, [3, 5])
    }

    func testScrollingUpMovesTheBlockDown() throws {
        let old = page(first: 4, selected: 8)
        let new = page(first: 3, selected: 7)
        let step = try XCTUnwrap(new.scrollStep(from: old))
        XCTAssertEqual(step.row(1), new.row(1), "the row brought in at the top is the new frame's")
        XCTAssertEqual((2...8).map { step.row($0) }, (1...7).map { old.row($0) })
    }

    func testNoStepWithoutAMove() {
        let old = page(first: 0, selected: 4)
        XCTAssertNil(page(first: 0, selected: 5).scrollStep(from: old), "only the highlight moved")
        XCTAssertNil(old.scrollStep(from: old))
        var other = Screen(width: 30, height: 10)
        other.put("Another page", x: 0, y: 2)
        XCTAssertNil(other.scrollStep(from: old))
        XCTAssertNil(page(first: 2, selected: 6).scrollStep(from: Screen(width: 31, height: 10)), "another size")
    }

    /// Blank rows match each other at any distance and say nothing of a move.
    func testBlankRowsAreNoEvidence() {
        var old = Screen(width: 20, height: 10)
        var new = Screen(width: 20, height: 10)
        old.put("a", x: 0, y: 0)
        new.put("b", x: 0, y: 0)
        XCTAssertNil(new.scrollStep(from: old))
    }
}
