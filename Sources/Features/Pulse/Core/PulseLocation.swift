import Foundation

/// Where the guide's Pulse lives: `sqlite:PATH` (a file shared by every guide of the machine),
/// nothing said (the default file, `$XDG_DATA_HOME/docent/pulse.sqlite`), or a Pulse service
/// (`http://HOST:PORT` or `https://…`, issue 13) shared by every guide of the museum.
public enum PulseLocation: Hashable, Sendable {
    case defaultFile
    case sqlite(path: String)
    case service(url: String)

    /// From `--pulse` or `pulse = "…"`; nil or blank is the default. The error says what is
    /// accepted.
    public static func parse(_ text: String?) -> Result<PulseLocation, LoadFailure> {
        let t = Trim.spaces(text ?? "")
        if t.isEmpty { return .success(.defaultFile) }
        if t.hasPrefix("sqlite:") {
            let path = String(t.dropFirst("sqlite:".count))
            guard !path.isEmpty else { return .failure(LoadFailure("pulse: sqlite: needs a path, as in sqlite:/var/lib/docent/pulse.sqlite")) }
            return .success(.sqlite(path: path))
        }
        let lower = t.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            let rest = t.drop(while: { $0 != ":" }).dropFirst(3)
            guard let host = rest.split(separator: "/", omittingEmptySubsequences: false).first, !host.isEmpty, !t.contains(where: { $0 == " " || $0 == "?" || $0 == "#" })
            else { return .failure(LoadFailure("pulse: \(t) has no host, as in http://pulse.museum.local:8080")) }
            return .success(.service(url: t))
        }
        // The value and what is accepted first: a banner one line wide keeps them (issue 33
        // #2: it was cut mid-sentence, before the value).
        return .failure(LoadFailure("'\(t)' is not sqlite:PATH or http://HOST:PORT (as sqlite:/var/lib/docent/pulse.sqlite)"))
    }
}
