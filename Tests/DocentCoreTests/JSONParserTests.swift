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
        XCTAssertTrue(JSONBytes(bytes).hasBOM)
    }

    func testTruncatedDocumentSaysSo() {
        let e = parseError(Array(#"{"objects": {"1": {"title": "Mo"#.utf8))
        XCTAssertEqual(e?.kind, .truncated)
        XCTAssertEqual(e?.line, 1)
        XCTAssertTrue(e?.description.contains("truncated") == true)
    }

    func testEmptyAndTrailingData() throws {
        XCTAssertEqual(parseError([])?.kind, .empty)
        // Issue 45 #9: only blank space is said as such ("the file is empty" for 250 MB of spaces).
        XCTAssertEqual(parseError(Array("  \n ".utf8))?.kind, .blank)
        XCTAssertEqual(parseError([0xEF, 0xBB, 0xBF])?.kind, .empty)
        XCTAssertEqual(AppDataError.notJSON(try XCTUnwrap(parseError(Array("  \n ".utf8)))).description, "the file holds no museum data (only spaces and line breaks)")
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
    // MARK: Deferred strings (issue 14)

    /// What a document becomes: its tree with every deferred string read, or its error.
    private enum Outcome: Equatable {
        case value(JSON)
        case error(JSONError)
    }

    private static func materialised(_ v: JSON) -> JSON {
        switch v {
        case .rawString(let r): return .string(r.string)
        case .array(let a): return .array(a.map(materialised))
        case .object(let o): return .object(JSONObject(o.fields.map { ($0.key, materialised($0.value)) }))
        default: return v
        }
    }

    private func outcomes(_ bytes: [UInt8]) -> (plain: Outcome, deferred: Outcome) {
        let plain: Outcome
        do { plain = .value(try JSONParser.parse(bytes)) } catch { plain = .error(error) }
        let deferred: Outcome
        do { deferred = .value(Self.materialised(try JSONParser.parse(JSONBytes(bytes), deferring: ["t"]))) } catch { deferred = .error(error) }
        return (plain, deferred)
    }

    func testALongStringOfANamedFieldStaysInTheBytesUntilRead() throws {
        let long = String(repeating: #"Water lilies, \"Nymphéas\" 🌸\\n "#, count: 20)
        let doc = Array(#"{"t": "\#(long)", "u": "\#(long)", "a": [{"t": "short"}, {"t": "\#(long)"}]}"#.utf8)
        let tree = try JSONParser.parse(JSONBytes(doc), deferring: ["t"])
        guard case .rawString(let raw)? = tree["t"] else { return XCTFail("not deferred: \(String(describing: tree["t"]))") }
        XCTAssertTrue(raw.escaped)
        XCTAssertEqual(raw.string, try JSONParser.parse(doc)["t"]?.stringValue)
        XCTAssertTrue(raw.string.hasPrefix("Water lilies, \"Nymphéas\" 🌸\\n "))
        XCTAssertEqual(tree["t"]?.kindName, "a string")
        guard case .string? = tree["u"] else { return XCTFail("another field was deferred") }
        guard case .string("short")? = tree["a"]?.arrayValue?[0]["t"] else { return XCTFail("a short string was deferred") }
        guard case .rawString? = tree["a"]?.arrayValue?[1]["t"] else { return XCTFail("a nested one was not deferred") }
        let (plain, deferred) = outcomes(doc)
        XCTAssertEqual(plain, deferred)
    }

    /// Every fault inside a string that would be deferred is the same error, at the same
    /// place, as without deferring; every well-formed one reads the same.
    func testDeferredStringsReadAndFailExactlyAsParsedOnes() {
        let pad = String(repeating: "abcdefgh", count: 40)
        let insides: [[UInt8]] = [
            Array("plain \(pad)".utf8),
            Array("é ü 中文 한국어 🎨 \(pad)".utf8),
            Array(#"\" \\ \/ \b \f \n \r \t \u00e9 \ud83c\udfa8 \u4e2d \#(pad)"#.utf8),
            Array(#"lone \ud800 and \udc00 and \ud800\u0041 \#(pad)"#.utf8),
            Array(#"escaped \t and raw "#.utf8) + [0x09, 0x0A, 0x01] + Array(pad.utf8),
            Array(#"bad escape \x \#(pad)"#.utf8),
            Array(#"bad hex \u12G4 \#(pad)"#.utf8),
            Array(#"short hex \u12"#.utf8),
            Array(pad.utf8) + [0xC0, 0x80],  // overlong
            Array(pad.utf8) + [0xED, 0xA0, 0x80],  // an encoded surrogate
            Array(pad.utf8) + [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            Array(pad.utf8) + [0xE4, 0xB8],  // cut short
            Array(pad.utf8) + [0x80],  // a lone continuation byte
            Array(pad.utf8) + [0xFF],
            Array(pad.utf8) + Array(#"\"#.utf8),
        ]
        var failures = 0
        for (k, inside) in insides.enumerated() {
            for tail in [Array(#"", "x": 1}"#.utf8), [], Array(#"""#.utf8)] {
                let doc = Array(#"{"n": 1, "t": ""#.utf8) + inside + tail
                let (plain, deferred) = outcomes(doc)
                XCTAssertEqual(plain, deferred, "case \(k), tail \(String(decoding: tail, as: UTF8.self))")
                if case .error = plain { failures += 1 }
            }
        }
        XCTAssertGreaterThan(failures, 20, "the faulty cases did fail")
    }

    /// Runs of non-ASCII text in a deferred string are checked sequence after sequence without
    /// going back to the eight-byte scan (issue 48): every fault inside or at the end of such a
    /// run, and a run cut by the end of the bytes, is the same error at the same place as
    /// without deferring; a well-formed run reads the same.
    func testRunsOfNonASCIITextInDeferredStringsReadAndFailAsParsedOnes() {
        let chinese = Array("博物馆里的画家在清晨的光线中作画，".utf8)  // three-byte sequences (E5…E9)
        let pad = String(repeating: "abcdefgh", count: 40)
        let faults: [[UInt8]] = [
            [],
            [0xE5, 0x8D],  // cut short before a quote
            [0xE5, 0x8D, 0x41],  // a continuation missing
            [0xE5, 0xC0, 0x9A],  // a continuation out of range
            [0xE0, 0x80, 0x80],  // overlong
            [0xE0, 0xA0, 0x80],  // the first well-formed E0 sequence
            [0xED, 0xA0, 0x80],  // an encoded surrogate
            [0xED, 0x9F, 0xBF],  // the last well-formed ED sequence
            [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],  // private use, U+FFFF
            [0xF0, 0x9F, 0x8E, 0xA8],  // 🎨 inside the run
            [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
            [0xC3, 0xA9], [0xC1, 0xBF],  // é, an overlong two-byte one
            [0x80], [0xFF],
        ]
        var failures = 0
        for (k, fault) in faults.enumerated() {
            for place in [0, 1, chinese.count] {  // at the start of the run, in a sequence, at its end
                let inside = Array(pad.utf8) + Array(chinese[..<place]) + fault + Array(chinese[place...])
                for tail in [Array(#"", "x": 1}"#.utf8), [], Array(#"""#.utf8)] {
                    let doc = Array(#"{"n": 1, "t": ""#.utf8) + inside + tail
                    let (plain, deferred) = outcomes(doc)
                    XCTAssertEqual(plain, deferred, "fault \(k) at \(place), tail \(String(decoding: tail, as: UTF8.self))")
                    if case .error = plain { failures += 1 }
                }
                // The run ends the bytes: a three-byte sequence cut at the very end.
                let cut = Array(#"{"t": ""#.utf8) + Array(pad.utf8) + Array(chinese[..<place]) + fault + [0xE4]
                let (plain, deferred) = outcomes(cut)
                XCTAssertEqual(plain, deferred, "fault \(k) at \(place), cut at the end")
            }
        }
        XCTAssertGreaterThan(failures, 60, "the faulty cases did fail")
        // A well-formed run is deferred, and reads as parsed.
        let doc = Array(#"{"t": ""#.utf8) + Array(pad.utf8) + chinese + chinese + Array(#""}"#.utf8)
        guard case .rawString(let raw)? = try? JSONParser.parse(JSONBytes(doc), deferring: ["t"])["t"] else {
            return XCTFail("a long Chinese string was not deferred")
        }
        XCTAssertEqual(raw.string, pad + "博物馆里的画家在清晨的光线中作画，博物馆里的画家在清晨的光线中作画，")
    }

    /// Two collections streamed at once, each member handed over with where it is in the
    /// bytes; parsing those places again gives the same values (issue 14: the artworks are read
    /// again one at a time after the parse), and a place that does not hold one value fails.
    func testMembersHandedOverWithTheirPlacesParseAgainTheSame() throws {
        let doc = Array(#"{"a": {"x": {"k": [1, 2.5, "s"]}, "y": "two", "z": null}, "b": [ {"t": true} , [], "é"], "c": {"kept": 1}}"#.utf8)
        let bytes = JSONBytes(doc)
        var seen: [String: [(String?, JSON, Range<Int>)]] = [:]
        var begun: [String] = []
        func stream(_ key: String) -> JSONStreaming {
            JSONStreaming(key: key, begin: { _ in begun.append(key) }, member: { k, v, at in seen[key, default: []].append((k, v, at)) })
        }
        let tree = try JSONParser.parse(bytes, deferring: [], streaming: [stream("a"), stream("b")])
        XCTAssertEqual(begun, ["a", "b"])
        XCTAssertEqual(tree["a"], .object(JSONObject([])), "streamed members are not kept in the tree")
        XCTAssertEqual(tree["c"]?["kept"], .integer(1))
        XCTAssertEqual(seen["a"]?.map(\.0), ["x", "y", "z"])
        XCTAssertEqual(seen["b"]?.count, 3)
        for (key, members) in seen {
            var again: [Int: JSON] = [:]
            JSONParser.parse(bytes, values: members.map(\.2)) { k, result in again[k] = try? result.get() }
            for (k, m) in members.enumerated() {
                XCTAssertEqual(again[k], m.1, "\(key) member \(k)")
                XCTAssertEqual(String(decoding: doc[m.2], as: UTF8.self), String(decoding: doc[m.2], as: UTF8.self).trimmingCharacters(in: .whitespaces), "no spaces around a place")
            }
        }
        // Places that hold no single value: past the end, empty, half a value, two values.
        let bad = [0..<(doc.count + 5), 3..<3, (seen["a"]![0].2.lowerBound)..<(seen["a"]![0].2.upperBound - 1), 0..<doc.count]
        var failures: [Int] = []
        JSONParser.parse(bytes, values: bad + [0..<doc.count]) { k, result in
            if case .failure = result { failures.append(k) }
        }
        XCTAssertEqual(failures, [0, 1, 2], "a whole document is one value; the rest fail")
        var results: [JSON] = []
        JSONParser.parse(bytes, values: [seen["b"]![0].2, seen["a"]![1].2]) { _, r in if let v = try? r.get() { results.append(v) } }
        XCTAssertEqual(results, [seen["b"]![0].1, .string("two")])
    }

    /// Members past `treesFor` are only checked (issue 48: the artworks were parsed into trees
    /// only to find their places). At every place of a document, each fault gives the same
    /// error at the same line and column whether the members are built or checked; without a
    /// fault both hand over the same places, and the checked ones as empty values of their kind.
    func testCheckedMembersFailAndArePlacedExactlyAsBuiltOnes() {
        let doc = Array(#"{"g": 1, "o": {"1": {"t": "Nymphéas \"à\" \u00e9\ud83c\udf38", "n": [1, -2.5e3, true, null, {"x": []}], "k": {}}, "2": [], "3": "s", "4": {"a": [{"b": "博物馆"}, false]}}, "z": [ {"q": 0} ]}"#.utf8)
        struct Seen: Equatable {
            var begun: [Bool] = []
            var members: [String] = []
        }
        func run(_ bytes: [UInt8], treesFor: Int) -> (Result<JSON, JSONError>, Seen) {
            var seen = Seen()
            let streams = ["o", "z"].map { name in
                JSONStreaming(key: name, treesFor: treesFor, begin: { seen.begun.append($0) }, member: { k, v, at in
                    // Built members compare by kind alone: a checked one is an empty one of its kind.
                    seen.members.append("\(name) \(k ?? "-") \(v.kindName) \(at)")
                })
            }
            let tree = Result<JSON, JSONError> { () throws(JSONError) -> JSON in try JSONParser.parse(JSONBytes(bytes), deferring: [], streaming: streams) }
            return (tree, seen)
        }
        let (whole, wholeSeen) = run(doc, treesFor: .max)
        let (checked, checkedSeen) = run(doc, treesFor: 0)
        XCTAssertEqual(try whole.get(), try checked.get())
        XCTAssertEqual(wholeSeen, checkedSeen)
        XCTAssertEqual(checkedSeen.members.count, 5)
        var built: [JSON] = []
        _ = try? JSONParser.parse(JSONBytes(doc), deferring: [], streaming: [JSONStreaming(key: "o", treesFor: 1, begin: { _ in }, member: { _, v, _ in built.append(v) })])
        XCTAssertEqual(built.count, 4)
        XCTAssertNotEqual(built[0], .object(JSONObject([])), "the first member is built")
        XCTAssertEqual(built[3], .object(JSONObject([])), "a later one is checked, handed over empty")
        XCTAssertEqual(built[2], .string("s"), "a member that is no object nor array is parsed as always")
        let faults: [[UInt8]] = [[], [0x22], [0x5C], [0x7D], [0x5D], [0x2C], [0x3A], [0x78], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x5C, 0x75, 0x31], [0x7B], [0x5B]]
        var failures = 0
        for place in 0..<doc.count {
            for (f, fault) in faults.enumerated() {
                let bytes = Array(doc[..<place]) + fault + Array(doc[(place + 1)...])
                let (a, sa) = run(bytes, treesFor: .max)
                let (b, sb) = run(bytes, treesFor: 0)
                switch (a, b) {
                case (.failure(let x), .failure(let y)):
                    XCTAssertEqual(x, y, "fault \(f) at \(place)")
                    failures += 1
                case (.success(let x), .success(let y)):
                    XCTAssertEqual(x, y, "fault \(f) at \(place)")
                    XCTAssertEqual(sa, sb, "fault \(f) at \(place)")
                default:
                    XCTFail("fault \(f) at \(place): \(a) built, \(b) checked")
                }
            }
        }
        XCTAssertGreaterThan(failures, doc.count * 5, "most faults do fail")
    }
}
