import ArgumentParser
import Foundation
import PulseKit
import PulseKitSQLite
import TOMLKit

/// Settings from three places (issue 43 #5): a flag on the command line, else an environment
/// variable `DOCENT_PULSE_<OPTION>` (`--max-connections` → `DOCENT_PULSE_MAX_CONNECTIONS`), else
/// a key of the TOML file given by `--config FILE` or `DOCENT_PULSE_CONFIG` (`max_connections`
/// or `max-connections`). The file and the environment are turned into the flags they stand
/// for, put before the command's own arguments, so the argument parser checks every value
/// whatever its source, and one list of options (the commands' own declarations, read through
/// the parser's description of them) serves all three: an option added to `serve` is a setting
/// of the file and the environment at once.
///
/// `serve` takes every option from the three places; the staff and curation commands take
/// their store (`database`) from them when neither `--database` nor `--server` is given, so an
/// admin command on the service's machine needs no `--database` again.
struct SettingsSources {
    /// Where a value came from, to name it when it is refused.
    enum Source: Equatable {
        case environment(String)
        case file(path: String, line: Int?, key: String)

        var description: String {
            switch self {
            case .environment(let name): return "the environment's \(name)"
            case .file(let path, let line, let key): return "\(path)\(line.map { " line \($0)" } ?? ""): \(key)"
            }
        }
    }

    /// One option of a command, as the argument parser describes it.
    struct OptionInfo {
        var names: [String]  // long names, the preferred first
        var shortNames: [Character]
        var isFlag: Bool
        var isRepeating: Bool
        var name: String { names[0] }
        var environmentName: String { SettingsSources.environmentName(name) }
        var fileKey: String { name.replacingOccurrences(of: "-", with: "_") }
    }

    /// The arguments the parser is given, and where each added option came from.
    var arguments: [String]
    /// How many of `arguments` name the (sub)command.
    var commandPath = 0
    var sources: [String: Source] = [:]
    /// Said on standard error, the service starts anyway (an unknown variable).
    var warnings: [String] = []

    static let prefix = "DOCENT_PULSE_"
    /// Variables of ours that are not options (the staff token itself, the file's path).
    static let otherVariables: Set<String> = ["DOCENT_PULSE_STAFF_TOKEN", "DOCENT_PULSE_CONFIG"]

    static func environmentName(_ option: String) -> String {
        prefix + option.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The command `arguments` name (its subcommands' names first), and where they end.
    static func command(in arguments: [String], root: ParsableCommand.Type) -> (type: ParsableCommand.Type, path: Int) {
        var type = root
        var i = 0
        while i < arguments.count,
            let sub = type.configuration.subcommands.first(where: { ($0.configuration.commandName ?? $0._commandName) == arguments[i] })
        {
            type = sub
            i += 1
        }
        return (type, i)
    }

    /// The options `command` declares, read from the argument parser's own description.
    static func options(of command: ParsableCommand.Type) -> [OptionInfo] {
        struct Dump: Decodable {
            struct Command: Decodable { var arguments: [Argument]? }
            struct Argument: Decodable {
                struct Name: Decodable {
                    var kind: String
                    var name: String
                }
                var kind: String
                var isRepeating: Bool
                var names: [Name]?
                var preferredName: Name?
            }
            var command: Command
        }
        guard let dump = try? JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8)) else { return [] }
        return (dump.command.arguments ?? []).compactMap { a in
            guard a.kind == "option" || a.kind == "flag" else { return nil }
            var longs = (a.names ?? []).filter { $0.kind == "long" }.map(\.name)
            guard !longs.isEmpty, !["help", "version", "experimental-dump-help", "generate-completion-script"].contains(longs[0]) else { return nil }
            if let p = a.preferredName, p.kind == "long", let at = longs.firstIndex(of: p.name) { longs.swapAt(0, at) }
            let shorts = (a.names ?? []).filter { $0.kind == "short" }.compactMap(\.name.first)
            return OptionInfo(names: longs, shortNames: shorts, isFlag: a.kind == "flag", isRepeating: a.isRepeating)
        }
    }

