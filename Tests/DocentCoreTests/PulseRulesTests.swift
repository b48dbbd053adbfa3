import XCTest

@testable import DocentCore
@testable import PulseKit

final class PulseRulesTests: XCTestCase {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let alice = VisitorID("alice000")!
    let bob = VisitorID("bob00000")!

    func note(_ seq: UInt64, by v: VisitorID? = nil, subject: PulseSubject = .artwork(1), at: Date? = nil, up: Int = 0, down: Int = 0, reports: Int = 0, author: NoteAuthor = .visitor, decision: StaffDecision? = nil) -> PulseNote {
        PulseNote(
            id: NoteID(visitor: v ?? alice, sequence: seq), subject: subject, language: .english, text: "n\(seq)", createdAt: at ?? t0, author: author,
            counts: PulseCounts(up: up, down: down), reports: reports, decision: decision)
    }

    // MARK: Subjects and ids

    func testSubjectKeysAreChecked() {
        for good in ["artwork:1101", "tour:2", "stop:2/3", "exhibition:7", "gallery:12", "museum", "note:alice000.12"] {
            XCTAssertNotNil(PulseSubject(good), good)
        }
        for bad in ["", "artwork:", "artwork:x", "stop:2", "stop:2/", "tour:-1", "museum:1", "note:UPPER.1", "artwork:1 ", "painting:3", String(repeating: "1", count: 90)] {
            XCTAssertNil(PulseSubject(bad), bad)
        }
        XCTAssertEqual(PulseSubject.stop(tour: 2, sort: 3).key, "stop:2/3")
        XCTAssertEqual(PulseSubject("note:alice000.12")?.noteID, NoteID(visitor: alice, sequence: 12))
    }

    func testNoteIDsRoundTripAndNeverWrap() {
        let id = NoteID(visitor: alice, sequence: UInt64.max)
        XCTAssertEqual(NoteID(key: id.key), id)
        XCTAssertNotEqual(NoteID(visitor: alice, sequence: 256), NoteID(visitor: alice, sequence: 0))
        XCTAssertNil(NoteID(key: "alice000.18446744073709551616"))
        XCTAssertNil(NoteID(key: "alice000.-1"))
    }

    func testCredentialsFromRandomBytes() {
        let c = VisitorCredentials.make(random: Array(0..<26))
        XCTAssertEqual(c?.visitor.rawValue, "abcdefghij")
        XCTAssertEqual(c?.secret.count, 32)
        XCTAssertNil(VisitorCredentials.make(random: [1, 2, 3]))
    }

    // MARK: Reactions

    func testSameChoiceAgainWithdrawsAnotherReplaces() {
        XCTAssertEqual(PulseRules.toggled(nil, pressing: .up), .up)
        XCTAssertNil(PulseRules.toggled(.up, pressing: .up))
        XCTAssertEqual(PulseRules.toggled(.up, pressing: .down), .down)
        XCTAssertEqual(PulseRules.toggled(.meh, pressing: .up), .up)
    }

    func testCountsFollowChangesAndEqualRecount() {
        var c = PulseCounts.zero
        var rows: [VisitorID: ReactionValue] = [:]
        let steps: [(VisitorID, ReactionValue?)] = [(alice, .up), (bob, .down), (alice, .meh), (bob, nil), (alice, .up), (bob, .up)]
        for (v, new) in steps {
            c = c.changed(from: rows[v], to: new)
            rows[v] = new
        }
        XCTAssertEqual(c, PulseCounts.recount(rows.values))
        XCTAssertEqual(c, PulseCounts(up: 2, meh: 0, down: 0))
    }

    func testLikesShownAreNeverNegative() {
        XCTAssertEqual(PulseCounts(up: 0, down: 9).shownLikes, 0)
        XCTAssertEqual(PulseCounts(up: 0, down: 9).score, -9)
    }

    // MARK: Reports

    func testThreeDistinctReportersHideForEveryoneTwoDoNot() {
        let rules = PulseRules()
        XCTAssertNil(rules.hidden(note(1, reports: 2), viewerReported: false))
        XCTAssertFalse(rules.needsReview(note(1, reports: 2)))
        XCTAssertEqual(rules.hidden(note(1, reports: 3), viewerReported: false), .reported)
        XCTAssertTrue(rules.needsReview(note(1, reports: 3)))
        var lower = rules
        lower.reportThreshold = 2
        XCTAssertEqual(lower.hidden(note(1, reports: 2), viewerReported: false), .reported)
    }

