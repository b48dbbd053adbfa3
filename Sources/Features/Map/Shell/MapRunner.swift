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
            // Each plan in a worker process of its own, with a time limit (issue 45).
            let loader = PlanLoader(
                fetcher: context.fetcher, cache: PlanCache(directory: PlanCache.defaultDirectory(environment: context.environment)), worker: PlanWorker.current())
            let log = context.log
            context.background {
                let (result, savedCopy) = loader.loadSayingWhence(url: url, pixelsPerPoint: scale)
                switch result {
                case .success(let raster):
                    if savedCopy { log.write("floor plan \(url): the server cannot be reached; the copy saved earlier is drawn") }
                    mailbox.post(.map(.rasterReady(floor: floor, url: url, raster: raster, savedCopy: savedCopy)))
                case .failure(let f):
                    log.write("floor plan \(url): \(f.message)")
                    mailbox.post(.map(.rasterFailed(floor: floor, url: url, message: f.message, problem: f.problem)))
                }
            }
        }
    }
}

extension MapFeature: RunsInShell {
    typealias Runner = MapRunner
}
