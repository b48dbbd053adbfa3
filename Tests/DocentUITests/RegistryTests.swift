import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 28: one registry, whose precedence is checked when it is built; the list's order
/// decides nothing. Issue 46: what a feature takes part in is the protocols it conforms to,
/// and the order among those taking part is before/after relations between features, checked
/// for cycles and for features left unordered.
final class RegistryTests: XCTestCase {
    // Small features for the checks: each conforms to what it takes part in.
    enum Early: Feature, HearsEvents, AddsRows {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("early")
        static let initialState = 0
        static let listensTo: Set<FeatureEvent.Kind> = [.tick]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
        static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] { [] }
        static func rows(for slot: RowSlot, _ state: AppState) -> [Row] { [] }
    }
    enum Late: Feature, HearsEvents, AddsRows {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("late")
        static let initialState = 0
        static let after = [Early.id]
        static let listensTo: Set<FeatureEvent.Kind> = [.tick, .startOver]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
        static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] { [] }
        static func rows(for slot: RowSlot, _ state: AppState) -> [Row] { [] }
    }
    /// After Early like Late, but nothing says whether before or after Late.
    enum Clash: Feature, AddsRows {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("clash")
        static let initialState = 0
        static let after = [Early.id]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
        static func rows(for slot: RowSlot, _ state: AppState) -> [Row] { [] }
    }
    enum Deaf: Feature, HearsEvents {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("early")
        static let initialState = 0
        static let listensTo: Set<FeatureEvent.Kind> = []
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
        static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] { [] }
    }
    // Three features that each say they go after the one before, round.
    enum Ring1: Feature {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("ring1")
        static let initialState = 0
        static let after = [FeatureID("ring3")]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
    }
    enum Ring2: Feature {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("ring2")
        static let initialState = 0
        static let after = [Ring1.id]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
    }
    enum Ring3: Feature {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("ring3")
        static let initialState = 0
        static let after = [Ring2.id]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
    }

    func message(_ features: [AnyFeature]) -> String? {
        do {
            _ = try FeatureSet(features)
            return nil
        } catch {
            return error.description
        }
    }

    func testTheGuidesRegistryBuilds() throws {
        let set = try Registry.make()
        XCTAssertEqual(set.ids.count, Registry.entries.count)
        XCTAssertEqual(Set(set.ids).count, set.ids.count)
    }

    func testADuplicateIDIsAnErrorNeverDropped() {
        XCTAssertEqual(message([AnyFeature(Early.self), AnyFeature(Deaf.self)]), "two features are registered as early")
    }

    func testTwoFeaturesOfOneCapabilityLeftUnorderedAreAnError() {
        XCTAssertEqual(
            message([AnyFeature(Early.self), AnyFeature(Late.self), AnyFeature(Clash.self)]),
            "late and clash both take part in rows and neither is stated before the other: say which goes first")
        XCTAssertNil(message([AnyFeature(Early.self), AnyFeature(Late.self)]), "late is stated after early")
        XCTAssertNil(message([AnyFeature(Early.self), AnyFeature(Clash.self)]), "clash is stated after early")
    }

    /// A cycle in the stated order is an error when the registry is built.
    func testACycleInTheOrderIsAnError() {
        XCTAssertEqual(
            message([AnyFeature(Ring1.self), AnyFeature(Ring2.self), AnyFeature(Ring3.self)]),
            "the features' order is a cycle: ring2 before ring3 before ring1 before ring2")
        XCTAssertNil(message([AnyFeature(Ring1.self), AnyFeature(Ring2.self)]), "no cycle without ring3's relation")
    }

    func testHearingEventsButListeningToNoneIsAnError() {
        XCTAssertEqual(message([AnyFeature(Deaf.self)]), "early hears events but listens to none")
    }

    /// What a feature takes part in is what it conforms to, nothing else.
    func testCapabilitiesAreFoundByConformance() throws {
        let set = try FeatureSet([AnyFeature(Clash.self), AnyFeature(Early.self)])
        XCTAssertEqual(set.taking(.rows).map(\.id.rawValue), ["early", "clash"])
        XCTAssertEqual(set.taking(.events).map(\.id.rawValue), ["early"])
        XCTAssertEqual(set.taking(.figure).map(\.id.rawValue), [])
        XCTAssertEqual(AnyFeature(Clash.self).capabilities, [.rows])
    }

    /// The guide's precedence, as the features' relations give it (the order the priority
    /// table of issue 28 gave, every capability compared); the registry's list in reverse
    /// gives the same, so nothing depends on where a feature's line is.
    func testPrecedenceIsTheDeclaredTableNotTheListOrder() throws {
        let expected: [Capability: [String]] = [
            .events: ["home", "keypad", "tours", "offline", "player", "pictures", "map", "search", "member", "pulse", "kiosk", "scripts"],
            .keysFirst: ["kiosk"],
            .keysAnywhere: ["home", "keypad", "tours", "player", "map", "search", "pulse"],
            .footer: ["player"],
            .moving: ["player"],
            .figure: ["pictures"],
            .picture: ["home", "tours", "player", "search"],
            .rows: ["tours", "offline", "member", "pulse"],
            .decorate: ["pulse"],
            .help: ["tours", "player", "pulse"],
            .placeholders: ["member"],
            // Registered by the features that cut across the guide (issue 46).
            .hints: ["kiosk"],
            .frame: ["scripts", "screenReader"],
            .renderOptions: ["kiosk", "screenReader"],
        ]
        let forward = try Registry.make()
        let backward = try FeatureSet(Array(Registry.entries.reversed()))
        XCTAssertEqual(Set(forward.all.flatMap(\.capabilities)), Set(expected.keys), "every capability is compared")
        for c in expected.keys.sorted() {
            XCTAssertEqual(forward.taking(c).map(\.id.rawValue), expected[c], "\(c)")
            XCTAssertEqual(backward.taking(c).map(\.id.rawValue), expected[c], "\(c) reversed")
            XCTAssertEqual(forward.views(c).map(\.id.rawValue), expected[c], "\(c) views")
        }
        XCTAssertEqual(forward.listening(to: .startOver).map(\.id.rawValue), ["keypad", "tours", "offline", "player", "search", "member", "pulse"])
        XCTAssertEqual(backward.listening(to: .startOver).map(\.id.rawValue), ["keypad", "tours", "offline", "player", "search", "member", "pulse"])
        // Each moment's listeners in the order the events' priorities gave them.
        for k in FeatureEvent.Kind.allCases {
            let events = expected[.events]!
            let heard = events.filter { id in forward.all.first { $0.id.rawValue == id }!.listensTo.contains(k) }
            XCTAssertEqual(forward.listening(to: k).map(\.id.rawValue), heard, "\(k)")
            XCTAssertEqual(backward.listening(to: k).map(\.id.rawValue), heard, "\(k) reversed")
        }
    }

    /// A feature hears only what it listens to, in the stated order.
    func testEventsReachOnlyTheirListenersInOrder() throws {
        let set = try FeatureSet([AnyFeature(Late.self), AnyFeature(Early.self)])
        XCTAssertEqual(set.listening(to: .tick).map(\.id.rawValue), ["early", "late"])
        XCTAssertEqual(set.listening(to: .startOver).map(\.id.rawValue), ["late"])
        XCTAssertEqual(set.listening(to: .navigated).map(\.id.rawValue), [])
    }
}
