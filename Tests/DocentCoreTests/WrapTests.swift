import Foundation
import XCTest

@testable import DocentCore

/// Line breaking (issue 33 #6): Korean at spaces, Chinese and Japanese between characters but
/// never before closing punctuation or after opening punctuation, every line within the width,
/// nothing lost.
final class WrapTests: XCTestCase {
    let korean = "Docent는 터미널에서 쓰는 박물관 가이드입니다. 투어, 전시, 행사는 홈에서, 관람 시간과 설정은 안내에서 볼 수 있습니다. 숫자는 오디오 키패드용이므로 탭은 Tab, Shift-Tab 또는 F1–F6으로 바꿉니다."
    let traditional = "Docent 是您在終端機上的博物館導覽。首頁有導覽路線、展覽和活動；開放時間與設定在「資訊」分頁。數字鍵保留給語音導覽按鍵，請用 Tab、Shift-Tab 或 F1–F6 切換分頁。"
    let simplified = "这件作品（约1650年）描绘了一位妇女在窗边读信。她的脸被光照亮，画家用“点”来表现光线！你看到了吗？"

    /// Every line fits; the lines hold the text, in order, less the spaces at the breaks.
    func assertFitsAndKeepsEverything(_ text: String, width: Int, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        let lines = Wrap.lines(text, width: width)
        for l in lines { XCTAssertLessThanOrEqual(TextWidth.width(l), width, "width \(width): \(l)", file: file, line: line) }
        XCTAssertEqual(lines.joined().filter { $0 != " " }, text.filter { $0 != " " }, "width \(width)", file: file, line: line)
        return lines
    }

    func testKoreanBreaksOnlyAtSpaces() {
        let words = korean.split(separator: " ").map(String.init)
        for width in 6...60 {
            let lines = assertFitsAndKeepsEverything(korean, width: width)
            // Each word that fits on a line is on one line, whole.
            let onLines = Set(lines.flatMap { $0.split(separator: " ").map(String.init) })
            for w in words where TextWidth.width(w) <= width {
                XCTAssertTrue(onLines.contains(w), "width \(width): \(w) split in \(lines)")
            }
        }
        // The lines, at the welcome box's width on a 100-column screen.
        let lines = Wrap.lines(korean, width: 68)
        XCTAssertFalse(lines.contains { $0.hasSuffix(" 홈") || $0.hasPrefix("에서") || $0.hasSuffix("키패") })
    }

    func testKoreanKeysLegendKeepsCard() {
        let keys = "화살표 또는 h j k l 이동 · + - 확대/축소 · [ ] 아래층/위층 · f 다음 층 · n N 다음/이전 표시 · Enter 카드, 그다음 그 동작"
        for width in 10...40 {
            let lines = assertFitsAndKeepsEverything(keys, width: width)
            XCTAssertTrue(lines.contains { $0.contains("카드,") }, "width \(width): \(lines)")
            XCTAssertFalse(lines.contains { $0.hasSuffix("[") }, "width \(width): a line ends with an opening bracket: \(lines)")
        }
    }

    func testChineseBreaksBetweenCharactersButNotBeforeClosingPunctuation() {
        let noStart: Set<Character> = ["。", "，", "、", "；", "：", "！", "？", "）", "」", "』", "”"]
        let noEnd: Set<Character> = ["（", "「", "『", "“"]
        for text in [traditional, simplified] {
            for width in 6...40 {
                let lines = assertFitsAndKeepsEverything(text, width: width)
                for l in lines {
                    if let first = l.first { XCTAssertFalse(noStart.contains(first), "width \(width): \(l)") }
                    if let last = l.last { XCTAssertFalse(noEnd.contains(last), "width \(width): \(l)") }
                }
            }
        }
        // Still broken between characters: no stretch here is wider than 4 cells (a character
        // and the punctuation that must stay with it), so no line but the last is shorter by 4.
        for width in 4...40 {
            for l in Wrap.lines(simplified, width: width).dropLast() {
                XCTAssertGreaterThan(TextWidth.width(l), width - 4, "width \(width): \(l)")
            }
        }
        // zh-Hant at the 40×12 welcome box's width (34): the full stop stays with 覽.
        let lines = Wrap.lines(traditional, width: 34)
        XCTAssertTrue(lines.allSatisfy { $0.first != "。" }, "\(lines)")
    }

    func testJapaneseProlongedSoundAndSmallKanaDoNotStartALine() {
        let text = "コーヒーショップは「ミュージアムカフェ」です。チョコレートケーキがおすすめ！"
        // From 8 cells: 「ミュー is 8 cells with no break inside, so a narrower line must cut it.
        for width in 8...30 {
            for l in assertFitsAndKeepsEverything(text, width: width) {
                if let first = l.first { XCTAssertFalse("ーョュャッ」。！".contains(first), "width \(width): \(l)") }
            }
        }
    }

