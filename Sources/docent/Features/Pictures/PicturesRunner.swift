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
        case .loadGraphic(let request, let kind):
            let loader = PictureLoader(fetcher: context.fetcher, cache: PictureCache(directory: PictureCache.defaultDirectory(environment: context.environment)))
            let cell = Self.cellPixels()
            context.background {
                switch loader.loadGraphic(url: request.url, columns: request.columns, rows: request.rows, kind: kind, cell: cell) {
                case .success(let p): mailbox.post(.pictures(.loaded(request, p)))
                case .failure(let f) where f.missing: mailbox.post(.pictures(.missing(request)))
                case .failure(let f): mailbox.post(.pictures(.failed(request, f.message)))
                }
            }
        }
    }
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
