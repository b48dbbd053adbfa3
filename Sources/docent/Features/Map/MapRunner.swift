import DocentApp
import DocentCore
import Foundation
import MapRaster

/// Runs the map's effects off the loop thread: fetch the plan (curl), rasterise and trim it
/// (poppler) unless the disk cache holds the same URL and content, post the raster back.
struct MapRunner: FeatureRunner {
    typealias Core = MapFeature
    let context: RunnerContext

    func run(_ effect: MapEffect, mailbox: Mailbox) {
        switch effect {
        case .loadPlan(let floor, let url, let scale):
            let loader = PlanLoader(fetcher: context.fetcher, cache: PlanCache(directory: PlanCache.defaultDirectory(environment: context.environment)))
            let log = context.log
            context.background {
                switch loader.load(url: url, pixelsPerPoint: scale) {
                case .success(let raster): mailbox.post(.map(.rasterReady(floor: floor, url: url, raster: raster)))
                case .failure(let f):
                    log.write("floor plan \(url): \(f.message)")
                    mailbox.post(.map(.rasterFailed(floor: floor, url: url, message: f.message, problem: f.problem)))
                }
            }
        }
    }
}
