import ArgumentParser
import CShims
import DocentCore
import GuideShell
import Foundation
import NetCurl

/// The `docent` command: the guide by default, plus `validate` for content authors.
@main
struct Docent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docent",
        abstract: "A terminal museum guide for appData.json museums.",
        discussion: """
            With no subcommand, docent opens the guide. Its options:
              --data <path|url>       the museum's appData.json (default: `data` in the
                                      configuration, else the bundled SampleData)
              --lang <tag>            the interface language: en, es, fr, ko, zh
                                      (Simplified) or zh-Hant (Traditional)
              --config <file>         the configuration (default:
                                      $XDG_CONFIG_HOME/docent/config.toml)
              --hyperlinks <mode>     clickable links: auto, always or never
              --background <shade>    the terminal's background: auto, light or dark
              --images <mode>         pictures of the artworks: auto, always, symbols,
                                      never, or kitty, iterm2, sixel (a protocol)
              --state <file>          the state database (default:
                                      $XDG_DATA_HOME/docent/state.sqlite)
              --pulse <where>         Visitor Pulse: sqlite:PATH (default:
                                      $XDG_DATA_HOME/docent/pulse.sqlite) or a Pulse
                                      service, http://HOST:PORT
              --kiosk                 kiosk mode: visitors cannot quit; staff press
                                      Ctrl-X, the kiosk_pin and Enter
              --screen-reader         the cursor on the selected row or choice, no
                                      ticking time while playing, the map as a list
            See 'docent help guide' for them in full; 'docent help validate' checks data.

            Exit status:
              0   after quitting normally (q, Ctrl-C, SIGTERM, SIGHUP; in kiosk
                  mode the staff code, SIGTERM, SIGHUP)
              1   the guide cannot start (a configuration error, an unknown
                  language, no terminal, no UI strings); for validate, the data
                  cannot be used
              64  bad usage (an unknown option or subcommand, a missing value)
            """,
        version: DocentVersion.string,
        subcommands: [Guide.self, Validate.self, Prepare.self, PlanRasterCommand.self],
        defaultSubcommand: Guide.self)

    /// Before anything is allocated: the guide's malloc settings (`cs_tune_malloc`).
    static func main() {
        cs_tune_malloc()
        main(nil)
    }
}

