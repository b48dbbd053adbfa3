import ArgumentParser
import AudioPlayback
import DocentApp
import DocentCore
import DocentUI
import Foundation
import StringFiles
import NetCurl
import StateStore
import TerminalCurses
import TwoCores

/// `docent`: open the guide.
package struct Guide: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "guide", abstract: "Open the guide (the default command).")

    @Option(help: "Path or URL of the appData.json (default: the configuration's `data`, else the bundled SampleData).")
    var data: String?

    @Option(help: "Interface language: en, es, fr, ko, zh (Simplified) or zh-Hant (Traditional).")
    var lang: String?

    @Option(help: "Configuration file (default: $XDG_CONFIG_HOME/docent/config.toml).")
    var config: String?

    @Option(help: "Clickable links (OSC 8): auto, always or never (default: auto, by terminal).")
    var hyperlinks: String?

    @Option(help: "The terminal's background, for colours that read on it: auto (asked of the terminal), light or dark (default: auto).")
    var background: String?

    @Option(help: "Pictures of the artworks: auto, always, symbols, never, or a graphics protocol: kitty, iterm2, sixel (default: auto, by terminal; NO_COLOR: none).")
    var images: String?

    @Option(name: .customLong("state"), help: "State database (default: $XDG_DATA_HOME/docent/state.sqlite).")
    var statePath: String?

    @Option(name: .customLong("pulse"), help: "Where Visitor Pulse lives: sqlite:PATH, a file every guide of this machine may share (default: $XDG_DATA_HOME/docent/pulse.sqlite), or a Pulse service, http://HOST:PORT.")
    var pulse: String?
    @Flag(help: "Kiosk mode for a terminal the museum owns (as `kiosk = true` in the configuration): q, Ctrl-C, Ctrl-Z and Ctrl-\\ do nothing; staff quit with Ctrl-X, `kiosk_pin` and Enter; the guide starts over after `kiosk_idle_seconds` with nobody there.")
    var kiosk = false

    @Flag(help: "Screen-reader mode (as `screen_reader = true` in the configuration): the cursor sits on the selected row or choice, the player's time does not tick while it plays, the map opens as its text list.")
    var screenReader = false

    package func run() throws { try run(instrumentation: .none) }

    /// The guide, observed by `instrumentation` (`docent-guide-bench` injects one; the guide
    /// itself runs with `.none`).
    package func run(instrumentation: Instrumentation) throws {
        let env = ProcessInfo.processInfo.environment
        // The interface's text (about 90 small tables, 4–5 ms) is read on a thread of its own
        // while the registry, the configuration and the museum's load are set up here; said
        // below, where it was read before (issue 48).
        let strings = Later { ResourceLocator.stringsDirectory(environment: env).map { ($0, ResourceLocator.loadCatalog($0)) } }
        // The one registry: built and checked here, injected into the state, where the reducer
        // and the views read it. A wrong one (two features under one id, a cycle in their
        // order, two of one capability left unordered) is said and the guide does not start,
        // in every build.
        let features: FeatureSet
        do { features = try Registry.make() } catch { failure("the features' registry is wrong: \(error)") }
        // Configuration: file, then flags.
        var cfg = DocentConfig()
        var configWarnings: [String] = []
        let configPath = config ?? ConfigLoader.defaultPath(environment: env)
        if config != nil || FileManager.default.fileExists(atPath: configPath) {
            switch ConfigLoader.load(path: configPath, featureKeys: features.configKeys, featureCheck: features.configProblem) {
            case .success(let (c, w)):
                cfg = c
                configWarnings = w
            case .failure(let f): failure("configuration \(configPath): \(f.message)")
            }
        }
        guard let source = data.map(SourceLocation.normalise) ?? cfg.dataSource ?? ResourceLocator.sampleData(environment: env) else {
            failure("no museum data: pass --data PATH|URL or set `data` in \(configPath)")
        }
        // The museum starts loading now, while the rest is set up (issue 14), the interface's
        // text included: a guide that stops after this (an unknown language) ends with `_exit`
        // (`failure`), which a load still running on its thread cannot crash (the process's
        // `exit` did, status 139). The strings were read first until issue 48's seventh stop;
        // read meanwhile, they no longer hold the load back (about 4 ms of every start).
        var options = TwoCores.options(ReadOptions())
        options.rewrite = cfg.rewrite
        let fetcher = CurlFetcher()
        let documentCache = FileDocumentCache(directory: FileDocumentCache.defaultDirectory(environment: env))
        let prepared = FilePreparedCopies(
            directory: FilePreparedCopies.defaultDirectory(environment: env), localPath: CurlFetcher.localPath(of:), both: TwoCores.both)
        let log = GuideLog(path: GuideLog.defaultPath(environment: env))
        for w in configWarnings { log.write("configuration \(configPath): \(w)") }
        let heavyWork = HeavyWork()
        let early = EarlyLoad(source: source, fetcher: fetcher, cache: documentCache, prepared: prepared, options: options, log: log, heavyWork: heavyWork)
        // The interface's text and the language.
        guard let (_, loaded) = strings.value else {
            failure("cannot find the UI strings: looked in \(ResourceLocator.resourceRoots().first!.strings.path) (installed) and Resources/strings above \(ResourceLocator.executableDirectory().path) (a source tree); reinstall, or set DOCENT_RESOURCES to a folder holding strings/")
        }
        var catalog: StringCatalog
        switch loaded {
        case .success(let c): catalog = c
        case .failure(let f): failure(f.message)
        }
        var language: Language?
        if let tag = lang ?? cfg.language?.code {
            guard let l = Language.fromTag(tag), catalog.tables[l] != nil else {
                // Said where it was written (issue 47 #17: the file was not named).
                let origin = lang != nil ? "--lang" : "language in \(configPath)"
                failure("\(origin): unknown language '\(tag)'; choose one of \(catalog.languages.map(\.code).joined(separator: ", "))")
            }
            language = l
        }
        // The Linux console has no glyphs for Hangul nor Chinese: an interface in them would be
        // "? ? ?" (issue 47 #16). They are not offered there; one asked for (--lang, the
        // configuration, the locale) falls back to English, and a banner says why.
        var consoleLacks: Language?
        if ConsoleGlyphs.isLinuxConsole(term: env["TERM"]) {
            let unshowable: Set<Language> = [.korean, .chinese, .traditionalChinese]
            let asked = language ?? catalog.language(fromLocale: env)
            catalog = StringCatalog(tables: catalog.tables.filter { !unshowable.contains($0.key) })
            if let asked, unshowable.contains(asked) {
                consoleLacks = asked
                language = nil
            }
        }

        // State: a damaged or locked database costs a banner, never the guide.
        var store: SettingsStoring?
        var restored: PersistedSettings?
        var stateProblem: String?
        // A database whose settings could not be read is left alone: saving over it (or
        // even opening it for writing, which converts and migrates) would destroy what
        // someone may still recover. So it is read first without writing. The probe reads the
        // store's own tables only: a feature whose table a newer version adds (an upgrade
        // still to write) must not make a healthy database look damaged, nor a damaged one
        // look like it merely needs an upgrade (and then be migrated).
        var stateWritable = true
        let stateFile = statePath ?? SQLiteSettingsStore.defaultPath(environment: env)
        var readable = true
        if case .success(let ro) = SQLiteSettingsStore.open(path: stateFile, readOnly: true, features: []),
            case .failure(let f) = ro.load()
        {
            readable = false
            stateProblem = f.message
            stateWritable = false
        }
        if readable {
            switch SQLiteSettingsStore.open(path: stateFile, features: Runners.storages()) {
            case .success(let s):
                store = s
                switch s.load() {
                case .success(let r): restored = r
                case .failure(let f):
                    stateProblem = f.message
                    stateWritable = false
                }
            case .failure(let f): stateProblem = f.message
            }
        }

        // Hyperlinks: the flag, else DOCENT_HYPERLINKS, else the configuration, else auto.
        var linkMode = cfg.hyperlinks ?? .auto
        for (origin, text) in [("DOCENT_HYPERLINKS", env["DOCENT_HYPERLINKS"]), ("--hyperlinks", hyperlinks)] {
            guard let text, !text.isEmpty else { continue }
            guard let m = HyperlinkMode(parsing: text) else {
                failure("\(origin) must be auto, always or never, not '\(text)'")
            }
            linkMode = m
        }

        // Pictures: the flag, else the configuration's `images`, else auto; decided for this
        // terminal as hyperlinks are.
        var imageSetting = ImageSetting.auto
        for (origin, text) in [("images in \(configPath)", cfg.features["images"]), ("--images", images)] {
            guard let text else { continue }
            guard let setting = ImageSetting(parsing: text) else {
                failure("\(origin) must be auto, always, symbols, never, kitty, iterm2 or sixel, not '\(text)'")
            }
            imageSetting = setting
        }
        // Kiosk and screen-reader modes: the flags, else the configuration (`kiosk`,
        // `screen_reader`), decoded once for the terminal as the features decode them.
        if kiosk { cfg.features["kiosk"] = "true" }
        if screenReader { cfg.features["screen_reader"] = "true" }
        // The museum's name on the kiosk's waiting screen: DOCENT_MUSEUM_NAME over `museum_name`
        // (the environment over the file, as for the other settings).
        if let name = env["DOCENT_MUSEUM_NAME"], !name.isEmpty { cfg.features["museum_name"] = name }
        let render = RenderOptions.decode(cfg.features, features: features)

        // Checked before the terminal is taken over: a message written on the alternate screen
        // is wiped when the guide ends (issue 33 #2).
        if let pulse, case .failure(let f) = PulseLocation.parse(pulse) { failure("--pulse: \(f.message)") }
        let backend: CursesBackend
        let links = Hyperlinks.enabled(mode: linkMode, environment: env)
        // The background: the flag, else DOCENT_BACKGROUND, else the configuration, else asked of the terminal.
        var shade = cfg.background ?? .auto
        for (origin, text) in [("DOCENT_BACKGROUND", env["DOCENT_BACKGROUND"]), ("--background", background)] {
            guard let text, !text.isEmpty else { continue }
            guard let s = BackgroundSetting(parsing: text) else { failure("\(origin) must be auto, light or dark, not '\(text)'") }
            shade = s
        }
        switch CursesBackend.open(colors: env["NO_COLOR"].map(\.isEmpty) ?? true, hyperlinks: links, options: render, background: shade) {
        case .success(let b): backend = b
        case .failure(let e): failure(e.description)
        }
        let live = LiveAudioEngine(configuration: LiveAudioEngine.Configuration(keptAudioDirectory: LiveAudioEngine.keptAudioDirectory(environment: env)))
        let audio = instrumentation.audio(live)
        let effects = LiveEffects(
            fetcher: fetcher, cache: documentCache, prepared: prepared,
            store: store, options: options, audio: audio, environment: env, writesAllowed: stateWritable, log: log, heavyWork: heavyWork)
        effects.early = early
        // The first language: --lang or the configuration, else the locale's (LC_ALL,
        // LC_MESSAGES, LANG), else English; a choice saved from an earlier run wins over the
        // locale (not over --lang), as `.launched` applies it.
        let first = language ?? catalog.language(fromLocale: env) ?? .english
        var state = AppState(source: source, catalog: catalog, language: first, now: Date(), features: features)
        state.timeZone = .current
        state.museumTimeZone = cfg.timeZone
        state.config = cfg.features
        if let pulse { state.config[PulseFeature.configKey] = pulse }
        // A typo in the configuration is said on screen (issue 33 #14: it passed silently);
        // every warning is in the log.
        if let w = configWarnings.first {
            let more = configWarnings.count > 1 ? " (+\(configWarnings.count - 1))" : ""
            state.banner = Banner(.key(.configurationWarning, ["warning": .verbatim(w + more)]), level: .warning)
        }
        if let l = consoleLacks {
            state.banner = Banner(.key(.bannerConsoleLanguage, ["language": .verbatim(l == .korean ? "Korean" : "Chinese")]), level: .warning)
        }
        let loop = GuideLoop(
            state: state, backend: backend, effects: effects, audio: audio,
            clock: Date.init, monotonic: { DispatchTime.now().uptimeNanoseconds }, instrumentation: instrumentation)
        loop.send(.launched(restored: restored, languageOverride: language))
        loop.send(.pictures(.modeResolved(PictureMode.resolve(imageSetting, environment: env), offOn: PictureMode.offForFewColours(imageSetting, environment: env))))
        if let p = stateProblem { loop.send(.persistenceFailed(p)) }
        _ = loop.run()
        audio.stop()
        backend.restore()
        if cfg.printDataErrors {
            for d in effects.loadedDiagnostics where d.severity != .note {
                FileHandle.standardError.write(Data("\(d)\n".utf8))
            }
        }
        // Everything is saved (the loop's shutdown waited for the writer and the threads) and
        // the terminal is restored. Freeing a large museum, its search index and the caches
        // object by object took a third of a second more on a 79 MB appData; the system takes
        // the memory back at once.
        // `_exit`, not `exit`: a thread whose work quitting does not wait for (the search
        // index) may still be running, and `exit`'s clean-ups (the libraries' destructors)
        // must not run under it; nothing is left for them to do.
        fflush(nil)
        _exit(0)
    }

    /// Says why the guide cannot start and ends the process at once with status 1. Every such
    /// stop comes before the loop, and most after the museum started loading on a thread of its
    /// own: a normal `exit` ran the libraries' clean-ups (OpenSSL's among them) while that thread
    /// was still opening libcurl, and crashed with status 139 about one time in three (issue 48).
    /// Nothing is left to clean up here: the terminal is not taken yet, SQLite's files are safe
    /// at any moment, and a prepared copy half written is a temporary file that is never used.
    private func failure(_ message: String) -> Never {
        let text = message.hasPrefix("docent") ? message : "docent: \(message)"
        FileHandle.standardError.write(Data("\(text)\n".utf8))
        _exit(1)
    }
}

