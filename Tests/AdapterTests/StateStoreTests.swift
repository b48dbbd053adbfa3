import DocentCore
import DocentUI
import Foundation
import GRDB
import StateStore
import XCTest

/// The StateStore adapters against real files in a temporary directory.
final class StateStoreTests: XCTestCase {
    private var tempDir = ""

    override func setUpWithError() throws {
        tempDir = NSTemporaryDirectory() + "docent-statestore-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tempDir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: tempDir)
    }

    private func path(_ name: String) -> String { tempDir + "/" + name }

    private func openStore(_ name: String = "nested/dir/state.sqlite", readOnly: Bool = false) throws -> SQLiteSettingsStore {
        switch SQLiteSettingsStore.open(path: path(name), readOnly: readOnly, features: [TourStorage(), MemberStorage(), PlayerStorage()]) {
        case .success(let store): return store
        case .failure(let failure): throw failure
        }
    }

    private func failureMessage<T>(_ result: Result<T, LoadFailure>, file: StaticString = #filePath, line: UInt = #line) -> String {
        switch result {
        case .success: XCTFail("expected a failure", file: file, line: line); return ""
        case .failure(let failure): return failure.message
        }
    }

    // MARK: Settings

    func testFirstRunLoadsNil() throws {
        let store = try openStore()
        XCTAssertNil(try store.load().get())
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("nested/dir/state.sqlite")), "parent directories are created")
    }

    func testSettingsRoundTrip() throws {
        let settings = PersistedSettings(language: .chinese, lastTab: .info, seenMessageIDs: [3, 17, 42], locationEnabled: false, introSeen: true)
        do {
            let store = try openStore()
            try store.save(settings).get()
        }
        let reopened = try openStore()
        XCTAssertEqual(try reopened.load().get(), settings)

        // A second save replaces everything, including removing the language and seen ids.
        let second = PersistedSettings(language: nil, lastTab: .home, seenMessageIDs: [5], locationEnabled: true, introSeen: false)
        try reopened.save(second).get()
        XCTAssertEqual(try reopened.load().get(), second)
    }

    func testTourProgressRoundTrip() throws {
        let store = try openStore()
        var settings = PersistedSettings(language: .spanish, introSeen: true)
        settings.progress = ListeningProgress(
            current: TourProgress(tourID: 4001, stopIndex: 2, seconds: 7.5, language: .chinese, mode: .continuous),
            listenedStops: [4001: [0, 1], 4002: [3]], listenedArtworks: [1101, 1102], started: [4001, 4002], finished: [4002])
        try store.save(settings).get()
        XCTAssertEqual(try store.load().get()?.progress, settings.progress)
        // The intro (no stop index) and no current tour both survive too.
        settings.progress.current = TourProgress(tourID: 4003, stopIndex: nil, seconds: 0, language: .english, mode: .guided)
        try store.save(settings).get()
        XCTAssertEqual(try store.load().get()?.progress.current, settings.progress.current)
        // Walking directions to a stop (issue 17 #19): the part survives, with the seconds.
        settings.progress.current = TourProgress(tourID: 4001, stopIndex: 1, seconds: 3.5, language: .english, mode: .guided, part: .walk)
        try store.save(settings).get()
        XCTAssertEqual(try store.load().get()?.progress.current, settings.progress.current)
        settings.progress.current = nil
        try store.save(settings).get()
        XCTAssertNil(try store.load().get()?.progress.current)
        // Walking directions and a guided wait are kept as such (issue 17 #19).
        for part in TourPart.allCases {
            settings.progress.current = TourProgress(tourID: 4001, stopIndex: 3, seconds: 4.5, language: .english, mode: .guided, part: part)
            try store.save(settings).get()
            XCTAssertEqual(try store.load().get()?.progress.current?.part, part)
        }
    }

    /// A database written before the part was kept reads its place as a stop's commentary.
    func testAPlaceSavedBeforeTheWalkWasKeptIsAStop() throws {
        var settings = PersistedSettings(introSeen: true)
        settings.progress.current = TourProgress(tourID: 4001, stopIndex: 2, seconds: 7.5, language: .english, mode: .guided, part: .walk)
        try openStore().save(settings).get()
        // Back to the table as the earlier guide wrote it.
        try raw_write(path("nested/dir/state.sqlite"), "ALTER TABLE tour_position DROP COLUMN part; DELETE FROM grdb_migrations WHERE identifier = 'v5-tour-position-part'")
        settings.progress.current?.part = .stop
        XCTAssertEqual(try openStore().load().get()?.progress.current, settings.progress.current)
    }

    static func saves(_ card: MemberCard) -> FeatureSaves {
        var s = FeatureSaves()
        s[MemberFeature.self] = card
        return s
    }

    /// A value of the wrong type (written by hand, another program, a damaged page) is read as
    /// missing; what else is in the database still loads, and nothing stops the program.
    func testWronglyTypedValuesAreReadAsMissing() throws {
        let card = MemberCard(
            memberID: "40417", zip: "60603", level: "Member", expiration: Date(timeIntervalSince1970: 1_806_451_200),
            holders: ["Ada Wren"], holderIndex: 0, checkedAt: Date(timeIntervalSince1970: 1_795_000_000))
        var settings = PersistedSettings(language: .spanish, seenMessageIDs: [4, 5], introSeen: true, saves: Self.saves(card))
        settings.progress = ListeningProgress(
            current: TourProgress(tourID: 4001, stopIndex: 2, seconds: 7.5, language: .chinese, mode: .continuous),
            listenedStops: [4001: [0, 1]], listenedArtworks: [1101], started: [4001])
        try openStore().save(settings).get()
        let raw = try DatabaseQueue(path: path("nested/dir/state.sqlite"))
        try raw.write { db in
            try db.execute(sql: "UPDATE tour_position SET seconds = 'abc'")
            try db.execute(sql: "UPDATE member_card SET expiration = 'next year'")
            try db.execute(sql: "INSERT INTO listened_stop (tour_id, stop_index) VALUES ('x', 3)")
            try db.execute(sql: "UPDATE settings SET value = x'ff00' WHERE key = 'language'")
        }
        try raw.close()
        let loaded = try XCTUnwrap(try openStore().load().get())
        XCTAssertNil(loaded.progress.current, "a text where seconds were: no place to resume")
        XCTAssertNil(loaded.saves[MemberFeature.self], "a text expiry: no card")
        XCTAssertEqual(loaded.progress.listenedStops, [4001: [0, 1]], "the readable rows stay")
        XCTAssertEqual(loaded.progress.listenedArtworks, [1101])
        XCTAssertEqual(loaded.seenMessageIDs, [4, 5])
        XCTAssertNil(loaded.language, "a blob as the language")
        XCTAssertTrue(loaded.introSeen)
        XCTAssertEqual(loaded.skippedValues, 4, "seconds, expiry, a stop's tour and the language were skipped (and said)")
        XCTAssertEqual(try openStore().load().get()?.skippedValues, 4, "counted afresh at every load")
        // A blob as the language, read back once more through the other path.
        try raw_write(path("nested/dir/state.sqlite"), "UPDATE tour_position SET language = x'00ff', seconds = 3")
        XCTAssertNil(try openStore().load().get()?.progress.current)
    }

    /// Issue 45: a stop of Int.max in tour_position crashed every start ("stop \(n + 1)"), and
    /// a next_sequence of -1 crashed the next note. Numbers out of any real range are read as
    /// missing (stops, said as skipped) or as a fresh start (the sequence), before any sum.
    func testNumbersOutOfRangeAreBoundedBeforeAnyArithmetic() throws {
        var settings = PersistedSettings(language: .english)
        settings.progress = ListeningProgress(
            current: TourProgress(tourID: 4001, stopIndex: 2, seconds: 7.5, language: .english, mode: .guided),
            listenedStops: [4001: [0, 1]], started: [4001])
        try openStore().save(settings).get()
        try raw_write(path("nested/dir/state.sqlite"), "UPDATE tour_position SET stop_index = \(Int.max); INSERT INTO listened_stop VALUES (4001, -5)")
        let loaded = try XCTUnwrap(try openStore().load().get())
        let current = try XCTUnwrap(loaded.progress.current, "the tour is still there to resume")
        XCTAssertNil(current.stopIndex, "no stop Int.max")
        XCTAssertEqual(loaded.progress.listenedStops, [4001: [0, 1]])
        XCTAssertEqual(loaded.skippedValues, 2)

        let pulse = path("pulse-state.sqlite")
        let identity = PulseIdentity(credentials: VisitorCredentials(visitor: try XCTUnwrap(VisitorID("alice000")), secret: "sha256:aaaa"), nextSequence: 12)
        var withIdentity = PersistedSettings()
        withIdentity.saves[PulseFeature.self] = identity
        let store = try XCTUnwrap(try? SQLiteSettingsStore.open(path: pulse, readOnly: false, features: [PulseStorage()]).get())
        try store.save(withIdentity).get()
        for damaged in ["-1", "\(Int64.max)"] {
            try raw_write(pulse, "UPDATE pulse_identity SET next_sequence = \(damaged)")
            let back = try XCTUnwrap(try store.load().get()?.saves[PulseFeature.self])
            XCTAssertEqual(back.nextSequence, 0, damaged)
        }
    }

    func testVolumeAndSpeedRoundTrip() throws {
        var settings = PersistedSettings(introSeen: true)
        settings.saves[PlayerFeature.self] = PlayerSettings(volume: 0.65, speed: 1.25)
        try openStore().save(settings).get()
        XCTAssertEqual(try openStore().load().get()?.saves[PlayerFeature.self], PlayerSettings(volume: 0.65, speed: 1.25))
        try raw_write(path("nested/dir/state.sqlite"), "UPDATE player_settings SET volume = 'loud'")
        XCTAssertEqual(try openStore().load().get()?.saves[PlayerFeature.self], PlayerSettings(speed: 1.25), "a text volume is the usual one, not a crash")
        try raw_write(path("nested/dir/state.sqlite"), "UPDATE player_settings SET speed = 7")
        XCTAssertEqual(try openStore().load().get()?.saves[PlayerFeature.self], PlayerSettings(speed: 2), "the nearest offered speed")
        try raw_write(path("nested/dir/state.sqlite"), "UPDATE player_settings SET speed = 'fast'")
        XCTAssertNil(try openStore().load().get()?.saves[PlayerFeature.self], "neither value readable: nothing kept")
    }

    /// A database written before playback speed (volume only) keeps its volume and plays at 1×.
    func testAVolumeSavedBeforeSpeedExistedIsKept() throws {
        let file = path("old/state.sqlite")
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            let q = try DatabaseQueue(path: file)
            var old = DatabaseMigrator()
            old.registerMigration("v1") { db in
                try db.execute(sql: "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE seen_message (id INTEGER PRIMARY KEY);")
                try db.execute(sql: "INSERT INTO settings (key, value) VALUES ('language', 'fr')")
            }
            old.registerMigration("v4-player-settings") { db in
                try db.execute(sql: "CREATE TABLE player_settings (id INTEGER PRIMARY KEY CHECK (id = 1), volume REAL NOT NULL)")
                try db.execute(sql: "INSERT INTO player_settings VALUES (1, 0.4)")
            }
            try old.migrate(q)
        }
        let store = try SQLiteSettingsStore.open(path: file, features: [PlayerStorage()]).get()
        XCTAssertEqual(try store.load().get()?.saves[PlayerFeature.self], PlayerSettings(volume: 0.4, speed: 1))
    }

    private func raw_write(_ file: String, _ sql: String) throws {
        let q = try DatabaseQueue(path: file)
        try q.write { try $0.execute(sql: sql) }
        try q.close()
    }

    func testMemberCardRoundTripAndSignOut() throws {
        let card = MemberCard(
            memberID: "40417", zip: "60603", level: "Sustaining Fellow Gold", expiration: Date(timeIntervalSince1970: 1_806_451_200),
            holders: ["Ada Wren", "Basil Wren"], holderIndex: 1, checkedAt: Date(timeIntervalSince1970: 1_795_000_000.5))
        do {
            let store = try openStore()
            try store.save(PersistedSettings(introSeen: true, saves: Self.saves(card))).get()
        }
        XCTAssertEqual(try openStore().load().get()?.saves[MemberFeature.self], card)
        // One holder; then signed out: nothing left in the table.
        var single = card
        single.holders = ["Ada Wren"]
        single.holderIndex = 0
        let store = try openStore()
        try store.save(PersistedSettings(saves: Self.saves(single))).get()
        XCTAssertEqual(try store.load().get()?.saves[MemberFeature.self], single)
        try store.save(PersistedSettings(introSeen: true)).get()
        XCTAssertNil(try store.load().get()?.saves[MemberFeature.self])
        let raw = try DatabaseQueue(path: path("nested/dir/state.sqlite"))
        XCTAssertEqual(try raw.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM member_card") }, 0)
    }

    /// Issue 45 #8: kiosk mode's wrong staff codes in a row are kept between runs (a restart
    /// gave a script trying codes its three free tries back); a damaged number is bounded, and
    /// a right code (none wrong) leaves no row.
    func testKioskWrongCodesSurviveARestartBoundedAndClearedByTheRightCode() throws {
        let file = path("kiosk/state.sqlite")
        func open() throws -> SQLiteSettingsStore { try SQLiteSettingsStore.open(path: file, features: [PlayerStorage(), KioskStorage()]).get() }
        var saves = FeatureSaves()
        saves[KioskFeature.self] = KioskSaved(wrongCodes: 4)
        try open().save(PersistedSettings(introSeen: true, saves: saves)).get()
        XCTAssertEqual(try open().load().get()?.saves[KioskFeature.self], KioskSaved(wrongCodes: 4))
        try raw_write(file, "UPDATE kiosk_codes SET wrong_in_a_row = 9223372036854775807")
        XCTAssertEqual(try open().load().get()?.saves[KioskFeature.self], KioskSaved(wrongCodes: KioskFeature.mostWrongCodes))
        try raw_write(file, "UPDATE kiosk_codes SET wrong_in_a_row = -5")
        XCTAssertNil(try open().load().get()?.saves[KioskFeature.self])
        try raw_write(file, "UPDATE kiosk_codes SET wrong_in_a_row = 3")
        XCTAssertEqual(try open().load().get()?.saves[KioskFeature.self], KioskSaved(wrongCodes: 3))
        try open().save(PersistedSettings(introSeen: true)).get()
        XCTAssertNil(try open().load().get()?.saves[KioskFeature.self])
        let raw = try DatabaseQueue(path: file)
        XCTAssertEqual(try raw.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM kiosk_codes") }, 0)
    }

    func testAVersion2DatabaseUpgradesKeepingItsSettings() throws {
        // A database as the previous release left it: v1 and v2 only, with a setting saved.
        let file = path("old/state.sqlite")
        try FileManager.default.createDirectory(atPath: path("old"), withIntermediateDirectories: true)
        do {
            let q = try DatabaseQueue(path: file)
            var old = DatabaseMigrator()
            old.registerMigration("v1") { db in
                try db.execute(sql: "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE seen_message (id INTEGER PRIMARY KEY);")
            }
            old.registerMigration("v2-tour-progress") { db in
                try db.execute(sql: """
                    CREATE TABLE tour_position (id INTEGER PRIMARY KEY CHECK (id = 1), tour_id INTEGER NOT NULL, stop_index INTEGER,
                        seconds REAL NOT NULL, language TEXT NOT NULL, mode TEXT NOT NULL);
                    CREATE TABLE listened_stop (tour_id INTEGER NOT NULL, stop_index INTEGER NOT NULL, PRIMARY KEY (tour_id, stop_index));
                    CREATE TABLE listened_artwork (artwork_id INTEGER PRIMARY KEY);
                    CREATE TABLE tour_status (tour_id INTEGER PRIMARY KEY, started INTEGER NOT NULL, finished INTEGER NOT NULL);
                    INSERT INTO settings (key, value) VALUES ('language', 'es');
                    """)
            }
            try old.migrate(q)
        }
        let store = try SQLiteSettingsStore.open(path: file, features: [TourStorage(), MemberStorage(), PlayerStorage()]).get()
        XCTAssertEqual(try store.appliedMigrations().get(), ["v1", "v2-tour-progress", "v5-tour-position-part", "v3-member-card", "v4-player-settings", "v7-player-speed"])
        XCTAssertEqual(try store.load().get()?.language, .spanish)
        XCTAssertNil(try store.load().get()?.saves[MemberFeature.self])
    }

    /// The features that save are found by their `SavesInDatabase` conformance in the registry
    /// (issue 46: no list names them), and a database migrated with the storages in another
    /// order (the hand-written list's, before) opens complete, read-only too, and keeps its data.
    func testTheRegistrysStoragesAreFoundAndOpenADatabaseMigratedInAnotherOrder() throws {
        let storages = Registry.features.storages
        XCTAssertEqual(storages.map { "\($0)" }.sorted(), ["KioskStorage()", "MemberStorage()", "PlayerStorage()", "PulseStorage()", "TourStorage()"])
        let file = path("reordered.sqlite")
        let before = try SQLiteSettingsStore.open(path: file, features: [TourStorage(), MemberStorage(), PlayerStorage(), PulseStorage(), KioskStorage()]).get()
        try before.save(PersistedSettings(language: .korean)).get()
        let applied = try before.appliedMigrations().get()
        let now = try SQLiteSettingsStore.open(path: file, readOnly: true, features: storages).get()
        XCTAssertEqual(Set(try now.appliedMigrations().get()), Set(applied))
        XCTAssertEqual(try now.load().get()?.language, .korean)
    }

    func testMigrationIsIdempotent() throws {
        let first = try openStore()
        try first.save(PersistedSettings(language: .spanish)).get()
        let second = try openStore()
        let third = try openStore()
        XCTAssertEqual(try third.appliedMigrations().get(), ["v1", "v2-tour-progress", "v5-tour-position-part", "v3-member-card", "v4-player-settings", "v7-player-speed"])
        XCTAssertEqual(try second.load().get()?.language, .spanish)
    }

    func testWALModeIsOn() throws {
        let store = try openStore()
        XCTAssertEqual(try store.journalMode().get(), "wal")
        // The mode is persistent: an independent connection sees it too.
        let other = try DatabaseQueue(path: path("nested/dir/state.sqlite"))
        XCTAssertEqual(try other.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }, "wal")
    }

    func testCorruptFileGivesReadableFailure() throws {
        let file = path("corrupt.sqlite")
        var garbage = [UInt8](repeating: 0, count: 8192)
        for i in garbage.indices { garbage[i] = UInt8(truncatingIfNeeded: i &* 131 &+ 7) }
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(garbage)))
        let message = failureMessage(SQLiteSettingsStore.open(path: file))
        XCTAssertTrue(message.hasPrefix("the state database \(file) is damaged ("), message)
        XCTAssertTrue(message.contains("not a database"), message)
    }

    func testPathThatIsADirectoryFails() throws {
        let dir = path("iam-a-directory")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let message = failureMessage(SQLiteSettingsStore.open(path: dir))
        XCTAssertTrue(message.contains(dir), message)
    }

    func testParentThatIsAFileFails() throws {
        let blocker = path("blocker")
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let message = failureMessage(SQLiteSettingsStore.open(path: blocker + "/state.sqlite"))
        XCTAssertTrue(message.hasPrefix("cannot create the directory \(blocker)"), message)
    }

    func testReadOnlyDatabaseLoadsButFailsToSave() throws {
        let saved = PersistedSettings(language: .chinese, seenMessageIDs: [1])
        try openStore("ro.sqlite").save(saved).get()
        let store = try openStore("ro.sqlite", readOnly: true)
        XCTAssertEqual(try store.load().get(), saved)
        let message = failureMessage(store.save(PersistedSettings()))
        XCTAssertTrue(message.contains("read-only"), message)
        // A missing file cannot be opened read-only.
        XCTAssertTrue(failureMessage(SQLiteSettingsStore.open(path: path("missing.sqlite"), readOnly: true)).contains("missing.sqlite"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("missing.sqlite")))
    }

    func testLockedDatabaseFailsAfterBusyTimeout() throws {
        let store = try openStore("locked.sqlite")
        try store.save(PersistedSettings(language: .english)).get()

        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: path("locked.sqlite"), configuration: config)
        try holder.inDatabase { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        defer { try? holder.inDatabase { try $0.execute(sql: "ROLLBACK") } }

        let start = Date()
        let message = failureMessage(store.save(PersistedSettings(language: .spanish)))
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertTrue(message.contains("locked"), message)
        XCTAssertGreaterThanOrEqual(elapsed, 1.5, "waits for the busy timeout")
        XCTAssertLessThan(elapsed, 6, "does not hang")

        // In WAL mode readers are not blocked, and the failed save changed nothing.
        XCTAssertEqual(try store.load().get()?.language, .english)
    }

    func testDefaultStatePath() {
        XCTAssertEqual(SQLiteSettingsStore.defaultPath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]), "/x/data/docent/state.sqlite")
        XCTAssertEqual(SQLiteSettingsStore.defaultPath(environment: ["HOME": "/home/u"]), "/home/u/.local/share/docent/state.sqlite")
        // The XDG spec says relative values are to be ignored.
        XCTAssertEqual(SQLiteSettingsStore.defaultPath(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"]), "/home/u/.local/share/docent/state.sqlite")
    }

    // MARK: Configuration

    private func writeConfig(_ text: String, name: String = "conf/config.toml") throws -> String {
        let file = path(name)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    private func loadConfig(_ text: String) throws -> Result<(config: DocentConfig, warnings: [String]), LoadFailure> {
        ConfigLoader.load(path: try writeConfig(text), environment: ["HOME": "/home/u"], featureKeys: [MemberFeature.configKey])
    }

    func testConfigAllKeys() throws {
        let (config, warnings) = try loadConfig("""
            data = "https://example.org/appData.json"
            member_card_url = "https://example.org/soap"
            print_data_errors = true
            language = "zh-Hant"
            hyperlinks = "never"

            [url_rewrite]
            from = "http://internal/"
            to = "https://public/"
            """).get()
        XCTAssertEqual(config, DocentConfig(
            dataSource: "https://example.org/appData.json", features: ["member_card_url": "https://example.org/soap"], printDataErrors: true,
            // zh-Hant is Traditional Chinese now that it has a table of its own (issue 16 #2).
            rewrite: URLResolver.Rewrite(from: "http://internal/", to: "https://public/"), language: .traditionalChinese, hyperlinks: .never))
        XCTAssertEqual(warnings, [])
    }

    func testConfigEmptyFileIsDefaults() throws {
        let (config, warnings) = try loadConfig("# nothing here\n").get()
        XCTAssertEqual(config, DocentConfig())
        XCTAssertEqual(warnings, [])
    }

    func testConfigRelativeDataPathResolvesAgainstConfigDirectory() throws {
        XCTAssertEqual(try loadConfig(#"data = "../museum/./appData.json""#).get().config.dataSource, path("museum/appData.json"))
        XCTAssertEqual(try loadConfig(#"data = "appData.json""#).get().config.dataSource, path("conf/appData.json"))
        XCTAssertEqual(try loadConfig(#"data = "/srv/appData.json""#).get().config.dataSource, "/srv/appData.json")
        XCTAssertEqual(try loadConfig(#"data = "~/m/appData.json""#).get().config.dataSource, "/home/u/m/appData.json")
        XCTAssertEqual(try loadConfig(#"data = "file:///srv/appData.json""#).get().config.dataSource, "file:///srv/appData.json")
    }

    func testConfigSyntaxErrorNamesLine() throws {
        let message = failureMessage(try loadConfig("""
            data = "a.json"
            print_data_errors = true
            language = "en
            """))
        XCTAssertTrue(message.contains("config.toml is not valid TOML at line 3"), message)
    }

    func testConfigWrongTypes() throws {
        XCTAssertTrue(failureMessage(try loadConfig(#"print_data_errors = "yes""#)).hasSuffix("print_data_errors must be true or false"))
        XCTAssertTrue(failureMessage(try loadConfig("data = 5")).contains("data must be a string"))
        XCTAssertTrue(failureMessage(try loadConfig(#"language = "12""#)).contains("is not a language tag"))
        XCTAssertTrue(failureMessage(try loadConfig("url_rewrite = \"x\"")).contains("url_rewrite must be a table"))
        XCTAssertTrue(failureMessage(try loadConfig("[url_rewrite]\nfrom = \"a\"")).contains("needs both 'from' and 'to'"))
        XCTAssertTrue(failureMessage(try loadConfig(#"hyperlinks = "sometimes""#)).hasSuffix(#"hyperlinks must be "auto", "always" or "never""#))
        XCTAssertTrue(failureMessage(try loadConfig("hyperlinks = true")).contains("hyperlinks must be"))
        XCTAssertEqual(try loadConfig(#"hyperlinks = "Auto""#).get().config.hyperlinks, .auto)
        // The terminal's background (issue 47 #3).
        XCTAssertEqual(try loadConfig(#"background = "light""#).get().config.background, .light)
        XCTAssertEqual(try loadConfig(#"background = "light""#).get().warnings, [])
        XCTAssertTrue(failureMessage(try loadConfig(#"background = "white""#)).hasSuffix(#"background must be "auto", "light" or "dark""#))
    }

    /// Issue 16: a feature's keys may be true/false or whole numbers (`kiosk = true`,
    /// `kiosk_idle_seconds = 2`), handed to the feature as text; a table or array is refused.
    func testConfigFeatureKeysTakeBooleansAndNumbers() throws {
        let keys: Set<String> = ["kiosk", "kiosk_idle_seconds", "kiosk_pin"]
        let (config, warnings) = try ConfigLoader.load(
            path: try writeConfig("kiosk = true\nkiosk_idle_seconds = 2\nkiosk_pin = 2468\n"), featureKeys: keys
        ).get()
        XCTAssertEqual(config.features, ["kiosk": "true", "kiosk_idle_seconds": "2", "kiosk_pin": "2468"])
        XCTAssertEqual(warnings, [])
        let bad = ConfigLoader.load(path: try writeConfig("kiosk = [1]\n", name: "conf/bad.toml"), featureKeys: keys)
        XCTAssertTrue(failureMessage(bad).contains("kiosk must be a string, a whole number or true/false, not an array"), failureMessage(bad))
    }

    /// Issue 47 #17: a feature's value it cannot use stops the guide with the file, the line,
    /// the key and what it should be (`kiosk_idle_seconds = "three"` only warned, cut short).
    func testAFeaturesValueItCannotUseIsAFailureWithFileLineAndKey() throws {
        let features = try Registry.make()
        func load(_ text: String) throws -> Result<(config: DocentConfig, warnings: [String]), LoadFailure> {
            ConfigLoader.load(path: try writeConfig(text, name: "conf/kiosk.toml"), featureKeys: features.configKeys, featureCheck: features.configProblem)
        }
        let three = failureMessage(try load("kiosk = true\nkiosk_idle_seconds = \"three\"\n"))
        XCTAssertTrue(three.contains("conf/kiosk.toml: line 2: kiosk_idle_seconds must be a whole number of seconds from 1 to 86400, not \"three\""), three)
        let zero = failureMessage(try load("kiosk_idle_seconds = 0\n"))
        XCTAssertTrue(zero.contains("line 1: kiosk_idle_seconds must be a whole number of seconds from 1 to 86400, not 0"), zero)
        XCTAssertTrue(failureMessage(try load("\nkiosk = \"yes\"\n")).contains("line 2: kiosk must be true or false, not \"yes\""))
        XCTAssertTrue(failureMessage(try load("kiosk_reload_at = \"noon\"\n")).contains("line 1: kiosk_reload_at must be a time of day"))
        XCTAssertTrue(failureMessage(try load("images = \"maybe\"\n")).contains("line 1: images must be auto, always"))
        XCTAssertTrue(failureMessage(try load("screen_reader = 1\n")).contains("line 1: screen_reader must be true or false, not 1"))
        XCTAssertTrue(failureMessage(try load("kiosk = [1]\n")).contains("line 1: kiosk must be a string"))
        // Usable values pass as before.
        let good = try load("kiosk = true\nkiosk_idle_seconds = 2\nkiosk_reload_at = \"06:00\"\nimages = \"never\"\nscreen_reader = false\n").get()
        XCTAssertEqual(good.config.features["kiosk_idle_seconds"], "2")
        XCTAssertEqual(good.warnings, [])
    }

    /// Issue 17 #1: the museum's zone is an IANA name; anything else is refused with an example.
    func testConfigTimeZone() throws {
        XCTAssertEqual(try loadConfig(#"time_zone = "America/Chicago""#).get().config.timeZone, TimeZone(identifier: "America/Chicago"))
        XCTAssertEqual(try loadConfig(#"time_zone = "UTC""#).get().config.timeZone, TimeZone(identifier: "UTC"))
        XCTAssertNil(try loadConfig(#"data = "a.json""#).get().config.timeZone)
        for bad in [#""Mars/Olympus""#, #""CST""#, #""-06:00""#, #""""#] {
            XCTAssertTrue(failureMessage(try loadConfig("time_zone = \(bad)")).contains("is not a time zone name such as \"America/Chicago\""), bad)
        }
        XCTAssertTrue(failureMessage(try loadConfig("time_zone = 6")).contains("time_zone must be a string"))
    }

    /// Issue 45: each unknown key's line was found by a pass over the whole file (1,000 /
    /// 2,000 / 4,000 keys: 1.3 / 6.1 / 30.9 s to start). One pass finds them all.
    func testManyUnknownKeysWarnWithTheirLinesInLinearTime() throws {
        let text = (0..<4000).map { "unknown_key_\($0) = \($0)" }.joined(separator: "\n") + "\n\"quoted key\" = 1\n[url_rewrite]\nfrom = \"a\"\nto = \"b\"\n"
        let start = Date()
        let (_, warnings) = try loadConfig(text).get()
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(warnings.count, 4001)
        XCTAssertTrue(warnings.contains("line 4000: unknown key 'unknown_key_3999' ignored"), "\(warnings.suffix(3))")
        XCTAssertTrue(warnings.contains("line 4001: unknown key 'quoted key' ignored"), "\(warnings.suffix(3))")
        XCTAssertLessThan(took, 5, "4,000 unknown keys")
    }

    /// Issue 45: a configuration that is a device or a FIFO said "Permission denied" (and a
    /// FIFO could wait forever). Each is named as what it is, without being read.
    func testAConfigurationThatIsADeviceOrFIFOIsNamed() throws {
        let fifo = path("config.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let start = Date()
        XCTAssertEqual(failureMessage(ConfigLoader.load(path: fifo)), "the configuration file \(fifo) is a FIFO, not a file")
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "not opened")
        XCTAssertEqual(failureMessage(ConfigLoader.load(path: "/dev/zero")), "the configuration file /dev/zero is a device, not a file")
    }

    func testConfigUnknownKeysWarn() throws {
        let (config, warnings) = try loadConfig("""
            foo = 1
            print_data_errors = false
            [url_rewrite]
            from = "a"
            to = "b"
            extra = true
            """).get()
        XCTAssertEqual(config.rewrite, URLResolver.Rewrite(from: "a", to: "b"))
        // With the line where the key is set (issue 33 #14); a table's keys are named in full.
        XCTAssertEqual(warnings, ["line 1: unknown key 'foo' ignored", "unknown key 'url_rewrite.extra' ignored"])
    }

    /// Issue 17 #14: a mistyped key is still ignored, and the warning names the key meant.
    func testConfigMistypedKeySuggestsTheRightOne() throws {
        let (config, warnings) = try loadConfig("""
            langauge = "es"
            hyperlink = "never"
            timezone = "Europe/Paris"
            dta = "a.json"
            """).get()
        XCTAssertNil(config.language)
        XCTAssertEqual(warnings, [
            "line 4: unknown key 'dta' ignored; did you mean 'data'?",
            "line 2: unknown key 'hyperlink' ignored; did you mean 'hyperlinks'?",
            "line 1: unknown key 'langauge' ignored; did you mean 'language'?",
            "line 3: unknown key 'timezone' ignored; did you mean 'time_zone'?",
        ])
        // A feature's own keys are suggested too.
        XCTAssertEqual(ConfigLoader.suggestion(for: "member_card_ur", among: ["member_card_url", "data"]), "member_card_url")
        XCTAssertNil(ConfigLoader.suggestion(for: "colour_scheme", among: ["language", "data"]))
    }

    func testConfigMissingFile() throws {
        XCTAssertTrue(failureMessage(ConfigLoader.load(path: path("nope.toml"))).contains("does not exist"))
        // At the default path, no file is simply no configuration.
        let (config, warnings) = try ConfigLoader.loadDefault(environment: ["XDG_CONFIG_HOME": path("xdg")]).get()
        XCTAssertEqual(config, DocentConfig())
        XCTAssertEqual(warnings, [])
        // But a file there is read.
        _ = try writeConfig("print_data_errors = true", name: "xdg/docent/config.toml")
        XCTAssertEqual(try ConfigLoader.loadDefault(environment: ["XDG_CONFIG_HOME": path("xdg")]).get().config.printDataErrors, true)
    }

    func testDefaultConfigPath() {
        XCTAssertEqual(ConfigLoader.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/home/u"]), "/c/docent/config.toml")
        XCTAssertEqual(ConfigLoader.defaultPath(environment: ["HOME": "/home/u"]), "/home/u/.config/docent/config.toml")
    }

    // MARK: Document cache

    func testCacheRoundTripAndNoCollision() throws {
        let cache = FileDocumentCache(directory: path("cache"))
        let urlA = "https://example.org/appData.json"
        let urlB = "https://example.org/appData.json?v=2"
        XCTAssertNil(cache.cached(for: urlA))

        let docA = CachedDocument(body: Array(#"{"a":1}"#.utf8), etag: "\"abc\"", lastModified: "Tue, 01 Apr 2025 10:00:00 GMT", fetchedAt: 1_743_500_000.5)
        let docB = CachedDocument(body: Array(#"{"b":2}"#.utf8), etag: nil, lastModified: nil, fetchedAt: 1_743_600_000)
        try cache.write(docA, for: urlA).get()
        cache.store(docB, for: urlB)

        // Read back with the body's fingerprint (size and checksum), the one the validators
        // give from the meta file alone.
        func known(_ d: CachedDocument) -> CachedDocument {
            var d = d
            d.fingerprint = CachedValidators.fingerprint(d.body)
            return d
        }
        XCTAssertEqual(cache.cached(for: urlA), known(docA))
        XCTAssertEqual(cache.cached(for: urlB), known(docB))
        XCTAssertEqual(
            cache.validators(for: urlA),
            CachedValidators(etag: docA.etag, lastModified: docA.lastModified, fetchedAt: docA.fetchedAt, fingerprint: CachedValidators.fingerprint(docA.body)))
        XCTAssertNotEqual(FileDocumentCache.key(for: urlA), FileDocumentCache.key(for: urlB))
        XCTAssertTrue(cache.bodyPath(for: urlA).hasPrefix(path("cache/appdata/")))

        // A new instance (a later run) reads the same files; an update replaces them.
        let later = FileDocumentCache(directory: path("cache"))
        XCTAssertEqual(later.cached(for: urlA), known(docA))
        let newer = CachedDocument(body: Array("[]".utf8), etag: "\"def\"", lastModified: nil, fetchedAt: 1_743_700_000)
        later.store(newer, for: urlA)
        XCTAssertEqual(cache.cached(for: urlA), known(newer))
        XCTAssertEqual(cache.validators(for: urlA)?.fingerprint, "bytes=2 fnv1a64=" + FileDocumentCache.key(for: "[]"), "the same FNV-1a as the file names")

        // No temporary files are left behind.
        let files = try FileManager.default.contentsOfDirectory(atPath: path("cache/appdata")).sorted()
        XCTAssertEqual(files.count, 4, "\(files)")
        XCTAssertFalse(files.contains { $0.contains(".tmp-") })
    }

    func testCacheKeyIsStable() {
        // FNV-1a 64 test vectors: the empty string and "a".
        XCTAssertEqual(FileDocumentCache.key(for: ""), "cbf29ce484222325")
        XCTAssertEqual(FileDocumentCache.key(for: "a"), "af63dc4c8601ec8c")
    }

    func testCacheRejectsMismatchedBody() throws {
        let cache = FileDocumentCache(directory: path("cache"))
        let url = "https://example.org/a.json"
        cache.store(CachedDocument(body: Array("[1]".utf8), etag: "e", lastModified: nil, fetchedAt: 1), for: url)
        try Data("[2]".utf8).write(to: URL(fileURLWithPath: cache.bodyPath(for: url)))
        XCTAssertNil(cache.cached(for: url), "a body that does not match its meta is a miss, not a wrong etag")
        // The validators read the meta alone: a body of another size is a miss there too (the
        // same size with other bytes is caught when the body is read, above).
        XCTAssertNotNil(cache.validators(for: url))
        try Data("[22]".utf8).write(to: URL(fileURLWithPath: cache.bodyPath(for: url)))
        XCTAssertNil(cache.validators(for: url))
    }

    func testCacheWriteFailureIsReported() throws {
        let blocker = path("cache-file")
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data()))
        let cache = FileDocumentCache(directory: blocker)
        let message = failureMessage(cache.write(CachedDocument(body: [1], etag: nil, lastModified: nil, fetchedAt: 0), for: "https://x/"))
        XCTAssertTrue(message.hasPrefix("cannot write the offline copy of https://x/"), message)
        XCTAssertTrue(message.hasSuffix("(Not a directory)"), message)
        XCTAssertNil(cache.cached(for: "https://x/"))
    }

    func testDefaultCacheDirectory() {
        XCTAssertEqual(FileDocumentCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/k", "HOME": "/home/u"]), "/k/docent")
        XCTAssertEqual(FileDocumentCache.defaultDirectory(environment: ["HOME": "/home/u"]), "/home/u/.cache/docent")
    }
}
