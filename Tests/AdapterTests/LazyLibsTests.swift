import CLazyLibs
import XCTest

/// The libraries opened on first use (issue 48): each group opens and says so; a group that
/// does not exist is refused with a reason, never a crash. That a start opens none of them is
/// checked on the programs themselves (`scripts/lazy-needed.sh` in `make build-release`, and
/// `EndToEndTests`' first frame with the museum loaded).
final class LazyLibsTests: XCTestCase {
    func testEachGroupOpensItsLibrariesAndSaysSo() {
        for group in [DOCENT_LAZY_POPPLER, DOCENT_LAZY_PICTURES, DOCENT_LAZY_OPENCC, DOCENT_LAZY_CURL] {
            XCTAssertEqual(docent_lazy_load(group), 1, String(cString: docent_lazy_error(group)))
            XCTAssertEqual(docent_lazy_is_loaded(group), 1)
            XCTAssertEqual(String(cString: docent_lazy_error(group)), "")
            XCTAssertEqual(docent_lazy_load(group), 1, "a second load is the first one's answer")
        }
    }

    func testAGroupThatDoesNotExistIsRefused() {
        let bogus = docent_lazy_group(rawValue: 7)
        XCTAssertEqual(docent_lazy_load(bogus), 0)
        XCTAssertEqual(docent_lazy_is_loaded(bogus), 0)
        XCTAssertEqual(String(cString: docent_lazy_error(bogus)), "no such group")
    }
}