    func testTheReporterStopsSeeingItAtOnceAndUndoBringsItBack() {
        let rules = PulseRules()
        let n = note(1, reports: 1)
        XCTAssertEqual(rules.hidden(n, viewerReported: true), .reportedByViewer)
        XCTAssertEqual(rules.visible([n], reportedByViewer: [n.id]), [])
        // Undo: the report is withdrawn, the count goes down, the note is back.
        XCTAssertEqual(rules.visible([note(1, reports: 0)], reportedByViewer: []).map(\.id), [n.id])
    }

    func testStaffRestoreStopsReportsCountingAndRemoveHidesForAll() {
        let rules = PulseRules()
        XCTAssertNil(rules.hidden(note(1, reports: 5, decision: .restored), viewerReported: false))
        XCTAssertFalse(rules.needsReview(note(1, reports: 5, decision: .restored)))
        XCTAssertEqual(rules.hidden(note(1, decision: .removed), viewerReported: false), .removed)
    }

    func testHiddenWriterUndoable() {
        let rules = PulseRules()
        let n = note(1, by: bob)
        XCTAssertEqual(rules.hidden(n, viewerReported: false, hiddenWriters: [bob]), .writerHidden)
        XCTAssertNil(rules.hidden(n, viewerReported: false, hiddenWriters: []))
    }

    // MARK: Score

    func testNetScoreAtMinusFiveHidesAboveDoesNot() {
        let rules = PulseRules()
        XCTAssertNil(rules.hidden(note(1, up: 1, down: 5), viewerReported: false))  // −4
        XCTAssertEqual(rules.hidden(note(1, up: 1, down: 6), viewerReported: false), .lowScore)  // −5
        XCTAssertEqual(rules.hidden(note(1, down: 9), viewerReported: false), .lowScore)
    }

    func testMuseumNotesAreNeverHiddenByVisitors() {
        let rules = PulseRules()
        let n = note(1, by: .curator, down: 50, reports: 10, author: .curator)
        XCTAssertNil(rules.hidden(n, viewerReported: false))
        XCTAssertFalse(rules.needsReview(n))
    }

    func testVisibleIsNewestFirstWithTotalOrder() {
        let rules = PulseRules()
        let a = note(1, at: t0), b = note(2, at: t0.addingTimeInterval(60)), c = note(3, at: t0)
        XCTAssertEqual(rules.visible([a, b, c], reportedByViewer: []).map(\.id.sequence), [2, 3, 1])
    }

    // MARK: Retention

    func testRetentionKeepsRecentAndBestFewPerSubject() {
        let rules = PulseRules()
        let now = t0.addingTimeInterval(72 * 3600)
        let recent = note(100, at: now.addingTimeInterval(-47 * 3600))
        // Six old notes on artwork 1 with scores 0…5; the best four are kept.
        let old = (0..<6).map { i in note(UInt64(i), at: t0, up: i) }
        let negative = note(50, subject: .artwork(2), at: t0, down: 1)
        let curator = note(60, by: .curator, at: t0.addingTimeInterval(-9_999_999), author: .curator)
        let pinned = note(61, at: t0, down: 3, decision: .pinned)
        let kept = rules.retained(old + [recent, negative, curator, pinned], now: now)
        XCTAssertEqual(kept, Set([recent.id, old[5].id, old[4].id, old[3].id, old[2].id, curator.id, pinned.id]))
        XCTAssertTrue(rules.isHighlight(old[5], now: now))
        XCTAssertFalse(rules.isHighlight(recent, now: now))
    }

    func testRetentionBoundaryAndTiesByRecency() {
        var rules = PulseRules()
        rules.highlightsPerSubject = 1
        let now = t0.addingTimeInterval(48 * 3600)
        let exactly48h = note(1, at: t0)
        let newerTie = note(2, at: t0.addingTimeInterval(-10), up: 1)
        let olderTie = note(3, at: t0.addingTimeInterval(-20), up: 1)
        let kept = rules.retained([exactly48h, newerTie, olderTie], now: now)
        // At exactly 48 h a note is old; of the two with score 1 the newer is the highlight.
        XCTAssertEqual(kept, [newerTie.id])
    }

