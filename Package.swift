// swift-tools-version:6.0
// Docent: a terminal museum guide. See ARCHITECTURE.md for the arrows between these targets.
import Foundation
import PackageDescription

// One folder per feature (issue 46): `Sources/Features/<Name>/` holds every layer of a feature,
// each in the folder named for the layer's target: `Core` (DocentCore), `UI` (DocentUI),
// `Storage` (StateStore), `Shell` (GuideShell), and any adapter target of its own under its
// target's name (`Map/MapRaster`). The layered targets below take their features' folders from
// the disk, so a new feature is a new folder and its line in the registry
// (`Sources/DocentUI/Registry/Registry.swift`), never an edit here.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
let featureNames = ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/Sources/Features")) ?? []).sorted()
/// The `Sources`-relative folders of every feature's `layer`.
func featureLayer(_ layer: String) -> [String] {
    featureNames.map { "Features/\($0)/\(layer)" }.filter {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: packageRoot + "/Sources/" + $0, isDirectory: &folder) && folder.boolValue
    }
}

let package = Package(
    name: "Docent",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "docent", targets: ["docent"]),
        .executable(name: "docent-pulse", targets: ["docent-pulse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        // The Pulse service only (issue 13): the guide's binary links none of these.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Pulse in public (issue 32): structured logs and a Prometheus /metrics.
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // The staff console (issue 29): Bcrypt for staff passwords, Mustache for its pages.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", exact: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
    ],
    targets: [
        // Pure targets: Foundation only. `scripts/check-boundaries.sh` enforces it.
        // The JSON value and parser; text measuring, wrapping and cleaning.
        .target(name: "DocentJSON"),
        .target(name: "DocentText"),
        // appData models, readers and validation (and the fetching interface they check URLs with).
        .target(name: "DocentReading", dependencies: ["DocentJSON", "DocentText"]),
        // The store and the features.
        .target(
            name: "DocentCore", dependencies: ["DocentReading", "DocentJSON", "DocentText", "PulseKit"],
            path: "Sources", sources: ["DocentCore"] + featureLayer("Core")),
        // The Pulse kit (issue 46): models, rules, bounds, wire format, patterns, note text, the
        // store and outbox protocols, the schema and the rules as SQL. Pure, shared by the guide
        // (DocentCore re-exports it) and the service, which links no other guide target.
        .target(name: "PulseKit", dependencies: ["DocentJSON", "DocentText"], path: "Sources/Features/Pulse/Kit"),
        .target(name: "DocentUI", dependencies: ["DocentCore"], path: "Sources", sources: ["DocentUI"] + featureLayer("UI")),
        .target(name: "DocentApp", dependencies: ["DocentCore", "DocentUI"]),

        // System libraries, found by their headers in default paths (see DECISIONS.md).
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CMpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        // SoundTouch's C interface (SoundTouchDLL.h): playback speed with the pitch kept.
        .systemLibrary(name: "CSoundTouch", providers: [.apt(["libsoundtouch-dev"])]),
        // poppler-glib's headers are not in default paths: pkg-config gives SwiftPM the -I flags.
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        // Pictures: chafa draws pixels as symbols; GdkPixbuf decodes JPEG, PNG and WebP.
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        .systemLibrary(name: "CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0", providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        // Snowball's stemmers (libstemmer.h): search's plurals and other endings, per language.
        .systemLibrary(name: "CStemmer", providers: [.apt(["libstemmer-dev"])]),
        .systemLibrary(name: "COpenCC", providers: [.apt(["libopencc-dev"])]),
        // What Swift cannot call: variadics, macros, C globals, signal handlers.
        .target(name: "CShims", dependencies: ["CNcursesw", "CCurl", "CLazyLibs"]),
        // poppler, chafa, GdkPixbuf, OpenCC and libcurl opened on first use, not at every start (their
        // headers come from the modules above; `make build-release` takes them out of the
        // programs' NEEDED list, scripts/lazy-needed.sh): issue 48.
        .target(name: "CLazyLibs", linkerSettings: [.linkedLibrary("dl")]),

        // Thin adapters: they translate, they do not decide.
        // Where the UI strings lie: the shared tables and each feature's (`Sources/Features/<Name>/Strings`).
        .target(name: "StringFiles", dependencies: ["DocentJSON"]),
        .target(name: "TerminalCurses", dependencies: ["DocentUI", "CShims", "CNcursesw"]),
        // A second core for work split in two (`ReadOptions.Both`): threads live here, not in the pure targets.
        .target(name: "TwoCores", dependencies: ["DocentCore"]),
        .target(name: "NetCurl", dependencies: ["DocentCore", "TwoCores", "CShims", "CCurl", "CLazyLibs"]),
        .target(name: "AudioPlayback", dependencies: ["DocentCore", "TwoCores", "CShims", "CCurl", "CMpg123", "CPulse", "CSoundTouch", "CLazyLibs"]),
        // StateStore's small helpers (XDG paths, atomic writes, SQLite errors as sentences, safe
        // column reads), shared with the Pulse kit's SQLite store.
        .target(name: "StoreSupport", dependencies: ["DocentText", .product(name: "GRDB", package: "GRDB.swift")]),
        // The Pulse kit's SQLite store, outbox and migrations (GRDB), for the guide and the service.
        .target(
            name: "PulseKitSQLite", dependencies: ["PulseKit", "StoreSupport", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/Features/Pulse/KitSQLite"),
        .target(
            name: "StateStore",
            dependencies: ["DocentCore", "PulseKitSQLite", "StoreSupport", .product(name: "GRDB", package: "GRDB.swift"), "TOMLKit"],
            path: "Sources", sources: ["StateStore"] + featureLayer("Storage")),
        .target(name: "MapRaster", dependencies: ["DocentCore", "CPoppler", "CLazyLibs"], path: "Sources/Features/Map/MapRaster"),
        // ICU's Traditional → Simplified table (through Foundation) for search's folding, and
        // OpenCC's phrase conversion between the Chinese scripts, for drawing (issue 33 #1).
        .target(name: "ScriptConversion", dependencies: ["DocentCore", "COpenCC", "CLazyLibs"], path: "Sources/Features/Scripts/ScriptConversion"),
        // Snowball's stemmers behind search's `WordStemming`.
        .target(name: "SnowballStemming", dependencies: ["DocentCore", "CStemmer"], path: "Sources/Features/Search/SnowballStemming"),
        .target(name: "Pictures", dependencies: ["DocentCore", "CChafa", "CGdkPixbuf", "CLazyLibs"], path: "Sources/Features/Pictures/Pictures"),

        // Composition root: the guide's shell (the `guide` command, the effects, the feature
        // runners in Sources/Features/<Name>/Shell/), a library so that a bench executable can run the same
        // guide with an instrumentation injected; `docent` is its command line.
        .target(
            name: "GuideShell",
            dependencies: [
                "DocentCore", "DocentUI", "DocentApp", "TerminalCurses", "NetCurl", "AudioPlayback", "CShims",
                "StateStore", "MapRaster", "ScriptConversion", "SnowballStemming", "Pictures", "TwoCores", "StringFiles", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources", exclude: ["docent/Docent.swift", "docent/Validate.swift", "docent/Prepare.swift"],
            sources: ["docent"] + featureLayer("Shell")),
        .executableTarget(
            name: "docent",
            dependencies: ["GuideShell", "DocentCore", "NetCurl", "TwoCores", "CShims", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/docent", sources: ["Docent.swift", "Validate.swift", "Prepare.swift"]),

        // The Pulse service (issue 13): HTTP/JSON over a PulseStore (SQLite or PostgreSQL).
        .target(
            name: "PulseService",
            dependencies: [
                "PulseKit", "PulseKitSQLite", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"), .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .executableTarget(
            name: "docent-pulse",
            dependencies: ["PulseService", "PulseKit", "PulseKitSQLite", "TOMLKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        // Benchmarks (`make bench`): measured against named anchors in the same run.
        // CShims holds the curses shims too, so whatever links it must also link ncursesw.
        .executableTarget(
            name: "docent-audio-bench", dependencies: ["AudioPlayback", "DocentCore"],
            linkerSettings: [.linkedLibrary("ncursesw")]),
        .executableTarget(name: "docent-bench", dependencies: ["StringFiles", "DocentCore", "DocentUI", "DocentApp", "TwoCores"]),
        // `scripts/bench.sh` (first frame, peak memory) and `scripts/bench-audio.py` (the
        // guide's CPU while it plays): the guide with the bench's instrumentation injected.
        .executableTarget(
            name: "docent-guide-bench", dependencies: ["GuideShell", "DocentApp", "DocentCore", "CShims"],
            linkerSettings: [.linkedLibrary("ncursesw")]),
        // `scripts/bench.sh` map section: first map frame and pan steps against pdftoppm.
        .executableTarget(name: "docent-map-bench", dependencies: ["DocentCore", "DocentUI", "MapRaster"]),
        // `scripts/bench-search.sh`: per-keystroke search latency against SQLite FTS5.
        .executableTarget(name: "docent-search-bench", dependencies: ["StringFiles", "DocentCore", "ScriptConversion", "SnowballStemming", "TwoCores"]),
        // `scripts/bench.sh` Pulse section: a reaction stored and on screen, against sqlite3's upsert.
        .executableTarget(name: "docent-pulse-bench", dependencies: ["StringFiles", "DocentCore", "DocentUI", "StateStore"]),

        // `send`, the one way reducer tests drive the reducer: it needs only the core, so the
        // core's own tests use it without the UI.
        .target(name: "DocentCoreTestSupport", dependencies: ["DocentCore"], path: "Tests/DocentCoreTestSupport"),
        // Waiting for a child process's end through waitpid (Foundation can miss it).
        .target(name: "ChildProcessSupport", path: "Tests/ChildProcessSupport"),
        // Fakes of every protocol the pure targets consume, shared by the unit tests.
        .target(
            name: "DocentTestSupport", dependencies: ["DocentCoreTestSupport", "DocentCore", "DocentUI", "DocentApp"],
            path: "Tests/DocentTestSupport"),
        .testTarget(name: "DocentCoreTests", dependencies: ["DocentCore", "PulseKit", "DocentCoreTestSupport", "TwoCores"]),
        // The run loop itself, headless: timers, the mailbox, resizes, quitting.
        .testTarget(name: "DocentAppTests", dependencies: ["DocentApp", "DocentUI", "DocentCore", "DocentTestSupport"]),
        // Drives the real `docent` binary under tmux (it needs `swift build` first).
        .testTarget(name: "EndToEndTests", dependencies: ["ChildProcessSupport", "StringFiles"]),
        .testTarget(
            name: "DocentUITests", dependencies: ["DocentUI", "DocentApp", "DocentCore", "PulseKit", "DocentTestSupport", "StringFiles"],
            exclude: ["Snapshots", "Fixtures"]),
        .testTarget(
            name: "AdapterTests",
            dependencies: [
                "NetCurl", "AudioPlayback", "StateStore", "TerminalCurses", "DocentCore", "MapRaster", "Pictures", "DocentUI", "TwoCores", "GuideShell",
                "ScriptConversion", "SnowballStemming", "PulseService", "PulseKit", "PulseKitSQLite", "StoreSupport", "DocentCoreTestSupport", "ChildProcessSupport", "StringFiles", "CLazyLibs",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Fixtures"]),
    ]
)