/// Finds the bundled UI strings and sample museum, from the executable's own path, never the
/// working directory (issue 43 #1):
/// - `DOCENT_RESOURCES` (a folder holding `strings/`) and `DOCENT_SAMPLEDATA` (an appData) first;
/// - installed: `<prefix>/bin/docent` reads `<prefix>/share/docent/strings` and
///   `<prefix>/share/docent/SampleData/appData.json`, so a prefix (or a DESTDIR) can move;
/// - in the source tree: `.build/<config>/docent` walks up to `Resources/strings` and
///   `SampleData/appData.json`.
enum ResourceLocator {
    /// Where the executable really is (`/proc/self/exe`: a symbolic link to it is followed).
    static func executableDirectory() -> URL {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return exe.deletingLastPathComponent()
    }

    /// The folders that may hold `strings/` and `SampleData/`, nearest first.
    static func resourceRoots() -> [(strings: URL, sampleData: URL)] {
        let bin = executableDirectory()
        let installed = bin.deletingLastPathComponent().appendingPathComponent("share/docent")
        var roots = [(installed.appendingPathComponent("strings"), installed.appendingPathComponent("SampleData"))]
        var u = bin
        for _ in 0..<6 {
            roots.append((u.appendingPathComponent("Resources/strings"), u.appendingPathComponent("SampleData")))
            u.deleteLastPathComponent()
        }
        return roots
    }

    static func stringsDirectory(environment env: [String: String]) -> URL? {
        if let r = env["DOCENT_RESOURCES"] { return URL(fileURLWithPath: r).appendingPathComponent("strings") }
        return resourceRoots().map(\.strings).first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("en.json").path) }
    }

    static func sampleData(environment env: [String: String]) -> String? {
        if let s = env["DOCENT_SAMPLEDATA"] { return s }
        return resourceRoots().map { $0.sampleData.appendingPathComponent("appData.json").path }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Reads every `<code>.json` table, the shared ones and the features' (`StringFiles`);
    /// English must be there.
    static func loadCatalog(_ dir: URL) -> Result<StringCatalog, LoadFailure> {
        StringFiles.load(dir).map { StringCatalog(tablesByTag: $0) }.mapError { LoadFailure($0.description) }
    }
}