    func testAWordLongerThanTheLineIsStillCut() {
        XCTAssertEqual(Wrap.lines("see Rijksmuseum", width: 5), ["see", "Rijks", "museu", "m"])
        XCTAssertEqual(Wrap.lines("키패드용이므로", width: 5), ["키패", "드용", "이므", "로"])
        // A wide character is never split, even on a line of one cell.
        let narrow = assertFitsAndKeepsEverything("abc 투어", width: 2)
        XCTAssertEqual(narrow, ["ab", "c", "투", "어"])
        _ = assertFitsAndKeepsEverything(korean, width: 3)
        _ = assertFitsAndKeepsEverything(simplified, width: 2)
    }

    func testLatinBreaksAtSpacesAndKeepsPunctuationWithItsWord() {
        XCTAssertEqual(Wrap.lines("The Milkmaid, by Johannes Vermeer (c. 1660).", width: 16), ["The Milkmaid, by", "Johannes Vermeer", "(c. 1660)."])
        // French puts a space before the colon: it stays with its word.
        XCTAssertEqual(Wrap.lines("Impossible pour le moment : réseau", width: 26), ["Impossible pour le", "moment : réseau"])
        // After a separator, punctuation names a key: it may start a line.
        XCTAssertEqual(Wrap.lines("L language · ? help · q quit", width: 13), ["L language ·", "? help · q", "quit"])
        XCTAssertEqual(Wrap.lines("1–5 choose · [ ] floors", width: 13), ["1–5 choose ·", "[ ] floors"])
    }

    func testNoBreakSpacesAndZeroWidthSpace() {
        // The help table's indent (no-break spaces) stays with the meaning's first character.
        let lines = Wrap.lines("\u{00A0}\u{00A0}\u{00A0}\u{00A0}返回上一頁面", width: 8)
        XCTAssertEqual(lines.first, "\u{00A0}\u{00A0}\u{00A0}\u{00A0}返回")
        XCTAssertEqual(Wrap.lines("Rijks\u{200B}museum", width: 8), ["Rijks\u{200B}", "museum"])
    }

    func testBreakOpportunities() {
        XCTAssertFalse(Wrap.canBreak(between: "한", and: "국"), "Hangul: between syllables")
        XCTAssertTrue(Wrap.canBreak(between: "中", and: "國"), "ideographs")
        XCTAssertFalse(Wrap.canBreak(between: "覽", and: "。"), "before a full stop")
        XCTAssertTrue(Wrap.canBreak(between: "。", and: "首"), "after a full stop")
        XCTAssertFalse(Wrap.canBreak(between: "「", and: "資"), "after an opening bracket")
        XCTAssertTrue(Wrap.canBreak(between: "在", and: "「"), "before an opening bracket")
        XCTAssertFalse(Wrap.canBreak(between: "e", and: "."))
        XCTAssertTrue(Wrap.canBreak(atSpacesBetween: "다", and: "투"))
        XCTAssertFalse(Wrap.canBreak(atSpacesBetween: "t", and: ":"))
        XCTAssertTrue(Wrap.canBreak(atSpacesBetween: "·", and: "?"))
        XCTAssertFalse(Wrap.canBreak(atSpacesBetween: "(", and: "a"))
    }

    /// Issue 33 #17: a web address is not cut inside a name. It drops its scheme when that is
    /// enough, and otherwise breaks after a slash.
    func testALinkKeepsItsNamesWhole() {
        let url = "https://example.org/visit/sky-terrace"
        XCTAssertEqual(Wrap.link(url, width: 40), [url])
        XCTAssertEqual(Wrap.link(url, width: 34), ["example.org/visit/sky-terrace"])
        XCTAssertEqual(Wrap.link(url, width: 20), ["example.org/visit/", "sky-terrace"])
        XCTAssertEqual(Wrap.link("https://example.org/a?b=c#d", width: 14), ["example.org/a", "?b=c#d"])
        XCTAssertEqual(Wrap.link("https://example.org/a?b=c#d", width: 5), ["examp", "le.or", "g/a", "?b=c", "#d"])
        // A name longer than the line is cut, and nothing is lost.
        let long = "https://" + String(repeating: "x", count: 25) + ".org/"
        let lines = Wrap.link(long, width: 10)
        XCTAssertEqual(lines.joined(), String(long.dropFirst(8)))
        XCTAssertTrue(lines.allSatisfy { TextWidth.width($0) <= 10 })
        XCTAssertEqual(Wrap.link(url, width: 0), [])
    }
}