    func testReportedNotesAreNotHighlights() {
        let rules = PulseRules()
        let now = t0.addingTimeInterval(49 * 3600)
        XCTAssertEqual(rules.retained([note(1, at: t0, up: 9, reports: 3)], now: now), [])
        XCTAssertEqual(rules.retained([note(1, at: t0, decision: .removed)], now: t0), [])
    }

    // MARK: Rate limits

    func testRateLimitSaysHowLongToWait() {
        let earlier = (0..<10).map { t0.addingTimeInterval(Double($0) * 60) }
        let now = t0.addingTimeInterval(15 * 60)
        XCTAssertEqual(PulseRules.check(earlier, now: now, limit: 10, per: 3600), 45 * 60)
        XCTAssertNil(PulseRules.check(earlier, now: now, limit: 11, per: 3600))
        XCTAssertNil(PulseRules.check(earlier, now: t0.addingTimeInterval(3600), limit: 10, per: 3600))
    }

    // MARK: Popular right now

    /// Issue 33 #9: what visitors do comes first (three featured items took every place).
    func testRankingHourThenTodayThenTierThenPicksStable() {
        let s = (1...7).map { PulseSubject.artwork($0) }
        let featured = [
            PulseFeatured(subject: s[5], tier: 2, taglines: [:]), PulseFeatured(subject: s[6], tier: 2, taglines: [:]),
            PulseFeatured(subject: s[4], tier: 9, taglines: [:], until: t0),  // expired
        ]
        let activity: [PulseSubject: PulseActivitySummary] = [
            s[0]: PulseActivitySummary(recent: 1, today: 9), s[1]: PulseActivitySummary(recent: 3, today: 3),
            s[2]: PulseActivitySummary(recent: 0, today: 4),
        ]
        let ranked = PulseRanking.rank(s, featured: featured, activity: activity, curatorPicks: [s[3]], now: t0, limit: 10)
        // The hour; then today; then tier 2, ties in appData order (6 before 7); then picks; 5 has nothing left.
        XCTAssertEqual(ranked.map(\.subject), [s[1], s[0], s[2], s[5], s[6], s[3]])
        XCTAssertEqual(ranked.map(\.heat), [.warm, .warm, .cold, .cold, .cold, .cold])
    }

    func testRankingFullTiesKeepAppDataOrderAndLimit() {
        let s = (1...5).map { PulseSubject.tour($0) }
        let act = Dictionary(uniqueKeysWithValues: s.map { ($0, PulseActivitySummary(recent: 2, today: 2)) })
        let ranked = PulseRanking.rank(s.reversed(), featured: [], activity: act, curatorPicks: [], now: t0, limit: 3)
        XCTAssertEqual(ranked.map(\.subject), [s[4], s[3], s[2]])
    }

    func testColdStartFallsBackToCuratorPicks() {
        let s = [PulseSubject.artwork(1), .artwork(2), .artwork(3)]
        let ranked = PulseRanking.rank(s, featured: [], activity: [:], curatorPicks: [s[2], s[0]], now: t0, limit: 5)
        XCTAssertEqual(ranked.map(\.subject), [s[0], s[2]])
    }

    func testHeatLevels() {
        XCTAssertEqual(PulseHeat(recentCount: 0), .cold)
        XCTAssertEqual(PulseHeat(recentCount: 5), .warm)
        XCTAssertEqual(PulseHeat(recentCount: 6), .hot)
    }

    func testActivitySummaryWindows() {
        let now = t0
        let dayStart = t0.addingTimeInterval(-3 * 3600)
        let a = PulseSubject.artwork(1)
        let events = [
            PulseActivity(subject: a, kind: .play, at: now.addingTimeInterval(-59 * 60)),
            PulseActivity(subject: a, kind: .note, at: now.addingTimeInterval(-60 * 60)),  // not in the hour
            PulseActivity(subject: a, kind: .reaction, at: now.addingTimeInterval(-4 * 3600)),  // yesterday
            PulseActivity(subject: a, kind: .play, at: now.addingTimeInterval(60)),  // future: ignored
        ]
        let s = PulseActivitySummary.summarise(events, now: now, dayStart: dayStart, window: 3600)[a]
        XCTAssertEqual(s, PulseActivitySummary(recent: 1, today: 2, last: now.addingTimeInterval(-59 * 60)))
    }

