import ArgumentParser
import DocentCore
import Foundation
import NetCurl

/// The `docent` command: the guide by default, plus `validate` for content authors.
@main
struct Docent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "docent",
        abstract: "A terminal museum guide for appData.json museums.",
        version: DocentVersion.string,
        subcommands: [Guide.self, Validate.self],
        defaultSubcommand: Guide.self)
}

enum DocentVersion {
    static let string = "0.1.0"
}
