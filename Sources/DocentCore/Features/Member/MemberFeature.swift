import Foundation

/// The member card: a sign-in form (member ID and ZIP code), the card once the membership
/// service confirms it, re-checked at every start, and the `member_expiration` messages its
/// expiry date triggers. Off unless the configuration names the service (`member_card_url`).
public struct MemberState: Equatable, Sendable {
    /// The confirmed card (also restored from the state database).
    public var card: MemberCard?
    /// What the visitor is typing.
    public var memberID = ""
    public var zip = ""
    /// 0: member ID, 1: ZIP code.
    public var field = 0
    public var status: Status = .idle
    /// Answers carry the token of their request; older ones are ignored.
    public var token = 0
    /// The expiry messages were queued this run (they are offered once per start).
    public var expiryMessagesQueued = false

    public enum Status: Equatable, Sendable {
        case idle
        /// A sign-in (`signingIn`) or a re-check of the stored card is under way.
        case checking(signingIn: Bool)
        /// The last sign-in failed; the form says why.
        case failed(MemberCardFailure)
        /// The stored card could not be re-checked (offline); it is still shown.
        case recheckFailed(MemberCardFailure)
    }

    public init() {}

    public static let maxFieldLength = 32

    public var isChecking: Bool {
        if case .checking = status { return true }
        return false
    }
}

public enum MemberAction: Equatable, Sendable {
    /// Open the member card page (from Info).
    case open
    case typed(String)
    case deleteBackward
    /// Move between the two fields.
    case nextField
    case previousField
    /// Send the form.
    case submit
    /// The service answered request `token`.
    case answered(token: Int, Result<[UInt8], LoadFailure>)
    /// Ask the service again about the stored card.
    case recheck
    /// Show the other name on a card with two.
    case switchHolder
    /// Forget the card.
    case signOut
}

public enum MemberEffect: Equatable, Sendable {
    case validate(token: Int, FetchRequest)
}

extension Reducer {
    /// The member card part of the reducer; nil when the action is not its own.
    static func reduceMember(_ state: inout AppState, _ action: AppAction) -> [Effect]? {
        if case .clicked(let tag) = action, tag.hasPrefix("member:field:") {
            if state.member.card == nil, let i = Int(tag.dropFirst("member:field:".count)), i == 0 || i == 1 { state.member.field = i }
            return []
        }
        guard case .member(let a) = action else { return nil }
        switch a {
        case .open:
            guard state.memberCardURL != nil else { return [] }
            if state.page.route != .memberCard { push(&state, .memberCard) }
            state.page.selection = firstSelectable(.memberCard, state)
            return []
        case .typed(let text):
            guard state.page.route == .memberCard, state.member.card == nil, !state.member.isChecking else { return [] }
            // Printable characters only (IDs and ZIP codes are letters, digits and a few marks).
            let clean = String(text.filter { !$0.isNewline && ($0.isLetter || $0.isNumber || $0.isPunctuation || $0.isSymbol || $0 == " ") })
            if state.member.field == 0 {
                state.member.memberID = String((state.member.memberID + clean).prefix(MemberState.maxFieldLength))
            } else {
                state.member.zip = String((state.member.zip + clean).prefix(MemberState.maxFieldLength))
            }
            if case .failed = state.member.status { state.member.status = .idle }
            return []
        case .deleteBackward:
            guard state.member.card == nil, !state.member.isChecking else { return [] }
            if state.member.field == 0 {
                if !state.member.memberID.isEmpty { state.member.memberID.removeLast() }
            } else if !state.member.zip.isEmpty {
                state.member.zip.removeLast()
            } else {
                state.member.field = 0
            }
            return []
        case .nextField, .previousField:
            guard state.member.card == nil else { return [] }
            state.member.field = a == .nextField ? 1 : 0
            return []
        case .submit:
            guard state.member.card == nil, !state.member.isChecking else { return [] }
            let id = state.member.memberID.trimmingCharacters(in: .whitespaces)
            let zip = state.member.zip.trimmingCharacters(in: .whitespaces)
            if state.member.field == 0 || zip.isEmpty {
                // Enter in the first field moves on, as in any form.
                if !id.isEmpty { state.member.field = 1 }
                return []
            }
            guard !id.isEmpty else {
                state.member.field = 0
                return []
            }
            return validate(&state, memberID: id, zip: zip, signingIn: true)
        case .recheck:
            guard let card = state.member.card, !state.member.isChecking else { return [] }
            return validate(&state, memberID: card.memberID, zip: card.zip, signingIn: false)
        case .answered(let token, let result):
            guard token == state.member.token, case .checking(let signingIn) = state.member.status else { return [] }
            return answered(&state, result, signingIn: signingIn)
        case .switchHolder:
            guard var card = state.member.card, card.holders.count > 1 else { return [] }
            card.holderIndex = (card.holderIndex + 1) % card.holders.count
            state.member.card = card
            return [.persist(state.settings)]
        case .signOut:
            guard state.member.card != nil else { return [] }
            // Nothing of the card is kept (a shared kiosk must not remember it).
            let token = state.member.token
            state.member = MemberState()
            state.member.token = token &+ 1
            state.page.selection = 0
            state.banner = Banner(state.strings("member.signedOut"))
            return [.persist(state.settings)]
        }
    }