    func testFeaturedByTierIsStable() {
        let items = [1, 2, 3, 4]
        let featured = [PulseFeatured(subject: .exhibition(3), tier: 1, taglines: [:]), PulseFeatured(subject: .exhibition(4), tier: 1, taglines: [:])]
        XCTAssertEqual(PulseRanking.byTier(items, subject: { .exhibition($0) }, featured: featured, now: t0), [3, 4, 1, 2])
    }

    func testFeaturedWindowAndTaglineFallback() {
        let f = PulseFeatured(subject: .tour(1), tier: 1, taglines: [.english: "Today"], from: t0, until: t0.addingTimeInterval(10))
        XCTAssertFalse(f.isActive(at: t0.addingTimeInterval(-1)))
        XCTAssertTrue(f.isActive(at: t0))
        XCTAssertFalse(f.isActive(at: t0.addingTimeInterval(10)))
        XCTAssertEqual(f.tagline(.spanish), "Today")
    }
}

final class PulsePatternTests: XCTestCase {
    func p(_ s: String) -> PulsePattern {
        guard let p = PulsePattern(s) else {
            XCTFail("pattern \(s) refused")
            return PulsePattern("x")!
        }
        return p
    }

    func testAnchoredAtBothEnds() {
        XCTAssertTrue(p("gallery:2\\d\\d").matches("gallery:201"))
        XCTAssertFalse(p("gallery:2\\d\\d").matches("gallery:2010"))
        XCTAssertFalse(p("gallery:2\\d\\d").matches("xgallery:201"))
        XCTAssertTrue(p("tab:map").matches("tab:map"))
        XCTAssertFalse(p("tab:map").matches("tab:maps"))
    }

    func testGroupsAlternationClassesRepeats() {
        let g = p("gallery:2(0[0-9])")
        XCTAssertTrue(g.matches("gallery:205"))
        XCTAssertFalse(g.matches("gallery:215"))
        XCTAssertTrue(p("(tour|stop):1023(/\\d+)?").matches("stop:1023/4"))
        XCTAssertTrue(p("(tour|stop):1023(/\\d+)?").matches("tour:1023"))
        XCTAssertFalse(p("(tour|stop):1023(/\\d+)?").matches("artwork:1023"))
        XCTAssertTrue(p("artwork:1\\d{2,3}").matches("artwork:1101"))
        XCTAssertFalse(p("artwork:1\\d{2,3}").matches("artwork:11011"))
        XCTAssertTrue(p("[^0-9]+").matches("museum"))
        XCTAssertFalse(p("[^0-9]+").matches("m1"))
        XCTAssertTrue(p("a.c").matches("a中c"))
        XCTAssertTrue(p("museum|").matches(""))
    }

    /// The leading literal of a pattern refuses most keys with one comparison (issue 34:
    /// thousands of announcements that cannot apply to a page cost next to nothing).
    func testTheLiteralPrefixIsExactlyWhatEveryMatchBeginsWith() {
        XCTAssertEqual(p("gallery:2\\d\\d").prefix, "gallery:2")
        XCTAssertEqual(p("tab:map").prefix, "tab:map")
        XCTAssertEqual(p("(tour|stop):1").prefix, "")
        XCTAssertEqual(p("museum|tab:home").prefix, "")
        XCTAssertEqual(p("ab*").prefix, "a")
        XCTAssertEqual(p("[^x]y").prefix, "")
        XCTAssertEqual(p("a.c").prefix, "a")
        // Answers are the automaton's as before: the prefix only refuses sooner.
        XCTAssertTrue(p("ab*").matches("a"))
        XCTAssertFalse(p("gallery:2\\d\\d").matches("gallery:1"))
        XCTAssertFalse(p("gallery:2\\d\\d").matches("gall"))
        XCTAssertTrue(p("ab*").matches("abbb"))
        XCTAssertFalse(p("ab*").matches("b"))
    }

