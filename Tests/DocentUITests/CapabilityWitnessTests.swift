import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 48: the registry learns a feature's capabilities from witnesses the compiler chose
/// (`Feature.asAddsRows`…), not from runtime casts, which scan every conformance record of the
/// program. A witness is chosen where the feature's conformance to `Feature` (or its view's to
/// `FeatureView`) is declared, so a capability declared somewhere the compiler did not see
/// then (another module's extension) would be silently left out: this checks every
/// registered feature's witnesses against the runtime's casts, both ways.
final class CapabilityWitnessTests: XCTestCase {
    /// A capability: its name, whether the witness answers, whether the runtime's cast does.
    typealias Check<T> = (name: String, witness: (T) -> Bool, cast: (T) -> Bool)

    static var core: [Check<any Feature.Type>] { [
        ("HearsEvents", { $0.asHearsEvents != nil }, { $0 is any HearsEvents.Type }),
        ("AddsRows", { $0.asAddsRows != nil }, { $0 is any AddsRows.Type }),
        ("DecoratesRows", { $0.asDecoratesRows != nil }, { $0 is any DecoratesRows.Type }),
        ("GivesFigures", { $0.asGivesFigures != nil }, { $0 is any GivesFigures.Type }),
        ("WantsPictures", { $0.asWantsPictures != nil }, { $0 is any WantsPictures.Type }),
        ("FillsPlaceholders", { $0.asFillsPlaceholders != nil }, { $0 is any FillsPlaceholders.Type }),
    ] }

    static var view: [Check<any FeatureView.Type>] { [
        ("TakesKeysFirst", { $0.asTakesKeysFirst != nil }, { $0 is any TakesKeysFirst.Type }),
        ("TakesKeysAnywhere", { $0.asTakesKeysAnywhere != nil }, { $0 is any TakesKeysAnywhere.Type }),
        ("DrawsFooter", { $0.asDrawsFooter != nil }, { $0 is any DrawsFooter.Type }),
        ("GivesHelp", { $0.asGivesHelp != nil }, { $0 is any GivesHelp.Type }),
        ("FiltersHints", { $0.asFiltersHints != nil }, { $0 is any FiltersHints.Type }),
        ("TransformsFrame", { $0.asTransformsFrame != nil }, { $0 is any TransformsFrame.Type }),
        ("ChoosesRenderOptions", { $0.asChoosesRenderOptions != nil }, { $0 is any ChoosesRenderOptions.Type }),
        ("RedrawsMoving", { $0.asRedrawsMoving != nil }, { $0 is any RedrawsMoving.Type }),
    ] }

    func testEveryRegisteredFeatureAnswersAsTheRuntimesCastsDo() {
        XCTAssertGreaterThan(Registry.entries.count, 10)
        var seen: Set<String> = []
        for entry in Registry.entries {
            let f = entry.core.type
            for c in Self.core {
                XCTAssertEqual(c.witness(f), c.cast(f), "\(f): \(c.name)")
                if c.cast(f) { seen.insert(c.name) }
            }
            guard let v = entry.viewType else { continue }
            for c in Self.view {
                XCTAssertEqual(c.witness(v), c.cast(v), "\(v): \(c.name)")
                if c.cast(v) { seen.insert(c.name) }
            }
        }
        // Every row of the table is met by some feature, so none of them checks nothing.
        XCTAssertEqual(seen, Set((Self.core.map(\.name) + Self.view.map(\.name))), "a capability no registered feature has")
    }

    /// The registry's capabilities are the conformances: a feature taking part in every
    /// capability of the core and one taking part in none.
    func testTheWitnessesAreTheConformances() {
        XCTAssertNotNil(RegistryTests.Early.asHearsEvents)
        XCTAssertNotNil(RegistryTests.Early.asAddsRows)
        XCTAssertNil(RegistryTests.Early.asDecoratesRows)
        XCTAssertNil(RegistryTests.Early.asGivesFigures)
        XCTAssertEqual(AnyFeature(RegistryTests.Early.self).capabilities, [.events, .rows])
    }
}
