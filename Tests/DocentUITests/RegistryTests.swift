import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 28: one registry, whose precedence is stated as data (a priority per capability) and
/// checked when it is built; the list's order decides nothing.
final class RegistryTests: XCTestCase {
    // Small features for the checks: each states what it takes part in.
    enum Early: Feature {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("early")
        static let initialState = 0
        static let order: [Capability: Int] = [.events: 1, .keysAnywhere: 5]
        static let listensTo: Set<FeatureEvent.Kind> = [.tick]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
    }
    enum Late: Feature {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("late")
        static let initialState = 0
        static let order: [Capability: Int] = [.events: 2, .keysAnywhere: 6]
        static let listensTo: Set<FeatureEvent.Kind> = [.tick, .startOver]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
    }
    enum Clash: Feature {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("clash")
        static let initialState = 0
        static let order: [Capability: Int] = [.events: 3, .keysAnywhere: 5]
        static let listensTo: Set<FeatureEvent.Kind> = [.tick]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
    }
    enum Deaf: Feature {
        typealias State = Int
        typealias Action = Int
        static let id = FeatureID("early")
        static let initialState = 0
        static let listensTo: Set<FeatureEvent.Kind> = [.tick]
        static func reduce(_ state: inout AppState, _ action: Int) -> [DocentCore.Effect] { [] }
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

    func testTwoFeaturesAtOnePriorityOfOneCapabilityAreAnError() {
        XCTAssertEqual(
            message([AnyFeature(Early.self), AnyFeature(Late.self), AnyFeature(Clash.self)]),
            "early and clash both state priority 5 for keysAnywhere: say which goes first")
        XCTAssertNil(message([AnyFeature(Early.self), AnyFeature(Late.self)]), "5 and 6 are distinct")
    }

    func testListeningWithoutAnEventsPriorityIsAnError() {
        XCTAssertEqual(message([AnyFeature(Deaf.self)]), "early listens to tick but states no priority for events")
    }

    /// The guide's precedence, as stated by the features (lower first); the registry's list
    /// in reverse gives the same, so nothing depends on where a feature's line is.
    func testPrecedenceIsTheDeclaredTableNotTheListOrder() throws {
        let expected: [Capability: [String]] = [
            .events: ["home", "keypad", "tours", "offline", "player", "pictures", "map", "search", "member", "pulse", "kiosk", "scripts"],
            .keysFirst: ["kiosk"],
            .keysAnywhere: ["home", "keypad", "tours", "player", "map", "search", "pulse"],
            .footer: ["player"],
            .figure: ["pictures"],
            .picture: ["home", "tours", "player", "search"],
            .rows: ["tours", "offline", "member", "pulse"],
            .decorate: ["pulse"],
            .help: ["tours", "player", "pulse"],
            .placeholders: ["member"],
        ]
        let forward = try Registry.make()
        let backward = try FeatureSet(Array(Registry.entries.reversed()))
        for c in Capability.allCases {
            XCTAssertEqual(forward.taking(c).map(\.id.rawValue), expected[c], "\(c)")
            XCTAssertEqual(backward.taking(c).map(\.id.rawValue), expected[c], "\(c) reversed")
            XCTAssertEqual(forward.views(c).map(\.id.rawValue), expected[c], "\(c) views")
        }
        XCTAssertEqual(forward.listening(to: .startOver).map(\.id.rawValue), ["keypad", "tours", "offline", "player", "search", "member", "pulse"])
        XCTAssertEqual(backward.listening(to: .startOver).map(\.id.rawValue), ["keypad", "tours", "offline", "player", "search", "member", "pulse"])
    }

    /// Issue 46: the before/after relations the features state give, for every capability and
    /// every moment, exactly the order of the priority table they replace.
    func testTheRelationsGiveThePriorityTablesOrder() throws {
        let set = try Registry.make()
        for c in Capability.allCases {
            let table = set.taking(c).map(\.id)
            XCTAssertEqual(try set.relations.sorted(table.reversed(), for: c.rawValue), table, "\(c)")
        }
        for k in FeatureEvent.Kind.allCases {
            let table = set.listening(to: k).map(\.id)
            XCTAssertEqual(try set.relations.sorted(table.reversed(), for: "events (\(k))"), table, "\(k)")
        }
    }

    /// A cycle in the stated order is an error when the registry is built.
    func testACycleInTheOrderIsAnError() {
        XCTAssertEqual(
            message([AnyFeature(Ring1.self), AnyFeature(Ring2.self), AnyFeature(Ring3.self)]),
            "the features' order is a cycle: ring2 before ring3 before ring1 before ring2")
        XCTAssertNil(message([AnyFeature(Ring1.self), AnyFeature(Ring2.self)]), "no cycle without ring3's relation")
    }

    /// Two features taking part in one thing with no relation between them are an error.
    func testTwoFeaturesLeftUnorderedAreAnError() throws {
        let set = try FeatureSet([AnyFeature(Early.self), AnyFeature(Late.self)])
        XCTAssertThrowsError(try set.relations.sorted([Late.id, Early.id], for: "keysAnywhere")) {
            XCTAssertEqual(($0 as? RegistryError)?.description, "early and late both take part in keysAnywhere and neither is stated before the other: say which goes first")
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
