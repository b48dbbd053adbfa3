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
    func testEveryRegisteredFeatureAnswersAsTheRuntimesCastsDo() {
        XCTAssertGreaterThan(Registry.entries.count, 10)
        for entry in Registry.entries {
            let f = entry.core.type
            let name = "\(f)"
            XCTAssertEqual(f.asHearsEvents != nil, f is any HearsEvents.Type, "\(name): HearsEvents")
            XCTAssertEqual(f.asAddsRows != nil, f is any AddsRows.Type, "\(name): AddsRows")
            XCTAssertEqual(f.asDecoratesRows != nil, f is any DecoratesRows.Type, "\(name): DecoratesRows")
            XCTAssertEqual(f.asGivesFigures != nil, f is any GivesFigures.Type, "\(name): GivesFigures")
            XCTAssertEqual(f.asWantsPictures != nil, f is any WantsPictures.Type, "\(name): WantsPictures")
            XCTAssertEqual(f.asFillsPlaceholders != nil, f is any FillsPlaceholders.Type, "\(name): FillsPlaceholders")
            guard let v = entry.viewType else { continue }
            let view = "\(v)"
            XCTAssertEqual(v.asTakesKeysFirst != nil, v is any TakesKeysFirst.Type, "\(view): TakesKeysFirst")
            XCTAssertEqual(v.asTakesKeysAnywhere != nil, v is any TakesKeysAnywhere.Type, "\(view): TakesKeysAnywhere")
            XCTAssertEqual(v.asDrawsFooter != nil, v is any DrawsFooter.Type, "\(view): DrawsFooter")
            XCTAssertEqual(v.asGivesHelp != nil, v is any GivesHelp.Type, "\(view): GivesHelp")
            XCTAssertEqual(v.asFiltersHints != nil, v is any FiltersHints.Type, "\(view): FiltersHints")
            XCTAssertEqual(v.asTransformsFrame != nil, v is any TransformsFrame.Type, "\(view): TransformsFrame")
            XCTAssertEqual(v.asChoosesRenderOptions != nil, v is any ChoosesRenderOptions.Type, "\(view): ChoosesRenderOptions")
        }
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
