import Foundation
import StringFiles

/// Paths inside the repository, found from this file's location.
enum Repo {
    /// `<repo>`: this file is `<repo>/Tests/EndToEndTests/Support/Fixtures.swift`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // EndToEndTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The debug binary that `swift build` leaves behind.
    static var docent: String { root.appendingPathComponent(".build/debug/docent").path }
    static var sampleData: String { root.appendingPathComponent("SampleData/appData.json").path }
    static var stringsDirectory: URL { root.appendingPathComponent("Resources/strings") }

    /// Fails (never skips) when the binary has not been built.
    static func requireDocent() throws {
        guard FileManager.default.isExecutableFile(atPath: docent) else {
            throw E2EError(
                "The docent binary is missing at \(docent). The end-to-end tests drive the real binary: "
                    + "run `swift build` (and `swift build --build-tests`) before `swift test`.")
        }
        let tmux = try? Shell.run(["tmux", "-V"])
        guard tmux?.status == 0 else {
            throw E2EError("tmux is not installed or not on PATH (apt-get install tmux); the end-to-end tests need it")
        }
    }
}

/// The UI strings, read from `Resources/strings/<code>.json` so the tests follow the files.
enum UIStrings {
    nonisolated(unsafe) private static var cache: [String: [String: String]] = [:]
    private static let lock = NSLock()

    static func table(_ code: String) throws -> [String: String] {
        lock.lock()
        defer { lock.unlock() }
        if let t = cache[code] { return t }
        switch StringFiles.load(Repo.stringsDirectory) {
        case .success(let tables):
            guard let table = tables[code] else { throw E2EError("no \(code).json among the UI strings of \(Repo.stringsDirectory.path)") }
            cache[code] = table
            return table
        case .failure(let failure): throw E2EError("cannot read the UI strings: \(failure)")
        }
    }

    /// The string for `key` in language `code` ("en", "es", "zh").
    static func get(_ code: String, _ key: String) throws -> String {
        guard let s = try table(code)[key] else { throw E2EError("\(code).json has no key \"\(key)\"") }
        return s
    }

    /// The string with its `{name}` placeholders filled in.
    static func fill(_ code: String, _ key: String, _ values: [String: String]) throws -> String {
        var s = try get(code, key)
        for (k, v) in values { s = s.replacingOccurrences(of: "{\(k)}", with: v) }
        return s
    }

    /// The text before the first placeholder ("Through {date}" gives "Through ").
    static func prefix(_ code: String, _ key: String) throws -> String {
        let s = try get(code, key)
        return String(s[..<(s.range(of: "{")?.lowerBound ?? s.endIndex)])
    }

    /// The `tab.*` key suffix ("home", "info", …) whose label in `code` is `label`.
    static func tabID(forLabel label: String, _ code: String) throws -> String? {
        try table(code).first { $0.key.hasPrefix("tab.") && $0.value == label }.map { String($0.key.dropFirst(4)) }
    }

    /// Whether `line` shows the hints of `key`: whole, or shortened as the guide shortens them
    /// (whole hints kept, then "…", then the `? help` hint when it fits; or cut by words).
    static func showsHints(_ line: String, _ code: String, _ key: String) throws -> Bool {
        let full = try get(code, key)
        // Features' keys join the usual hints where they work: Pulse's "f notes (N)" where a
        // work or tour is on screen, the map's "v map" where there is something to show.
        let pulse = try get(code, "pulse.hint").components(separatedBy: "{count}")
        let map = try get(code, "map.hintShow")
        let shown = line.trimmingCharacters(in: .whitespaces).components(separatedBy: " · ")
            .filter { !(pulse.count == 2 && $0.hasPrefix(pulse[0]) && $0.hasSuffix(pulse[1])) && $0 != map }.joined(separator: " · ")
        if shown == full { return true }
        // Room made for "f notes (N)": the arrows' hint, then the tabs', left out (issue 47 #11).
        if shown != line.trimmingCharacters(in: .whitespaces) {
            var kept = full.components(separatedBy: " · ")
            for prefix in ["↑↓", "Tab"] {
                kept = kept.filter { !$0.hasPrefix(prefix) }
                if shown == kept.joined(separator: " · ") { return true }
            }
        }
        let parts = full.components(separatedBy: " · ")
        var shownParts = shown.components(separatedBy: " · ")
        // Shortened (`TextWidth.fitHints`): whole hints in the full line's order (the arrows
        // give way first), " …", then "? help" and "q quit" when they fit.
        if let cut = shownParts.firstIndex(where: { $0.hasSuffix(" …") || $0 == "…" }) {
            let tail = shownParts[(cut + 1)...]
            guard tail.count <= 2, tail.allSatisfy({ parts.contains($0) && ($0.hasPrefix("? ") || $0.hasPrefix("q ")) }) else { return false }
            shownParts = Array(shownParts[...cut])
            shownParts[cut] = shownParts[cut] == "…" ? "" : String(shownParts[cut].dropLast(2))
            var rest = parts[...]
            for p in shownParts where !p.isEmpty {
                guard let i = rest.firstIndex(of: p) else { return false }
                rest = rest[(i + 1)...]
            }
            return true
        }
        guard shown.hasSuffix("…"), shown.count > 10 else { return false }
        return full.hasPrefix(String(shown.dropLast()).trimmingCharacters(in: .whitespaces))
    }
}

/// Facts about SampleData/appData.json that the screens must show.
enum SampleData {
    struct Tour {
        let title: String
        let intro: String
        let duration: String
        let stopCount: Int
        let translatedTitles: [String: String]
    }