    static func validate(_ state: inout AppState, memberID: String, zip: String, signingIn: Bool) -> [Effect] {
        guard let url = state.memberCardURL else { return [] }
        state.member.token = state.member.token &+ 1
        state.member.status = .checking(signingIn: signingIn)
        return [.member(.validate(token: state.member.token, MemberCardAPI.request(url: url, memberID: memberID, zip: zip)))]
    }

    static func answered(_ state: inout AppState, _ result: Result<[UInt8], LoadFailure>, signingIn: Bool) -> [Effect] {
        let typedZip = signingIn ? state.member.zip.trimmingCharacters(in: .whitespaces) : state.member.card?.zip ?? ""
        let typedID = signingIn ? state.member.memberID.trimmingCharacters(in: .whitespaces) : state.member.card?.memberID ?? ""
        let outcome: Result<MemberCard, MemberCardFailure>
        switch result {
        case .failure(let f): outcome = .failure(.network(f.message))
        case .success(let bytes): outcome = MemberCardAPI.parse(bytes, memberID: typedID, zip: typedZip, now: state.now)
        }
        switch outcome {
        case .success(var card):
            if let old = state.member.card, old.holders == card.holders { card.holderIndex = old.holderIndex }
            state.member.card = card
            state.member.status = .idle
            state.member.zip = ""
            if signingIn {
                state.banner = Banner(state.strings("member.welcome", ["name": card.firstName.isEmpty ? card.holder : card.firstName]))
                if state.page.route == .memberCard { state.page.selection = firstSelectable(.memberCard, state) }
            }
            queueExpirationMessages(&state)
            return [.persist(state.settings)]
        case .failure(let why):
            if signingIn {
                state.member.status = .failed(why)
                return []
            }
            // A stored card the service no longer knows is forgotten; one that could not be
            // checked (offline, service down) is kept and marked.
            if why == .notFound {
                state.member.card = nil
                state.member.status = .failed(.notFound)
                state.banner = Banner(state.strings("member.noLongerValid"), level: .warning)
                return [.persist(state.settings)]
            }
            state.member.status = .recheckFailed(why)
            return []
        }
    }

    /// At start, with a stored card: check it again (quietly).
    static func recheckStoredCard(_ state: inout AppState) -> [Effect] {
        guard let card = state.member.card, state.memberCardURL != nil else { return [] }
        return validate(&state, memberID: card.memberID, zip: card.zip, signingIn: false)
    }

    /// `member_expiration` messages whose threshold the card has reached, not yet seen (or
    /// persistent), after any messages already waiting.
    static func queueExpirationMessages(_ state: inout AppState) {
        guard let card = state.member.card, !card.isLifetime, let app = state.museum, !state.member.expiryMessagesQueued else { return }
        state.member.expiryMessagesQueued = true
        let due = app.messages.filter { m in
            guard case .memberExpiration(let threshold) = m.kind else { return false }
            return state.now >= card.expiration.addingTimeInterval(-Double(threshold))
                && (m.persistent || !state.seenMessageIDs.contains(m.id))
        }.map(\.id)
        var waiting = Set(state.messageQueue)
        if case .message(let id)? = state.overlay { waiting.insert(id) }
        let new = due.filter { !waiting.contains($0) }
        guard !new.isEmpty else { return }
        state.messageQueue += new
        if state.overlay == nil { showNextMessage(&state) }
    }

    /// The words for a failure, in the current language.
    public static func memberFailureText(_ f: MemberCardFailure, _ state: AppState) -> String {
        let s = state.strings
        switch f {
        case .network(let why): return s("member.error.network", ["reason": why])
        case .fault(let why): return s("member.error.fault", ["reason": why])
        case .notFound: return s("member.error.notFound")
        case .unreadable(let why): return s("member.error.unreadable", ["reason": why])
        }
    }
}
