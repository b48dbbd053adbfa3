import ArgumentParser
import CShims
import Foundation
import MapRaster

/// `docent plan-raster`: the floor-plan worker (`PlanWorker`, issue 45). The guide starts one
/// per plan and kills it when it takes too long; not for people to run.
package struct PlanRasterCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: PlanWorker.subcommand, abstract: "Rasterise one floor plan (the guide's worker).", shouldDisplay: false)

    @Option(name: .customLong("pixels-per-point"))
    var pixelsPerPoint: Double

    @Option(name: .customLong("source"))
    var source: String = ""

    @Option(name: .customLong("parent"))
    var parent: Int32?

    @Argument var input: String
    @Argument var output: String

    package init() {}

    package func run() throws {
        // Dies with the guide that started it (gone already: nothing to do).
        guard cs_die_with_parent() == 0, parent == nil || getppid() == parent else { Foundation.exit(PlanWorker.orphaned) }
        Foundation.exit(PlanWorker.serve(input: input, output: output, pixelsPerPoint: pixelsPerPoint, source: source))
    }
}
