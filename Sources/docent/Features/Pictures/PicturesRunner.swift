import DocentApp
import DocentCore
import Foundation
import Pictures

/// Runs the pictures' effects off the loop thread: fetches (through the guide's HTTP client, revalidating the disk copy),
/// decodes and draws each picture, posting it back.
struct PicturesRunner: FeatureRunner {
    typealias Core = PicturesFeature
    let context: RunnerContext

    func run(_ effect: PicturesFeature.Effect, mailbox: Mailbox) {
        switch effect {
        case .load(let request, let depth):
            let loader = PictureLoader(fetcher: context.fetcher, cache: PictureCache(directory: PictureCache.defaultDirectory(environment: context.environment)))
            context.background {
                switch loader.load(url: request.url, columns: request.columns, rows: request.rows, depth: depth) {
                case .success(let p): mailbox.post(.pictures(.loaded(request, p)))
                case .failure(let f) where f.missing: mailbox.post(.pictures(.missing(request)))
                case .failure(let f): mailbox.post(.pictures(.failed(request, f.message)))
                }
            }
        }
    }
}