    /// The options given on the command line (by any of their names).
    static func given(_ arguments: [String], options: [OptionInfo]) -> Set<String> {
        var given: Set<String> = []
        for a in arguments {
            if a == "--" { break }
            if a.hasPrefix("--") {
                let name = String(a.dropFirst(2).prefix { $0 != "=" })
                if let o = options.first(where: { $0.names.contains(name) }) { given.insert(o.name) }
            } else if a.hasPrefix("-"), a.count == 2, let c = a.last, let o = options.first(where: { $0.shortNames.contains(c) }) {
                given.insert(o.name)
            }
        }
        return given
    }

    /// `arguments` (what follows the executable's name) with the settings of the environment
    /// and the file added for the command they name; a file that cannot be used is refused here.
    static func resolve(_ arguments: [String], root: ParsableCommand.Type, serve: ParsableCommand.Type, environment: [String: String]) throws -> SettingsSources {
        let (command, pathEnd) = Self.command(in: arguments, root: root)
        var result = SettingsSources(arguments: arguments, commandPath: pathEnd)
        let options = Self.options(of: command)
        let own = Array(arguments[pathEnd...])
        let given = Self.given(own, options: options)
        let isServe = command == serve
        // Which options these places may set: all of serve's; the store alone for the others,
        // unless the command was pointed at a running service.
        var settable: [OptionInfo]
        if isServe {
            settable = options.filter { $0.name != "config" }
        } else {
            settable = options.filter { $0.name == "database" }
            if given.contains("server") || given.contains("database") { settable = [] }
        }
        guard !settable.isEmpty || isServe else { return result }

        if isServe {
            let known = Set(options.map(\.environmentName)).union(otherVariables)
            for name in environment.keys.sorted() where name.hasPrefix(prefix) && !known.contains(name) {
                // Our tests' own variables and the like: not refused, but a typo is said.
                let guess = Suggestion.closest(to: name.lowercased(), among: Set(known.map { $0.lowercased() }))
                result.warnings.append("\(name) is not a setting of serve and is ignored\(guess.map { "; did you mean \($0.uppercased())?" } ?? "")")
            }
        }

        // The file: --config, else DOCENT_PULSE_CONFIG.
        var configPath: String?
        if let i = own.firstIndex(where: { $0 == "--config" || $0.hasPrefix("--config=") }) {
            configPath = own[i].hasPrefix("--config=") ? String(own[i].dropFirst("--config=".count)) : (i + 1 < own.count ? own[i + 1] : nil)
        } else if let path = environment["DOCENT_PULSE_CONFIG"], !path.isEmpty {
            configPath = path
        }
        var fileValues: [String: (values: [String], source: Source)] = [:]
        if let configPath {
            fileValues = try readFile(configPath, options: isServe ? settable : options.filter { $0.name == "database" }, allOptions: isServe)
        }

        var added: [String] = []
        for option in settable where !given.contains(option.name) {
            let values: [String]
            let source: Source
            if let raw = environment[option.environmentName] {
                values = option.isRepeating ? raw.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) : [raw]
                source = .environment(option.environmentName)
            } else if let fromFile = fileValues[option.name] {
                (values, source) = fromFile
            } else {
                continue
            }
            if option.isFlag {
                guard let v = values.first?.lowercased(), ["true", "false", "1", "0", "yes", "no", "on", "off"].contains(v) else {
                    throw SettingsFailure("\(source.description): \(option.name) is a switch: expected true or false, not '\(values.first ?? "")'")
                }
                if ["true", "1", "yes", "on"].contains(v) { added.append("--\(option.name)") }
            } else {
                for v in values { added.append(contentsOf: ["--\(option.name)", v]) }
            }
            result.sources[option.name] = source
        }
        result.arguments = Array(arguments[..<pathEnd]) + added + own
        return result
    }

    /// The file's settings by option name. Unknown keys, tables and values of no use are refused
    /// with the file, the line and what was expected.
    static func readFile(_ path: String, options: [OptionInfo], allOptions: Bool) throws -> [String: (values: [String], source: Source)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw SettingsFailure("the configuration file \(path) does not exist") }
        guard !isDirectory.boolValue else { throw SettingsFailure("the configuration file \(path) is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else { throw SettingsFailure("cannot read the configuration file \(path) (permission denied?)") }
        guard let text = String(data: data, encoding: .utf8) else { throw SettingsFailure("the configuration file \(path) is not UTF-8 text") }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw SettingsFailure("\(path) line \(e.source.begin.line), column \(e.source.begin.column): not valid TOML: \(e.description)")
        } catch {
            throw SettingsFailure("\(path): not valid TOML (\(error))")
        }
        let lines = keyLines(text)
        let byKey = Dictionary(options.map { ($0.fileKey, $0) }, uniquingKeysWith: { a, _ in a })
        var result: [String: (values: [String], source: Source)] = [:]
        for key in table.keys.sorted() {
            let normal = key.replacingOccurrences(of: "-", with: "_")
            let source = Source.file(path: path, line: lines[key], key: key)
            guard let option = byKey[normal] else {
                // The admin commands read the store alone from the service's file: its other keys
                // are serve's, not mistakes.
                if !allOptions { continue }
                let guess = Suggestion.closest(to: normal, among: Set(byKey.keys))
                throw SettingsFailure(
                    "\(source.description): unknown setting\(guess.map { "; did you mean '\($0)'?" } ?? "") (the settings are serve's options: \(byKey.keys.sorted().joined(separator: ", ")))")
            }
            guard let value = table[key] else { continue }
            var values: [String]
            if let array = value.array {
                guard option.isRepeating else { throw SettingsFailure("\(source.description): expected one value, not a list") }
                values = []
                for item in array {
                    guard let v = scalar(item) else { throw SettingsFailure("\(source.description): expected a list of strings or numbers") }
                    values.append(v)
                }
            } else if let v = scalar(value) {
                values = [v]
            } else {
                throw SettingsFailure("\(source.description): expected a string, a number or true/false, not a table")
            }
            result[option.name] = (values, source)
        }
        return result
    }

    static func scalar(_ value: TOMLValueConvertible) -> String? {
        if let s = value.string { return s }
        if let i = value.int { return String(i) }
        if let d = value.double { return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }
        if let b = value.bool { return b ? "true" : "false" }
        return nil
    }

    /// The line of every top-level `key =` (one pass over the text).
    static func keyLines(_ text: String) -> [String: Int] {
        var lines: [String: Int] = [:]
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let l = raw.drop { $0 == " " || $0 == "\t" }
            if l.hasPrefix("[") { break }
            let key = l.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "\"" }
            guard !key.isEmpty, l.dropFirst(key.count).drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("=") else { continue }
            let name = key.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if lines[name] == nil { lines[name] = i + 1 }
        }
        return lines
    }

    /// A refusal from the parser or a command, with the place of every option it names that
    /// came from the file or the environment ("--max-connections must be at least 1 (from
    /// /etc/docent/pulse.toml line 4: max_connections)").
    func explain(_ message: String) -> String {
        var notes: [String] = []
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) where mentions(message, option: name) {
            notes.append(source.description)
        }
        return notes.isEmpty ? message : "\(message) (from \(notes.joined(separator: "; ")))"
    }

    private func mentions(_ message: String, option: String) -> Bool {
        var rest = Substring(message)
        while let r = rest.range(of: "--\(option)") {
            let next = rest[r.upperBound...].first
            if next == nil || !(next!.isLetter || next!.isNumber || next! == "-") { return true }
            rest = rest[r.upperBound...]
        }
        return false
    }
}

struct SettingsFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
