import DocentCore
import Foundation
import StoreSupport
import TOMLKit

/// Reads the TOML configuration file (the AIC app's Config.plist keys):
///
/// ```toml
/// data = "appData.json"            # a path (relative to this file) or a URL
/// some_feature_key = "…"           # keys a feature declares (Feature.configKeys): strings,
///                                  # whole numbers or true/false, handed over as text
/// print_data_errors = true
/// language = "zh"
/// time_zone = "America/Chicago"    # the museum's; default: the offsets in its event feed
///
/// [url_rewrite]
/// from = "http://internal/"
/// to = "https://public/"
/// ```
///
/// Unknown keys are ignored and reported as warnings; a key of the wrong type is a failure.
public enum ConfigLoader {
    /// The keys this loader understands, for the unknown-key warnings.
    static let topLevelKeys: Set<String> = ["data", "print_data_errors", "url_rewrite", "language", "hyperlinks", "time_zone", "background"]

    /// `$XDG_CONFIG_HOME/docent/config.toml`, or `$HOME/.config/docent/config.toml`.
    public static func defaultPath(environment: [String: String]) -> String {
        Support.xdgPath("XDG_CONFIG_HOME", fallback: ".config", file: "config.toml", environment: environment)
    }

    /// Loads the file at the default path, or the empty configuration if there is none
    /// (having no configuration file is normal; having a broken one is not).
    public static func loadDefault(
        environment: [String: String], featureKeys: Set<String> = [], featureCheck: FeatureCheck? = nil
    ) -> Result<(config: DocentConfig, warnings: [String]), LoadFailure> {
        let path = defaultPath(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return .success((DocentConfig(), [])) }
        return load(path: path, environment: environment, featureKeys: featureKeys, featureCheck: featureCheck)
    }

    /// Loads a configuration file. A missing file is a failure here: the caller asked for it.
    ///
    /// A relative `data` path is resolved against the file's directory, and `~/` against `$HOME`.
    /// What a feature's key's value should be when it cannot be used (`FeatureSet.configProblem`).
    public typealias FeatureCheck = (_ key: String, _ value: String) -> String?

