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
    public static func load(_ directory: URL) -> Result<[String: [String: String]], Failure> {
        var tables: [String: [String: String]] = [:]
        var origin: [String: String] = [:]  // "code key" -> the file that gave it
        guard isDirectory(directory) else { return .failure(Failure(description: "\(directory.path) is not a folder")) }
        for folder in folders(of: directory) {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
                return .failure(Failure(description: "cannot list \(folder.path)"))
            }
            for file in files.sorted() where file.hasSuffix(".json") {
                let path = folder.appendingPathComponent(file).path
                let code = String(file.dropLast(5))
                guard let data = FileManager.default.contents(atPath: path),
                    let table = try? JSONSerialization.jsonObject(with: data) as? [String: String]
                else { return .failure(Failure(description: "\(path) is not a JSON object of strings")) }
                for (key, text) in table {
                    if let other = origin[code + " " + key] {
                        return .failure(Failure(description: "the key \(key) is in both \(other) and \(path): a key has one home"))
                    }
                    origin[code + " " + key] = path
                    tables[code, default: [:]][key] = text
                }
            }
        }
        guard tables["en"] != nil else { return .failure(Failure(description: "\(directory.path) has no en.json")) }
        return .success(tables)
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }
}
