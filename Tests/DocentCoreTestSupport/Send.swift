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
/// Used by DocentCoreTests directly and by the UI and app tests through DocentTestSupport.
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

/// The same, for effects that carry the state after the action (`.persist(settings)`): they
/// are computed from the described state, so the test states them once.
///
///     send(&s, .selectTab(.map), effects: { [.persist($0.settings)] }) { $0.tab = .map }
@discardableResult
public func send(
    _ state: inout AppState, _ action: AppAction, effects: (AppState) -> [Effect],
    file: StaticString = #filePath, line: UInt = #line, _ expect: (inout AppState) -> Void = { _ in }
) -> [Effect] {
    var expected = state
    expect(&expected)
    return send(&state, action, effects: effects(expected), file: file, line: line, expect)
}

/// Brings a state somewhere before the test proper: reduces `actions` in order and asserts
/// nothing (what they do is pinned by the tests that `send` them). It returns their effects
/// for a caller that runs them (the search index, say).
@discardableResult
public func prepare(_ state: inout AppState, _ actions: AppAction...) -> [Effect] {
    actions.flatMap { Reducer.reduce(&state, $0) }
}

/// Where two states differ, as paths to the innermost differing values (into features'
/// states too), so a failure reads `featureStates.boxes[map].value.zoom: expected 2, got 3`.
func describeDifference(_ a: AppState, _ b: AppState) -> String {
    var out: [String] = []
    difference(a, b, path: "", depth: 0, into: &out)
    return out.isEmpty ? "  (a difference not visible in the values' descriptions; compare with ==)" : out.joined(separator: "\n")
}

private func difference(_ a: Any, _ b: Any, path: String, depth: Int, into out: inout [String]) {
    let x = String(describing: a), y = String(describing: b)
    guard x != y else { return }
    let ma = Mirror(reflecting: a), mb = Mirror(reflecting: b)
    let before = out.count
    if depth < 12, ma.displayStyle == mb.displayStyle, !ma.children.isEmpty {
        if ma.displayStyle == .dictionary {
            // Entries by key: two equal dictionaries may list them in different orders.
            func entries(_ m: Mirror) -> [String: Any] {
                var d: [String: Any] = [:]
                for c in m.children {
                    let kv = Array(Mirror(reflecting: c.value).children)
                    if kv.count == 2 { d[String(describing: kv[0].value)] = kv[1].value }
                }
                return d
            }
            let da = entries(ma), db = entries(mb)
            let absent = path.hasSuffix("boxes") ? "no entry (the feature's initial state)" : "no entry"
            for k in Set(da.keys).union(db.keys).sorted() {
                switch (da[k], db[k]) {
                case let (u?, v?): difference(u, v, path: "\(path)[\(k)]", depth: depth + 1, into: &out)
                case let (u?, nil): out.append("  \(path)[\(k)]: expected \(String(describing: u).prefix(300)), got \(absent)")
                case let (nil, v?): out.append("  \(path)[\(k)]: expected \(absent), got \(String(describing: v).prefix(300))")
                case (nil, nil): break
                }
            }
            // Equal entries listed in another order are no difference.
            return
        } else if ma.displayStyle == .set {
            let ea = ma.children.map { String(describing: $0.value) }.sorted(), eb = mb.children.map { String(describing: $0.value) }.sorted()
            if ea == eb { return }
        } else {
            let ca = Array(ma.children), cb = Array(mb.children)
            if ca.count == cb.count, zip(ca, cb).allSatisfy({ $0.label == $1.label }) {
                for (i, (u, v)) in zip(ca, cb).enumerated() {
                    let name = u.label.map { path.isEmpty ? $0 : "\(path).\($0)" } ?? "\(path)[\(i)]"
                    difference(u.value, v.value, path: name, depth: depth + 1, into: &out)
                }
            }
        }
    }
    if out.count == before {
        out.append("  \(path.isEmpty ? "state" : path): expected \(x.prefix(300))\n  \(String(repeating: " ", count: max(1, path.count))): got      \(y.prefix(300))")
    }
}

/// `send` for one scoped feature alone (issue 28): its reducer gets its own state and a
/// read-only context, and the test states exactly the effects and the requests it returns
/// (what it asks of the shared UI), and its state change. Nothing shared can change: the
/// feature has no way to write it.
///
///     sendScoped(KioskFeature.self, &k, .idle, context, requests: [.send(.startOver), .show(...)]) { $0.typed = nil }
@discardableResult
public func sendScoped<F: ScopedFeature>(
    _ feature: F.Type, _ state: inout F.State, _ action: F.Action, _ context: FeatureContext,
    effects: [Effect] = [], requests: [UIRequest] = [],
    file: StaticString = #filePath, line: UInt = #line, _ expect: (inout F.State) -> Void = { _ in }
) -> Outcome {
    var expected = state
    expect(&expected)
    let got = F.reduce(&state, action, context)
    XCTAssertEqual(got.effects, effects, "effects of \(action)", file: file, line: line)
    XCTAssertEqual(got.requests, requests, "requests of \(action)", file: file, line: line)
    XCTAssertEqual(state, expected, "state after \(action) is not the one described", file: file, line: line)
    return got
}

/// The same for a moment the feature listens to.
@discardableResult
public func reactScoped<F: ScopedFeature>(
    _ feature: F.Type, _ state: inout F.State, _ event: FeatureEvent, _ context: FeatureContext,
    effects: [Effect] = [], requests: [UIRequest] = [],
    file: StaticString = #filePath, line: UInt = #line, _ expect: (inout F.State) -> Void = { _ in }
) -> Outcome {
    var expected = state
    expect(&expected)
    let got = F.react(to: event, &state, context)
    XCTAssertEqual(got.effects, effects, "effects of \(event)", file: file, line: line)
    XCTAssertEqual(got.requests, requests, "requests of \(event)", file: file, line: line)
    XCTAssertEqual(state, expected, "state after \(event) is not the one described", file: file, line: line)
    return got
}
