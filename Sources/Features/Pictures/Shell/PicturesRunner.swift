import DocentApp
import DocentCore
import Foundation
import Pictures

/// Runs the pictures' effects off the loop thread: fetches (through the guide's HTTP client, revalidating the disk copy),
/// decodes and draws each picture, posting it back.
struct PicturesRunner: FeatureRunner {
    typealias Core = PicturesFeature
    let context: RunnerContext
    /// The picture asked for last: a decode of any other stops (the page changed).
    private let latest = Latest()

    init(context: RunnerContext) { self.context = context }

    func run(_ effect: PicturesFeature.Effect, mailbox: Mailbox) {
        let loader = PictureLoader(fetcher: context.fetcher, cache: PictureCache(directory: PictureCache.defaultDirectory(environment: context.environment)))
        let request: PicturesFeature.Request, load: @Sendable (() -> Bool) -> Result<Picture, PictureFailure>
        switch effect {
        case .warmUp:
            // Opened after the first frame (not before it: the loader's lock held by this
            // thread would make the loop wait to start its own threads).
            context.afterFirstFrame { _ = ChafaRenderer.librariesMissing }
            return
        case .load(let r, let depth):
            request = r
            load = { loader.load(url: r.url, columns: r.columns, rows: r.rows, depth: depth, keepGoing: $0) }
        case .loadGraphic(let r, let kind):
            let cell = Self.cellPixels()
            request = r
            load = { loader.loadGraphic(url: r.url, columns: r.columns, rows: r.rows, kind: kind, cell: cell, keepGoing: $0) }
        }
        let latest = self.latest
        latest.set(request)
        context.background {
            // A time budget, and the page's own: a decode stops when its time is up or when
            // another picture has been asked for since.
            let deadline = DispatchTime.now() + PictureDecoder.maxSeconds
            let keepGoing = { DispatchTime.now() < deadline && latest.is(request) }
            switch load(keepGoing) {
            case .success(let p): mailbox.post(.pictures(.loaded(request, p)))
            case .failure(let f) where f.missing: mailbox.post(.pictures(.missing(request)))
            case .failure(let f): mailbox.post(.pictures(.failed(request, f.message)))
            }
        }
    }
}

/// The request a runner was given last (shared by its threads).
final class Latest: @unchecked Sendable {
    private let lock = NSLock()
    private var request: PicturesFeature.Request?
    func set(_ r: PicturesFeature.Request) { lock.withLock { request = r } }
    func `is`(_ r: PicturesFeature.Request) -> Bool { lock.withLock { request == r } }
}

extension PicturesRunner {
    /// The terminal's cell size in pixels, as the kernel has it from the terminal (10 × 20
    /// where it does not say: tmux, some emulators).
    static func cellPixels() -> (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0, size.ws_xpixel > 0, size.ws_ypixel > 0 else {
            return (10, 20)
        }
        return (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row))
    }
}

extension PicturesFeature: RunsInShell {
    typealias Runner = PicturesRunner
}
