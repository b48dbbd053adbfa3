import DocentTestSupport
import XCTest

@testable import DocentCore
@testable import DocentUI

/// Issue 17 #12: why a recording stopped is a plain sentence in the visitor's language, not
/// libcurl's words in English.
final class PlayerFailureTextTests: XCTestCase {
    func failed(_ f: AudioFailure, _ language: Language) -> String {
        var s = UIFixtures.loadedState(language: language)
        prepare(&s, .play(audioID: 12, artworkID: 101, tourID: nil))
        var snap = s.player.snapshot
        snap.status = .failed
        snap.failure = f
        // No sound server: none answers yet (with one, the player would start again at once).
        snap.outputAvailable = !f.isSoundServer
        prepare(&s, .playerSnapshot(snap))
        return PlayerView.statusText(s.player, s.strings)
    }

    func testEveryFailureIsASentenceInTheVisitorsLanguage() throws {
        let curl = "Could not resolve host: museum.example"
        let en = failed(.network(curl), .english)
        // The action first (issue 33 #12): a line cut at its end still says what to do.
        XCTAssertEqual(en, "Cannot play: press Space to try again (no connection to the museum's server)")
        for language in [Language.english, .korean, .french, .spanish, .chinese, Language.fromTag("zh-Hant")!] {
            let text = failed(.network(curl), language)
            let space = ["Space", "스페이스", "Espace", "Espacio", "空格", "空白"].compactMap { text.range(of: $0) }.first
            let cause = ["server", "서버", "serveur", "servidor", "服务器", "伺服器"].compactMap { text.range(of: $0) }.first
            XCTAssertNotNil(space, text)
            XCTAssertLessThan(try XCTUnwrap(space).lowerBound, try XCTUnwrap(cause).lowerBound, "\(language): the key before the cause: \(text)")
        }
        XCTAssertFalse(en.contains(curl), "libcurl's words are for the log")
        XCTAssertEqual(failed(.http(status: 404), .spanish), "No se puede reproducir: el servidor del museo no tiene esta grabación (HTTP 404)")
        XCTAssertEqual(failed(.notAudio, .chinese), "无法播放：此文件不是导览可以播放的录音")
        // Every case has its own words in every language, none English on a Spanish screen.
        let all: [AudioFailure] = [
            .soundServerLost("x"), .http(status: 500), .fileNotFound("/a.mp3"), .network("x"), .notAudio,
            .contentLengthTooShort(announced: 10),
        ]
        for f in all {
            let es = failed(f, .spanish), english = failed(f, .english)
            XCTAssertNotEqual(es, english, "\(f)")
            XCTAssertFalse(es.contains(f.description), "\(f): \(es)")
        }
        XCTAssertEqual(failed(.noSoundServer("refused"), .english), try XCTUnwrap(UIFixtures.catalog.tables[.english]?[StringKey.playerNoSound.rawValue]))
    }

    /// A recording played from the copy kept on this machine (its server unreachable) says so
    /// on the player's page; a new recording starts without it.
    func testAKeptCopyIsSaidOnThePlayer() throws {
        var s = UIFixtures.loadedState(language: .french)
        prepare(&s, .play(audioID: 12, artworkID: 101, tourID: nil))
        var snap = s.player.snapshot
        snap.status = .playing
        snap.keptCopy = true
        send(&s, .playerSnapshot(snap)) { $0.player.snapshot = snap }
        let said = s.strings(.playerKeptCopy)
        XCTAssertEqual(said, "Hors ligne : lecture de la copie gardée sur cet appareil")
        XCTAssertTrue(try XCTUnwrap(PlayerFeature.page(try XCTUnwrap(s.museum), s.player, FeatureContext(s))).facts.contains(said))
        prepare(&s, .play(audioID: 11, artworkID: 100, tourID: nil))
        XCTAssertFalse(PlayerFeature.page(try XCTUnwrap(s.museum), s.player, FeatureContext(s))?.facts.contains(said) ?? true)
    }
}
