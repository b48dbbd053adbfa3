import DocentApp
import DocentCore
import Foundation
import NetCurl

/// Runs effects for real: curl on background threads, SQLite on the loop thread (it is fast
/// and keeps saves ordered).
final class LiveEffects: EffectHandling, @unchecked Sendable {
    let fetcher: CurlFetcher
    let cache: DocumentCaching?
    let store: SettingsStoring?
    let options: ReadOptions
    let audio: AudioEngine?
    private var reportedSaveFailure = false
    /// Diagnostics of the loaded document, for --print-data-errors at exit.
    private(set) var diagnostics: [Diagnostic] = []
    private let lock = NSLock()

    /// Each feature's runner, by feature (see `Runners`).
    private var runners: [FeatureID: AnyRunner] = [:]

    init(fetcher: CurlFetcher, cache: DocumentCaching?, store: SettingsStoring?, options: ReadOptions, audio: AudioEngine?, environment: [String: String]) {
        self.audio = audio
        self.fetcher = fetcher
        self.cache = cache
        self.store = store
        self.options = options
        let context = RunnerContext(fetcher: fetcher, environment: environment, background: { [unowned self] work in self.background(work) })
        for r in Runners.all(context) { runners[r.feature] = r }
    }

    func run(_ effect: Effect, mailbox: Mailbox) {
        switch effect {
        case .loadDocument(let source):
            background { [self] in
                let (result, note) = DocumentLoader.load(source: source, fetcher: fetcher, cache: cache, options: options)
                if case .success(let m) = result {
                    lock.lock()
                    diagnostics = m.data.diagnostics
                    lock.unlock()
                }
                mailbox.post(.documentLoaded(result, note: note))
            }
        case .persist(let settings):
            guard let store else { return }
            if case .failure(let f) = store.save(settings), !reportedSaveFailure {
                reportedSaveFailure = true
                mailbox.post(.persistenceFailed(f.message))
            }
        case .audio(let command):
            guard let audio else { return }
            switch command {
            case .play(let r): audio.play(r)
            case .pause: audio.pause()
            case .resume: audio.resume()
            case .stop: audio.stop()
            case .seek(let t): audio.seek(to: t)
            case .volume(let v): audio.setVolume(v)
            }
        case .feature(let value):
            // A feature's effect with no runner to take it is a wiring mistake, never silent.
            guard let runner = runners[value.feature], runner.run(value, mailbox) else {
                assertionFailure("no runner takes \(value)")
                return
            }
        case .quit, .timer:
            break  // the loop handles these itself
        }
    }

    var loadedDiagnostics: [Diagnostic] {
        lock.lock()
        defer { lock.unlock() }
        return diagnostics
    }

    func background(_ work: @escaping @Sendable () -> Void) {
        let t = Thread(block: work)
        t.stackSize = 4 << 20
        t.start()
    }
}

