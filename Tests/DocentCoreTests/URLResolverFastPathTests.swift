import Foundation
import XCTest

@testable import DocentCore
@testable import DocentReading

/// `URLResolver.resolve`'s fast path for plain http(s) URLs (issue 48) answers what the
/// general path (`resolveAny`, Foundation's `URL(string:)`) answers, and only takes the
/// strings it is sure of.
final class URLResolverFastPathTests: XCTestCase {
    private let resolvers = [URLResolver(base: "/museum/appData.json"), URLResolver(base: "https://cms.example.org/app/appData.json")]

    func testPlainURLsAreTakenAndAnsweredAsFoundationDoes() {
        let plain = [
            "http://localhost:8888/placeholder.png",
            "https://media.example-museum.org/iiif/2/0a1b2c3d-0000-1111-2222-333344445555/full/843,/0/default.jpg",
            "https://media.example-museum.org/sites/default/files/audio/100000-harbour-at-dawn.mp3",
            "http://a.b:8080/x?y=1&z=%20#frag",
            "https://h.example/p;q/(a)*!$'+,=@:~_.-",
            "http://x.y",
            "https://h.example?only=query",
            "https://h.example#only-fragment",
            "HTTPS://not.taken/because/of/the/capitals",  // upper-case scheme: left to Foundation
        ]
        for s in plain {
            let taken = URLResolver.isPlainHTTPURL(s)
            XCTAssertEqual(taken, !s.hasPrefix("HTTPS"), s)
            XCTAssertNotNil(URL(string: s), "Foundation refuses \(s)")
            for r in resolvers {
                XCTAssertEqual(r.resolve(s), r.resolveAny(s), s)
                XCTAssertEqual(r.resolve(s), s)
            }
        }
    }

    func testAnythingUnusualIsLeftToTheGeneralPath() {
        let unusual = [
            " https://h.example/a.mp3", "https://h.example/a.mp3 ", "https://h.example/a b.mp3", "https://h.example/a\n.mp3",
            "https://h.example/a\0.mp3", "https://h.example/é.mp3", "https://user@h.example/a", "https://h..example/a",
            "https://.h.example/a", "https://h.example./a", "https://h.example:/a", "https://h.example:123456/a",
            "https://h.example/a%2", "https://h.example/a%zz", "https://h.example/a#b#c", "https://[::1]/a", "https://h.example/a|b",
            "https://h.example/a\"b", "https://h.example/a<b>", "https://h.example/a\\b", "https://h.example/a{b}", "https://h.example/a^b",
            "https://h.example/a`b", "https://", "http:/h.example/a", "ftp://h.example/a", "https:h.example", "https://h_example/a",
            "audio/10.mp3", "/abs/path.mp3", "",
        ]
        for s in unusual {
            XCTAssertFalse(URLResolver.isPlainHTTPURL(s), s)
            for r in resolvers { XCTAssertEqual(r.resolve(s), r.resolveAny(s), s) }
        }
    }

    /// Seeded random strings of URL-ish pieces: whatever the fast path takes, Foundation
    /// accepts and the general path returns unchanged.
    func testRandomURLsAgreeWithTheGeneralPath() {
        var rng = SplitMix(seed: 48)
        let pieces = [
            "http://", "https://", "h", "example", ".", "org", ":", "80", "/", "a", "%2F", "%", "?", "=", "&", "#", "-", "_", "~", "@",
            "!", "$", "'", "(", ")", "*", "+", ",", ";", " ", "é", "[", "]", "|", "..", "9", "Z",
        ]
        var taken = 0
        for _ in 0..<20000 {
            var s = rng.next() % 4 == 0 ? "" : (rng.next() % 2 == 0 ? "https://" : "http://")
            for _ in 0..<Int(rng.next() % 12) { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
            if URLResolver.isPlainHTTPURL(s) {
                taken += 1
                XCTAssertNotNil(URL(string: s), s)
                for r in resolvers { XCTAssertEqual(r.resolveAny(s), s, s) }
            }
        }
        XCTAssertGreaterThan(taken, 200, "the fast path took too few of the random strings to say anything")
    }

    private struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