    static func json() throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: Repo.sampleData),
            let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw E2EError("cannot read \(Repo.sampleData)") }
        return obj
    }

    /// The first of `dashboard.featured_tours` as Home lists them: Visitor Pulse's featured
    /// tiers first (SampleData's `pulse/seed.json`, higher first, ties in appData order).
    static func firstFeaturedTour() throws -> Tour {
        let doc = try json()
        let seedPath = (Repo.sampleData as NSString).deletingLastPathComponent + "/pulse/seed.json"
        var tiers: [String: Int] = [:]
        if let data = FileManager.default.contents(atPath: seedPath),
            let seed = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
            for f in seed["featured"] as? [[String: Any]] ?? [] {
                if let subject = f["subject"] as? String, let tier = f["tier"] as? Int { tiers[subject] = tier }
            }
        }
        guard let dashboard = doc["dashboard"] as? [String: Any],
            let listed = dashboard["featured_tours"] as? [Any],
            let first = listed.enumerated().sorted(by: { a, b in
                let x = tiers["tour:\(a.element)"] ?? 0, y = tiers["tour:\(b.element)"] ?? 0
                return x != y ? x > y : a.offset < b.offset
            }).first?.element,
            let tours = doc["tours"] as? [[String: Any]],
            let tour = tours.first(where: { "\($0["nid"] ?? "")" == "\(first)" }),
            let title = tour["title"] as? String
        else { throw E2EError("SampleData has no first featured tour") }
        var translated: [String: String] = [:]
        for t in tour["translations"] as? [[String: Any]] ?? [] {
            if let l = t["language"] as? String, let tt = t["title"] as? String { translated[l] = tt }
        }
        return Tour(
            title: title, intro: tour["intro"] as? String ?? "", duration: tour["tour_duration"] as? String ?? "",
            stopCount: (tour["tour_stops"] as? [Any])?.count ?? 0, translatedTitles: translated)
    }

    /// The title of the first launch message (shown once, after the welcome help).
    static func launchMessageTitle() throws -> String {
        let doc = try json()
        let messages = doc["messages"] as? [String: Any] ?? [:]
        let launch = messages.values.compactMap { $0 as? [String: Any] }
            .filter { $0["message_type"] as? String == "launch" }
            .sorted { "\($0["nid"] ?? "")" < "\($1["nid"] ?? "")" }
        guard let title = launch.first?["title"] as? String else {
            throw E2EError("SampleData has no launch message")
        }
        return title
    }
}

/// Reading captured screens.
enum ScreenText {
    static func lines(_ screen: String) -> [String] {
        screen.components(separatedBy: "\n")
    }

    static func trimmed(_ s: String) -> String {
        s.trimmingCharacters(in: .whitespaces)
    }

    /// All whitespace runs (including line ends) collapsed to one space: wrapped paragraphs
    /// become one line. Only for languages that separate words with spaces.
    static func flattened(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// The index of the line that is exactly `heading` (after trimming).
    static func lineIndex(of heading: String, in screen: String) -> Int? {
        lines(screen).firstIndex { trimmed($0) == heading }
    }

    /// The selected list row (the one with the "▸" marker): its line index and its text.
    static func selectedRow(_ screen: String) -> (index: Int, text: String)? {
        for (i, l) in lines(screen).enumerated() {
            let t = trimmed(l)
            if t.hasPrefix("▸ ") { return (i, String(t.dropFirst(2))) }
        }
        return nil
    }

    /// The tab labels on the tab bar line (" Home │ Audio Guide │ Info      English"),
    /// without the language name at the right.
    static func tabLabels(_ line: String) -> [String] {
        // Screen-reader mode separates the tabs with spaces: columns, the last one the language.
        if !line.contains("│") { return Array(columns(line).dropLast()) }
        var parts = line.components(separatedBy: "│").map(trimmed)
        if let last = parts.last { parts[parts.count - 1] = columns(last).first ?? last }
        return parts.filter { !$0.isEmpty }
    }

    /// Whether the top line is a tab bar that starts with Home and ends with Info in `code`.
    static func hasTabBar(_ screen: String, _ code: String) -> Bool {
        guard let first = lines(screen).first,
            let home = try? UIStrings.get(code, "tab.home"), let info = try? UIStrings.get(code, "tab.info")
        else { return false }
        let labels = tabLabels(first)
        return labels.count >= 2 && labels.first == home && labels.last == info
    }

    /// Splits a list row into its columns ("Title   30 min · 7 stops"): runs of 2+ spaces.
    static func columns(_ row: String) -> [String] {
        row.components(separatedBy: "  ").map(trimmed).filter { !$0.isEmpty }
    }

    /// Which characters of `label` are drawn in reverse video in a `capture-pane -e` line.
    static func isReverse(_ label: String, inEscapedLine line: String) -> Bool? {
        var plain: [Character] = []
        var reverse: [Bool] = []
        var current = false
        var chars = Array(line)
        var i = 0
        while i < chars.count {
            if chars[i] == "\u{1B}", i + 1 < chars.count, chars[i + 1] == "[" {
                var j = i + 2
                var params = ""
                while j < chars.count, !(chars[j].isLetter) {
                    params.append(chars[j])
                    j += 1
                }
                if j < chars.count, chars[j] == "m" {
                    let codes = params.isEmpty ? [0] : params.split(separator: ";").map { Int($0) ?? -1 }
                    for c in codes {
                        if c == 0 { current = false }
                        if c == 7 { current = true }
                        if c == 27 { current = false }
                    }
                }
                i = j + 1
                continue
            }
            plain.append(chars[i])
            reverse.append(current)
            i += 1
        }
        chars = plain
        let target = Array(label)
        guard target.count <= chars.count else { return nil }
        for start in 0...(chars.count - target.count) where Array(chars[start..<(start + target.count)]) == target {
            return reverse[start..<(start + target.count)].allSatisfy { $0 }
        }
        return nil
    }
}