    /// A snapshot's announcements are bounded before the guide keeps them: ended ones go first,
    /// then the rest by id up to `maxKept`; a short list is kept as it is.
    func testASnapshotsAnnouncementsAreBounded() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        func a(_ i: Int, until: Date? = nil) -> PulseAnnouncement {
            PulseAnnouncement(id: String(format: "a%05d", i), feeds: [p("gallery:9\\d{4}")], style: .card, until: until, text: [.english: "x"])
        }
        let few = (0..<5).map { a($0) }
        XCTAssertEqual(PulseAnnouncements.kept(few, now: now), few)
        let flood = (0..<18_000).reversed().map { a($0, until: $0 < 100 ? now.addingTimeInterval(-1) : nil) }
        let kept = PulseAnnouncements.kept(flood, now: now)
        XCTAssertEqual(kept.count, PulseAnnouncements.maxKept)
        XCTAssertEqual(kept.first?.id, "a00100")
        XCTAssertEqual(kept.last?.id, String(format: "a%05d", 100 + PulseAnnouncements.maxKept - 1))
    }

    func testValidationLimits() {
        XCTAssertEqual(PulsePattern.compile("").failure, .empty)
        XCTAssertEqual(PulsePattern.compile(String(repeating: "a", count: 121)).failure, .tooLong(121))
        XCTAssertEqual(PulsePattern.compile("(((((a)))))").failure, .tooDeep)
        XCTAssertNotNil(PulsePattern("((((a))))"))
        XCTAssertEqual(PulsePattern.compile("a{1,17}").failure, .badRepeat("bounds must be 0…16, low ≤ high"))
        XCTAssertEqual(PulsePattern.compile("a{3,2}").failure, .badRepeat("bounds must be 0…16, low ≤ high"))
        XCTAssertEqual(PulsePattern.compile("((((a{16}){16}){16}){16})").failure, .tooBig)
        XCTAssertEqual(PulsePattern.compile("*a").failure, .unexpected("*", at: 0))
        XCTAssertEqual(PulsePattern.compile("(ab").failure, .unclosed("( at 1"))
        XCTAssertEqual(PulsePattern.compile("[ab").failure, .unclosed("[ at 1"))
        XCTAssertEqual(PulsePattern.compile("^museum").failure, .unexpected("^", at: 0))
        XCTAssertEqual(PulsePattern.compile("a\\q").failure, .unexpected("q", at: 2))
    }

    /// The classic catastrophic patterns, on inputs that make a backtracking matcher take
    /// 2^n steps, are answered at once (a 200-character input, the largest matched).
    func testHostilePatternsCannotHang() {
        let hostile = ["(a*)*b", "(a+)+b", "(a|a)*b", "(a|aa)+b", "((a*)*)*b", "(.*){16}b"]
        let input = String(repeating: "a", count: 200)
        let clock = ContinuousClock()
        for h in hostile {
            let pattern = p(h)
            let took = clock.measure { XCTAssertFalse(pattern.matches(input)) }
            // Generous on a shared builder; a backtracking matcher would take years here.
            XCTAssertLessThan(took, .milliseconds(500), h)
        }
        XCTAssertFalse(p("a*").matches(String(repeating: "a", count: 201)))  // beyond maxInput
    }
}

final class NoteTextTests: XCTestCase {
    func testPlainNFCOneParagraph() {
        XCTAssertEqual(try NoteText.clean("  Cafe\u{301}\n\n  at   noon\t").get(), "Café at noon")
        XCTAssertEqual(try NoteText.clean("<b>bold</b> &amp;").get(), "<b>bold</b> &amp;")
    }

    func testControlEscapeAndFormatCharactersRemoved() {
        let cleaned = try? NoteText.clean("a\u{1B}[2J\u{1B}]0;x\u{07}b\u{9B}c\u{7F}\u{200B}\u{202E}d\u{E000}\u{FFFF}").get()
        XCTAssertEqual(cleaned, "a[2J]0;xbcd")
    }

    func testLimitInDisplayCells() {
        XCTAssertEqual(try NoteText.clean(String(repeating: "a", count: 280)).get().count, 280)
        XCTAssertEqual(NoteText.clean(String(repeating: "a", count: 281)).failure, .tooLong(281))
        // 140 wide characters are 280 cells; 141 are too many.
        XCTAssertEqual(NoteText.cells(String(repeating: "画", count: 140)), 280)
        XCTAssertEqual(NoteText.clean(String(repeating: "画", count: 141)).failure, .tooLong(282))
        XCTAssertEqual(NoteText.clean(" \n\u{1B}\t").failure, .empty)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let f) = self { return f }
        return nil
    }
}
