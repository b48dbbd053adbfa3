import DocentCore
import XCTest

/// The one way reducer tests drive the reducer (after TCA's `TestStore`): reduces `action`
/// and asserts everything it did. The effects must equal `effects` exactly (none, unless
/// said), and the state must equal the state before with `expect` applied to it: a change the
/// test did not describe, or a described change that did not happen, fails.
///
///     send(&s, .keypadDigit("1"), effects: [.timer(...)]) { $0.keypad.input = "1"; ... }
///
/// It returns the effects so a test can go on with them (feed a timer's action back, say).
@discardableResult
public func send(
    _ state: inout AppState, _ action: AppAction, effects: [Effect] = [],
    file: StaticString = #filePath, line: UInt = #line, _ expect: (inout AppState) -> Void = { _ in }
) -> [Effect] {
    var expected = state
    expect(&expected)
    let got = Reducer.reduce(&state, action)
    XCTAssertEqual(got, effects, "effects of \(action)", file: file, line: line)
    if state != expected {
        XCTFail("state after \(action) is not the one described:\n\(describeDifference(expected, state))", file: file, line: line)
    }
    return got
}

/// The top-level fields of two states that differ (a readable failure instead of two dumps).
func describeDifference(_ a: AppState, _ b: AppState) -> String {
    let ma = Mirror(reflecting: a).children, mb = Array(Mirror(reflecting: b).children)
    var out: [String] = []
    for (i, c) in ma.enumerated() where i < mb.count {
        let x = String(describing: c.value), y = String(describing: mb[i].value)
        if x != y { out.append("  \(c.label ?? "?"): expected \(x.prefix(300))\n  \(String(repeating: " ", count: (c.label ?? "?").count)): got      \(y.prefix(300))") }
    }
    return out.isEmpty ? "  (a difference inside a feature's state; compare with ==)" : out.joined(separator: "\n")
}
