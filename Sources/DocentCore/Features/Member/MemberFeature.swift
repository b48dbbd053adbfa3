import Foundation

/// The member card: a sign-in form (member ID and ZIP code), the card once the membership
/// service confirms it, re-checked at every start, and the `member_expiration` messages its
/// expiry date triggers. Off unless the configuration names the service (`member_card_url`).
public struct MemberState: Equatable, Sendable {
    /// The membership service (configuration `member_card_url`); nil: no member card.
    public var serviceURL: String?
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
    /// A click on field 0 (member ID) or 1 (ZIP code).
    case focusField(Int)
}

public enum MemberEffect: Equatable, Sendable {
    case validate(token: Int, FetchRequest)
}

/// The member card as a feature of the guide: its state, actions, page, Info row, saved card
/// and message placeholders. The form is drawn by `MemberView` (DocentUI); the service is
/// asked by `MemberRunner` (the executable); the card is stored by `MemberStorage`.
public enum MemberFeature: Feature {
    public typealias State = MemberState
    public typealias Action = MemberAction
    public typealias Effect = MemberEffect
    public typealias Saved = MemberCard

    /// The feature's one page: the card, or the form to sign in.
    public enum Route: Hashable, Sendable { case card }

    public static let id = FeatureID("member")
    public static let order: [Capability: Int] = [.events: 100, .rows: 100, .placeholders: 100]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .documentLoaded, .startOver]
    public static let initialState = MemberState()
    /// The configuration key naming the membership service.
    public static let configKey = "member_card_url"
    public static let configKeys = [configKey]

    public static func reduce(_ state: inout AppState, _ a: MemberAction) -> [DocentCore.Effect] {
        switch a {
        case .focusField(let i):
            if state.member.card == nil, i == 0 || i == 1 { state.member.field = i }
            return []
        case .open:
            guard state.member.serviceURL != nil else { return [] }
            if state.page.route != .memberCard { Reducer.push(&state, .memberCard) }
            state.page.selection = Reducer.firstSelectable(.memberCard, state)
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
            let token = state.member.token, service = state.member.serviceURL
            state.member = MemberState()
            state.member.token = token &+ 1
            state.member.serviceURL = service
            state.page.selection = 0
            state.banner = Banner(.key(.memberSignedOut))
            return [.persist(state.settings)]
        }
    }

    static func validate(_ state: inout AppState, memberID: String, zip: String, signingIn: Bool) -> [DocentCore.Effect] {
        guard let url = state.member.serviceURL else { return [] }
        state.member.token = state.member.token &+ 1
        state.member.status = .checking(signingIn: signingIn)
        return [effect(.validate(token: state.member.token, MemberCardAPI.request(url: url, memberID: memberID, zip: zip)))]
    }

    static func answered(_ state: inout AppState, _ result: Result<[UInt8], LoadFailure>, signingIn: Bool) -> [DocentCore.Effect] {
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
                state.banner = Banner(.key(.memberWelcome, ["name": .verbatim(card.firstName.isEmpty ? card.holder : card.firstName)]))
                if state.page.route == .memberCard { state.page.selection = Reducer.firstSelectable(.memberCard, state) }
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
                state.banner = Banner(.key(.memberNoLongerValid), level: .warning)
                return [.persist(state.settings)]
            }
            state.member.status = .recheckFailed(why)
            return []
        }
    }

    /// At start, with a stored card: check it again (quietly).
    static func recheckStoredCard(_ state: inout AppState) -> [DocentCore.Effect] {
        guard let card = state.member.card, state.member.serviceURL != nil else { return [] }
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
        if state.overlay == nil { Reducer.showNextMessage(&state) }
    }

    /// The words for a failure, in the current language.
    public static func failureText(_ f: MemberCardFailure, _ state: AppState) -> String {
        let s = state.strings
        switch f {
        case .network(let why): return s(.memberErrorNetwork, ["reason": why])
        case .fault(let why): return s(.memberErrorFault, ["reason": why])
        case .notFound: return s(.memberErrorNotFound)
        case .unreadable(let why): return s(.memberErrorUnreadable, ["reason": why])
        }
    }

    // MARK: Hooks

    public static func react(to event: FeatureEvent, _ state: inout AppState) -> [DocentCore.Effect] {
        switch event {
        case .launched:
            // The card is personal: not offered on a shared terminal, and one kept from an
            // earlier use of this machine is not shown (as in the AIC rental build).
            if KioskFeature.isEnabled(config: state.config) {
                state.member.serviceURL = nil
                state.member.card = nil
                return []
            }
            let url = state.config[configKey]?.trimmingCharacters(in: .whitespaces) ?? ""
            state.member.serviceURL = url.isEmpty ? nil : url
            return []
        case .documentLoaded:
            guard state.museum != nil else { return [] }
            queueExpirationMessages(&state)
            return recheckStoredCard(&state)
        case .startOver:
            // Nothing of this visitor's card or form is kept; a pending answer is ignored.
            let token = state.member.token, service = state.member.serviceURL
            state.member = MemberState()
            state.member.token = token &+ 1
            state.member.serviceURL = service
            return []
        default:  // not listened to (`listensTo`): never sent here
            return []
        }
    }

    public static func content(_ route: Route, _ state: AppState) -> PageContent {
        let s = state.strings
        guard state.member.card != nil else { return .custom(id, title: s(.memberTitle)) }
        return .list(title: s(.memberTitle), rows: cardRows(state))
    }

    /// Info's "Member card" row, when the museum has a membership service.
    public static func rows(for slot: RowSlot, _ state: AppState) -> [Row] {
        guard slot == .infoMuseum, state.member.serviceURL != nil else { return [] }
        let s = state.strings
        return [Row(.item, s(.infoMemberCard), detail: state.member.card?.holder ?? s(.memberSignIn), action: .send(action(.open)))]
    }

    /// The CMS placeholders of `member_expiration` messages; emptied without a card, never
    /// shown raw.
    public static func placeholders(_ state: AppState) -> [String: String] {
        let card = state.member.card
        return [
            "CARD_ID": card?.memberID ?? "", "ZIP_CODE": card?.zip ?? "", "NAME": card?.holder ?? "",
            "FIRST_NAME": card?.firstName ?? "", "EXPIRATION_DATE": card.map { PageBuilder.formatDay($0.expiration, state) } ?? "",
        ]
    }

    public static func saved(_ state: AppState) -> MemberCard? { state.member.card }
    public static func restore(_ saved: MemberCard, _ state: inout AppState) { state.member.card = saved }

    static func cardRows(_ state: AppState) -> [Row] {
        let s = state.strings
        guard let card = state.member.card else { return [] }
        var rows: [Row] = [Row(.header, card.holder)]
        var level = card.isLifetime ? s(.memberLifeMember) : card.level
        if card.isReciprocal { level += " · " + s(.memberReciprocal) }
        rows.append(Row(.note, level))
        rows.append(Row(.note, s(.memberId, ["id": card.memberID])))
        if !card.isLifetime {
            let date = PageBuilder.formatDay(card.expiration, state)
            rows.append(Row(.note, s(card.hasExpired(at: state.now) ? .memberExpired : .memberValidThrough, ["date": date])))
        }
        switch state.member.status {
        case .checking: rows.append(Row(.note, s(.memberChecking)))
        case .recheckFailed(let why):
            rows.append(Row(.note, s(.memberNotChecked, ["date": PageBuilder.formatDateTime(card.checkedAt, state), "reason": failureText(why, state)])))
        default: rows.append(Row(.note, s(.memberChecked, ["date": PageBuilder.formatDateTime(card.checkedAt, state)])))
        }
        rows.append(Row(.header, s(.memberActions)))
        if card.holders.count > 1 {
            let other = card.holders[(card.holderIndex + 1) % card.holders.count]
            rows.append(Row(.item, s(.memberSwitchHolder, ["name": other]), action: .send(action(.switchHolder))))
        }
        rows.append(Row(.item, s(.memberRecheck), action: .send(action(.recheck))))
        rows.append(Row(.item, s(.memberSignOut), action: .send(action(.signOut))))
        return rows
    }
}

extension AppState {
    /// The member card's state.
    public var member: MemberState {
        get { self[MemberFeature.self] }
        _modify { yield &self[MemberFeature.self] }
        set { self[MemberFeature.self] = newValue }
    }
}

extension AppAction {
    public static func member(_ a: MemberAction) -> AppAction { MemberFeature.action(a) }
}

extension Effect {
    public static func member(_ e: MemberEffect) -> Effect { MemberFeature.effect(e) }
}

extension Route {
    /// The member card page.
    public static var memberCard: Route { MemberFeature.route(.card) }
}
