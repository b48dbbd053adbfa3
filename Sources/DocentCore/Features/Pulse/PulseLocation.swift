import Foundation

/// Where the guide's Pulse lives: `sqlite:PATH` (a file shared by every guide of the machine),
/// or nothing said (the default file, `$XDG_DATA_HOME/docent/pulse.sqlite`). The HTTP store of
/// the Pulse service will be a third case (issue 13).
public enum PulseLocation: Hashable, Sendable {
    case defaultFile
    case sqlite(path: String)

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
        return .failure(LoadFailure("pulse must be sqlite:PATH (for example sqlite:/var/lib/docent/pulse.sqlite), not '\(t)'"))
    }
}