    public static func load(
        path: String, environment: [String: String] = ProcessInfo.processInfo.environment, featureKeys: Set<String> = [], featureCheck: FeatureCheck? = nil
    ) -> Result<(config: DocentConfig, warnings: [String]), LoadFailure> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(LoadFailure("the configuration file \(path) does not exist"))
        }
        guard !isDirectory.boolValue else {
            return .failure(LoadFailure("the configuration file \(path) is a directory"))
        }
        // A device or a FIFO is said as what it is (issue 45: "Permission denied"), and never
        // read: a FIFO would wait for a writer, /dev/zero would never end.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            let kind: String
            switch info.st_mode & S_IFMT {
            case S_IFIFO: kind = "a FIFO"
            case S_IFCHR, S_IFBLK: kind = "a device"
            case S_IFSOCK: kind = "a socket"
            default: kind = "not a regular file"
            }
            return .failure(LoadFailure("the configuration file \(path) is \(kind), not a file"))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            return .failure(LoadFailure("cannot read the configuration file \(path) (\(Support.describe(error)))"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(LoadFailure("the configuration file \(path) is not UTF-8 text"))
        }
        return parse(text, path: path, environment: environment, featureKeys: featureKeys, featureCheck: featureCheck)
    }

    /// Parses configuration text; `path` names the file in messages and anchors relative paths.
    public static func parse(
        _ text: String, path: String, environment: [String: String] = [:], featureKeys: Set<String> = [], featureCheck: FeatureCheck? = nil
    ) -> Result<(config: DocentConfig, warnings: [String]), LoadFailure> {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let where_ = "line \(error.source.begin.line), column \(error.source.begin.column)"
            return .failure(LoadFailure("the configuration file \(path) is not valid TOML at \(where_): \(error.description)"))
        } catch {
            return .failure(LoadFailure("the configuration file \(path) is not valid TOML (\(error))"))
        }

        var config = DocentConfig()
        var warnings: [String] = []
        let problem = { (message: String) in LoadFailure("in the configuration file \(path): \(message)") }

        let known = topLevelKeys.union(featureKeys)
        // The lines of the top-level keys, found in one pass (issue 45: a pass per unknown key
        // took 31 s to start with 4,000 of them).
        let keyLines = lines(in: text)
        for key in table.keys.sorted() where !known.contains(key) {
            // The line, so a typo is found at once (issue 33 #14).
            let at = keyLines[key].map { "line \($0): " } ?? ""
            if let guess = suggestion(for: key, among: known) {
                warnings.append("\(at)unknown key '\(key)' ignored; did you mean '\(guess)'?")
            } else {
                warnings.append("\(at)unknown key '\(key)' ignored")
            }
        }

        if let value = table["data"] {
            guard let data = value.string else { return .failure(problem("data must be a string (a path or URL), not \(describe(value.type))")) }
            let trimmed = data.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return .failure(problem("data must not be empty")) }
            config.dataSource = resolveDataPath(trimmed, configPath: path, environment: environment)
        }
        // The features' own keys (strings, whole numbers or true/false, handed over as text);
        // each feature reads its own at launch.
        // A value the feature cannot use stops the guide here, with the line and the key
        // (issue 47 #17: `kiosk_idle_seconds = "three"` only warned, in a banner cut short).
        for key in featureKeys.sorted() {
            guard let value = table[key] else { continue }
            let at = keyLines[key].map { "line \($0): " } ?? ""
            let text: String
            if let t = value.string {
                text = t
            } else if let flag = value.bool {
                text = flag ? "true" : "false"
            } else if let number = value.int {
                text = String(number)
            } else {
                return .failure(problem("\(at)\(key) must be a string, a whole number or true/false, not \(describe(value.type))"))
            }
            if let why = featureCheck?(key, text) {
                let shown = value.string != nil ? "\"\(text)\"" : text
                return .failure(problem("\(at)\(key) \(why), not \(shown)"))
            }
            config.features[key] = text
        }
        if let value = table["print_data_errors"] {
            guard let flag = value.bool else { return .failure(problem("print_data_errors must be true or false")) }
            config.printDataErrors = flag
        }
        if let value = table["language"] {
            guard let tag = value.string else { return .failure(problem("language must be a string such as \"en\" or \"zh\", not \(describe(value.type))")) }
            guard let language = Language.fromTag(tag) else {
                return .failure(problem("language \"\(tag)\" is not a language tag such as \"en\" or \"zh\""))
            }
            if !language.isKnown { warnings.append("language '\(tag)' is not one the guide knows; English is used where it has no text") }
            config.language = language
        }
        if let value = table["hyperlinks"] {
            guard let text = value.string, let mode = HyperlinkMode(parsing: text) else {
                return .failure(problem("hyperlinks must be \"auto\", \"always\" or \"never\""))
            }
            config.hyperlinks = mode
        }
        if let value = table["background"] {
            guard let text = value.string, let setting = BackgroundSetting(parsing: text) else {
                return .failure(problem("background must be \"auto\", \"light\" or \"dark\""))
            }
            config.background = setting
        }
        if let value = table["time_zone"] {
            guard let name = value.string else { return .failure(problem("time_zone must be a string such as \"America/Chicago\", not \(describe(value.type))")) }
            // Only IANA names: an abbreviation ("CST") or an offset would be ambiguous or ignore
            // daylight saving time.
            guard name.contains("/") || name == "UTC", let zone = TimeZone(identifier: name) else {
                return .failure(problem("time_zone \"\(name)\" is not a time zone name such as \"America/Chicago\" or \"Europe/Paris\""))
            }
            config.timeZone = zone
        }
        if let value = table["url_rewrite"] {
            guard let rewrite = value.table else { return .failure(problem("url_rewrite must be a table with 'from' and 'to'")) }
            for key in rewrite.keys.sorted() where key != "from" && key != "to" {
                warnings.append("unknown key 'url_rewrite.\(key)' ignored")
            }
            guard let fromValue = rewrite["from"], let toValue = rewrite["to"] else {
                return .failure(problem("url_rewrite needs both 'from' and 'to'"))
            }
            guard let from = fromValue.string, let to = toValue.string else {
                return .failure(problem("url_rewrite 'from' and 'to' must be strings"))
            }
            guard !from.isEmpty else { return .failure(problem("url_rewrite 'from' must not be empty")) }
            config.rewrite = URLResolver.Rewrite(from: from, to: to)
        }
        return .success((config, warnings))
    }

    /// The known key a mistyped one most likely meant: at most two edits away (one for keys of
    /// four letters or fewer), the nearest, then the first by name.
    /// The 1-based line where top-level `key` is set (`key =` or `"key" =` at the start of a
    /// line before any table header), or nil.
    /// The 1-based line of every top-level key set in `text` (`key =` or `"key" =` at the start
    /// of a line before any table header), the first when set twice: one pass over the text.
    static func lines(in text: String) -> [String: Int] {
        var out: [String: Int] = [:]
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let l = raw.drop { $0 == " " || $0 == "\t" }
            if l.hasPrefix("[") { break }  // past the top level
            guard let eq = l.firstIndex(of: "=") else { continue }
            var name = l[..<eq]
            while let last = name.last, last == " " || last == "\t" { name = name.dropLast() }
            if name.count >= 2, name.first == "\"", name.last == "\"" { name = name.dropFirst().dropLast() }
            guard !name.isEmpty, !name.contains("\"") else { continue }
            let key = String(name)
            if out[key] == nil { out[key] = i + 1 }
        }
        return out
    }

    public static func suggestion(for key: String, among known: Set<String>) -> String? {
        Suggestion.closest(to: key, among: known)
    }

    /// URLs stay as they are; `~/` is the home directory; other relative paths are relative to
    /// the configuration file's directory.
    static func resolveDataPath(_ data: String, configPath: String, environment: [String: String]) -> String {
        if URLResolver.hasScheme(data) { return data }
        if data.hasPrefix("/") { return Support.normalised(data) }
        if data == "~" || data.hasPrefix("~/") {
            return Support.normalised(Support.joined(Support.home(environment), String(data.dropFirst(data == "~" ? 1 : 2))))
        }
        let configDir = Support.directory(of: Support.absolute(configPath))
        return Support.normalised(Support.joined(configDir, data))
    }

    private static func describe(_ type: TOMLType) -> String {
        switch type {
        case .int: return "an integer"
        case .array: return "an array"
        case .table: return "a table"
        default: return "a \(type)"
        }
    }
}
