import DocentJSON
import Foundation

/// Reads the guide's UI string tables from disk: the one place that knows where they lie
/// (issue 46: each feature keeps its text in its own folder).
///
/// A strings folder holds the shared tables (`<code>.json`) and, installed, one folder per
/// feature with that feature's (`<Name>/<code>.json`, as `scripts/install.sh` lays them out).
/// A source tree's `Resources/strings` has the shared tables only: the features' are in
/// `Sources/Features/<Name>/Strings/`, found from it. A key in two tables is an error, so two
/// features cannot quietly take each other's text.
public enum StringFiles {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The folders whose `<code>.json` tables make up the strings of `directory`.
    public static func folders(of directory: URL) -> [URL] {
        let fm = FileManager.default
        var folders = [directory]
        let subfolders = ((try? fm.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        for name in subfolders where isDirectory(directory.appendingPathComponent(name)) {
            folders.append(directory.appendingPathComponent(name))
        }
        // A source tree: Resources/strings beside Sources/Features/<Name>/Strings.
        let features = directory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/Features")
        if directory.lastPathComponent == "strings", directory.deletingLastPathComponent().lastPathComponent == "Resources", isDirectory(features) {
            for name in ((try? fm.contentsOfDirectory(atPath: features.path)) ?? []).sorted() {
                let strings = features.appendingPathComponent(name).appendingPathComponent("Strings")
                if isDirectory(strings) { folders.append(strings) }
            }
        }
        return folders
    }

    /// Every language's table (by its file's name: `en`, `zh-Hant`…), the shared and the
    /// features' merged. English must be there.
    ///
    /// Read at every start (about 90 files), so with the project's own parser, not
    /// Foundation's: `JSONSerialization` to `Any` and a cast of each table took a fifth of the
    /// guide's start before its first frame (issue 48).
    public static func load(_ directory: URL) -> Result<[String: [String: String]], Failure> {
        var tables: [String: [String: String]] = [:]
        var read: [String: [String]] = [:]  // code -> the files read for it, in order
        guard isDirectory(directory) else { return .failure(Failure(description: "\(directory.path) is not a folder")) }
        for folder in folders(of: directory) {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
                return .failure(Failure(description: "cannot list \(folder.path)"))
            }
            for file in files.sorted() where file.hasSuffix(".json") {
                let path = folder.path + "/" + file
                let code = String(file.dropLast(5))
                guard let fields = stringFields(atPath: path) else {
                    return .failure(Failure(description: "\(path) is not a JSON object of strings"))
                }
                var table = tables.removeValue(forKey: code) ?? [:]
                for (key, text) in fields where table.updateValue(text, forKey: key) != nil {
                    // Rare: which file gave it first is looked for only now.
                    let other = (read[code] ?? []).first { stringFields(atPath: $0)?.contains { $0.0 == key } ?? false } ?? path
                    if other == path { return .failure(Failure(description: "the key \(key) is twice in \(path)")) }
                    return .failure(Failure(description: "the key \(key) is in both \(other) and \(path): a key has one home"))
                }
                tables[code] = table
                read[code, default: []].append(path)
            }
        }
        guard tables["en"] != nil else { return .failure(Failure(description: "\(directory.path) has no en.json")) }
        return .success(tables)
    }

    /// The fields of the JSON object of strings at `path`, nil if it is anything else.
    private static func stringFields(atPath path: String) -> [(String, String)]? {
        guard let data = FileManager.default.contents(atPath: path),
            case .object(let object)? = try? JSONParser.parse([UInt8](data))
        else { return nil }
        var fields: [(String, String)] = []
        fields.reserveCapacity(object.count)
        for (key, value) in object.fields {
            guard case .string(let text) = value else { return nil }
            fields.append((key, text))
        }
        return fields
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }
}
