import XCTest

@testable import DocentCore

final class JSONParserTests: XCTestCase {
    private func parse(_ s: String) throws -> JSON { try JSONParser.parse(Array(s.utf8)) }

    private func parseError(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> JSONError? {
        do {
            _ = try JSONParser.parse(bytes)
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testValuesAndOrder() throws {
        let v = try parse(#"{"b": [1, -2, 3.5, true, false, null, "x"], "a": {"c": "d"}}"#)
        guard case .object(let o) = v else { return XCTFail("not an object") }
        XCTAssertEqual(o.keys, ["b", "a"])
        XCTAssertEqual(o["b"], .array([.integer(1), .integer(-2), .double(3.5), .bool(true), .bool(false), .null, .string("x")]))
        XCTAssertEqual(v["a"]?["c"], .string("d"))
    }

    func testDuplicateKeysLastWins() throws {
        XCTAssertEqual(try parse(#"{"a": 1, "a": 2}"#)["a"], .integer(2))
    }

    func testEscapesAndSurrogates() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#), .string("a\"b\\c/d\n\té😀"))
        // A lone surrogate becomes U+FFFD rather than invalid text.
        XCTAssertEqual(try parse(#""\ud800x""#), .string("\u{FFFD}x"))
    }

    func testByteOrderMarkIsAccepted() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)
        XCTAssertEqual(try JSONParser.parse(bytes)["a"], .integer(1))
        XCTAssertTrue(JSONParser.hasBOM(bytes))
    }

    func testTruncatedDocumentSaysSo() {
        let e = parseError(Array(#"{"objects": {"1": {"title": "Mo"#.utf8))
        XCTAssertEqual(e?.kind, .truncated)
        XCTAssertEqual(e?.line, 1)
        XCTAssertTrue(e?.description.contains("truncated") == true)
    }

    func testEmptyAndTrailingData() {
        XCTAssertEqual(parseError([])?.kind, .empty)
        XCTAssertEqual(parseError(Array("  \n ".utf8))?.kind, .empty)
        XCTAssertEqual(parseError(Array("{} x".utf8))?.kind, .trailingData)
    }

    func testDeepNestingIsRefusedNotACrash() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
        XCTAssertEqual(parseError(deep)?.kind, .tooDeep(limit: JSONParser.defaultMaxDepth))
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        XCTAssertEqual(parseError(Array(objects.utf8))?.kind, .tooDeep(limit: JSONParser.defaultMaxDepth))
    }

    func testInvalidUTF8IsReported() {
        let bytes: [UInt8] = Array(#"{"t": ""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8)
        let e = parseError(bytes)
        XCTAssertEqual(e?.kind, .invalidUTF8)
        XCTAssertEqual(e?.column, 8)
    }

    func testHugeNumbersKeepTheirText() throws {
        XCTAssertEqual(try parse("1e999"), .bigNumber("1e999"))
        XCTAssertEqual(try parse("-1e999"), .bigNumber("-1e999"))
        XCTAssertEqual(try parse("123456789012345678901234567890"), .bigNumber("123456789012345678901234567890"))
        XCTAssertEqual(try parse("9223372036854775807"), .integer(Int.max))
        XCTAssertEqual(try parse("-9223372036854775808"), .integer(Int.min))
        XCTAssertEqual(try parse("1.5e3"), .double(1500))
    }

    func testMalformedNumbers() {
        XCTAssertNotNil(parseError(Array("-".utf8)))
        XCTAssertNotNil(parseError(Array("1.".utf8)))
        XCTAssertNotNil(parseError(Array("1e".utf8)))
        XCTAssertNotNil(parseError(Array("[01]".utf8)))
    }

    func testTenMegabyteString() throws {
        let big = String(repeating: "ab", count: 5_000_000)
        let v = try parse("[\"\(big)\"]")
        XCTAssertEqual(v.arrayValue?.first?.stringValue?.utf8.count, 10_000_000)
    }

    func testUnexpectedCharacterPosition() {
        let e = parseError(Array("{\n  \"a\": tru }".utf8))
        XCTAssertEqual(e?.line, 2)
        XCTAssertEqual(e?.column, 11)
    }
}
