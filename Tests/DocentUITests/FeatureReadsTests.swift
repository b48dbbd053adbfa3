import Foundation
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 46: a feature declares the features whose state it reads (`Feature.reads`), and the
/// declaration is checked against its folder, both ways: a read not declared fails, and so does
/// a declared read the folder no longer makes.
///
/// A read is, in the feature's folder (`Sources/Features/<Name>/`, every layer): another
/// feature's state through the context (`state(of: X.self)`, `box(X.self)`, `route(of: X.self)`,
/// `has(X.self)`) or through its whole-state accessor (`state.player`, `.tour`…: the `var`s of an
/// `extension AppState` in the owner's folder, public or internal to DocentCore). The modes a feature publishes on the
/// context (the `public var`s of an `extension FeatureContext`: `screenReader`,
/// `sharedTerminal`) are not state: reading them is what they are for.
final class FeatureReadsTests: XCTestCase {
    struct Folder {
        let name: String
        let sources: [String]
    }

    static let featuresRoot = UIFixtures.repoRoot.appendingPathComponent("Sources/Features")

    static func folders() throws -> [Folder] {
        try FileManager.default.contentsOfDirectory(atPath: featuresRoot.path).sorted().map { name in
            let root = featuresRoot.appendingPathComponent(name)
            var sources: [String] = []
            let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let u = e?.nextObject() as? URL {
                guard u.pathExtension == "swift", !u.lastPathComponent.hasSuffix("StringKeys.swift") else { continue }
                // Comments say what a feature is about; only code reads.
                let text = try String(contentsOf: u, encoding: .utf8)
                sources.append(text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
                }.joined(separator: "\n"))
            }
            return Folder(name: name, sources: sources)
        }
    }

    static func matches(_ pattern: String, _ text: String) throws -> [String] {
        let re = try NSRegularExpression(pattern: pattern, options: .dotMatchesLineSeparators)
        return re.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The reads a folder makes, by owner folder; and the registry's features by folder.
    func testEveryFeatureDeclaresTheFeaturesWhoseStateItReadsAndNoOther() throws {
        let folders = try Self.folders()
        // Which folder each registered feature's type is declared in.
        var folderOfType: [String: String] = [:]
        for folder in folders {
            for text in folder.sources {
                for type in try Self.matches(#"public enum (\w+Feature)\b"#, text) { folderOfType[type] = folder.name }
            }
        }
        var folderOfID: [FeatureID: String] = [:]
        var typeOfFolder: [String: any Feature.Type] = [:]
        for f in Registry.features.all {
            let name = String(describing: f.type)
            guard let folder = folderOfType[name] else { continue }
            folderOfID[f.id] = folder
            typeOfFolder[folder] = f.type
        }
        XCTAssertGreaterThanOrEqual(typeOfFolder.count, 13, "the registered features are found in their folders: \(typeOfFolder.keys.sorted())")
        // The whole-state accessors, and the context's modes, by owner.
        var accessor: [String: String] = [:]
        var modes: Set<String> = []
        for folder in folders {
            for text in folder.sources {
                for block in try Self.matches(#"extension AppState \{(.*?)\n\}"#, text) {
                    for name in try Self.matches(#"(?:public )?var (\w+)\s*:"#, block) { accessor[name] = folder.name }
                }
                for block in try Self.matches(#"extension FeatureContext \{(.*?)\n\}"#, text) {
                    modes.formUnion(try Self.matches(#"public var (\w+)\s*:"#, block))
                }
            }
        }
        XCTAssertNotNil(accessor["player"], "the accessors are found")
        var problems: [String] = []
        for folder in folders {
            guard let type = typeOfFolder[folder.name] else { continue }
            var read: Set<String> = []
            for text in folder.sources {
                for name in try Self.matches(#"\b(?:state|s|\$0)\.(\w+)\b"#, text) where !modes.contains(name) {
                    if let owner = accessor[name], owner != folder.name { read.insert(owner) }
                }
                for t in try Self.matches(#"(?:state\(of: |box\(|route\(of: |has\()(\w+Feature)\.self"#, text) {
                    if let owner = folderOfType[t], owner != folder.name { read.insert(owner) }
                }
            }
            let declared = Set(type.reads.compactMap { folderOfID[$0] })
            if read != declared {
                problems.append("\(folder.name) reads \(read.sorted()) but declares \(declared.sorted())")
            }
        }
        XCTAssertEqual(problems, [], "state `reads = [X.id, …]` in the feature (or stop reading)")
    }

    /// The context's whole state (`FeatureContext.root`, `package`) is for the shared UI's hooks
    /// (`keyAction`, `keyHelp`); a feature's folder is in the same targets, so the access level
    /// alone does not keep it out: this does. (`Route.root(of:)` is a call, not the property.)
    func testNoFeatureReadsTheContextsWholeState() throws {
        var found: [String] = []
        for folder in try Self.folders() {
            for text in folder.sources {
                if try !Self.matches(#"(\.root)\b(?!\s*\()"#, text).isEmpty { found.append(folder.name) }
            }
        }
        XCTAssertEqual(found, [], "a feature reads the context's properties and hooks, not `root`")
        // The pattern finds the property where it is used.
        XCTAssertEqual(try Self.matches(#"(\.root)\b(?!\s*\()"#, "let s = context.root\nlet r = Route.root(of: .home)"), [".root"])
    }
}
