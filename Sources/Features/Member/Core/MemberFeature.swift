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
public enum MemberFeature: ScopedFeature, HearsEvents, ScopedAddsRows, ScopedFillsPlaceholders, ScopedContent {
    public typealias State = MemberState
    public typealias Action = MemberAction
    public typealias Effect = MemberEffect
    public typealias Saved = MemberCard

    /// The feature's one page: the card, or the form to sign in.
    public enum Route: Hashable, Sendable { case card }

    public static let id = FeatureID("member")
    public static let after = [SearchFeature.id]
    public static let listensTo: Set<FeatureEvent.Kind> = [.launched, .documentLoaded, .startOver]
    public static let initialState = MemberState()
    /// The configuration key naming the membership service.
    public static let configKey = "member_card_url"
    public static let configKeys = [configKey]

    public static func reduce(_ state: inout MemberState, _ a: MemberAction, _ context: FeatureContext) -> Outcome {
        switch a {
        case .focusField(let i):
            if state.card == nil, i == 0 || i == 1 { state.field = i }
            return .none
        case .open:
            guard state.serviceURL != nil else { return .none }
            // Pushed, it starts at its first row; already on top, it goes back to it.
            return Outcome(requests: [context.route != .memberCard ? .push(.memberCard) : .firstRow])
        case .typed(let text):
            guard context.route == .memberCard, state.card == nil, !state.isChecking else { return .none }
            // Printable characters only (IDs and ZIP codes are letters, digits and a few marks).
            let clean = String(text.filter { !$0.isNewline && ($0.isLetter || $0.isNumber || $0.isPunctuation || $0.isSymbol || $0 == " ") })
            if state.field == 0 {
                state.memberID = String((state.memberID + clean).prefix(MemberState.maxFieldLength))
            } else {
                state.zip = String((state.zip + clean).prefix(MemberState.maxFieldLength))
            }
            if case .failed = state.status { state.status = .idle }
            return .none
        case .deleteBackward:
            guard state.card == nil, !state.isChecking else { return .none }
            if state.field == 0 {
                if !state.memberID.isEmpty { state.memberID.removeLast() }
            } else if !state.zip.isEmpty {
                state.zip.removeLast()
            } else {
                state.field = 0
            }
            return .none
        case .nextField, .previousField:
            guard state.card == nil else { return .none }
            state.field = a == .nextField ? 1 : 0
            return .none
        case .submit:
            guard state.card == nil, !state.isChecking else { return .none }
            let id = state.memberID.trimmingCharacters(in: .whitespaces)
            let zip = state.zip.trimmingCharacters(in: .whitespaces)
            if state.field == 0 || zip.isEmpty {
                // Enter in the first field moves on, as in any form.
                if !id.isEmpty { state.field = 1 }
                return .none
            }
            guard !id.isEmpty else {
                state.field = 0
                return .none
            }
            return Outcome(effects: validate(&state, memberID: id, zip: zip, signingIn: true))
        case .recheck:
            guard let card = state.card, !state.isChecking else { return .none }
            return Outcome(effects: validate(&state, memberID: card.memberID, zip: card.zip, signingIn: false))
        case .answered(let token, let result):
            guard token == state.token, case .checking(let signingIn) = state.status else { return .none }
            return answered(&state, result, signingIn: signingIn, context)
        case .switchHolder:
            guard var card = state.card, card.holders.count > 1 else { return .none }
            card.holderIndex = (card.holderIndex + 1) % card.holders.count
            state.card = card
            return Outcome(requests: [.persist])
        case .signOut:
            guard state.card != nil else { return .none }
            // Nothing of the card is kept (a shared kiosk must not remember it).
            let token = state.token, service = state.serviceURL
            state = MemberState()
            state.token = token &+ 1
            state.serviceURL = service
            // The form, from its top.
            return Outcome(requests: [.firstRow, .banner(Banner(.key(.memberSignedOut))), .persist])
        }
    }

    static func validate(_ state: inout MemberState, memberID: String, zip: String, signingIn: Bool) -> [DocentCore.Effect] {
        guard let url = state.serviceURL else { return [] }
        state.token = state.token &+ 1
        state.status = .checking(signingIn: signingIn)
        return [effect(.validate(token: state.token, MemberCardAPI.request(url: url, memberID: memberID, zip: zip)))]
    }

    static func answered(_ state: inout MemberState, _ result: Result<[UInt8], LoadFailure>, signingIn: Bool, _ context: FeatureContext) -> Outcome {
        let typedZip = signingIn ? state.zip.trimmingCharacters(in: .whitespaces) : state.card?.zip ?? ""
        let typedID = signingIn ? state.memberID.trimmingCharacters(in: .whitespaces) : state.card?.memberID ?? ""
        let outcome: Result<MemberCard, MemberCardFailure>
        switch result {
        case .failure(let f): outcome = .failure(.network(f.message))
        case .success(let bytes): outcome = MemberCardAPI.parse(bytes, memberID: typedID, zip: typedZip, now: context.now)
        }
        switch outcome {
        case .success(var card):
            if let old = state.card, old.holders == card.holders { card.holderIndex = old.holderIndex }
            state.card = card
            state.status = .idle
            state.zip = ""
            var requests: [UIRequest] = []
            if signingIn {
                requests.append(.banner(Banner(.key(.memberWelcome, ["name": .verbatim(card.firstName.isEmpty ? card.holder : card.firstName)]))))
                if context.route == .memberCard { requests.append(.firstRow) }
            }
            requests += queueExpirationMessages(&state, context)
            return Outcome(requests: requests + [.persist])
        case .failure(let why):
            if signingIn {
                state.status = .failed(why)
                return .none
            }
            // A stored card the service no longer knows is forgotten; one that could not be
            // checked (offline, service down) is kept and marked.
            if why == .notFound {
                state.card = nil
                state.status = .failed(.notFound)
                return Outcome(requests: [.banner(Banner(.key(.memberNoLongerValid), level: .warning)), .persist])
            }
            state.status = .recheckFailed(why)
            return .none
        }
    }

    /// At start, with a stored card: check it again (quietly).
    static func recheckStoredCard(_ state: inout MemberState) -> [DocentCore.Effect] {
        guard let card = state.card, state.serviceURL != nil else { return [] }
        return validate(&state, memberID: card.memberID, zip: card.zip, signingIn: false)
    }

    /// `member_expiration` messages whose threshold the card has reached, asked of the root
    /// once per start (it shows those not seen yet, or persistent, after any already waiting).
    static func queueExpirationMessages(_ state: inout MemberState, _ context: FeatureContext) -> [UIRequest] {
        guard let card = state.card, !card.isLifetime, let app = context.museum, !state.expiryMessagesQueued else { return [] }
        state.expiryMessagesQueued = true
        let due = app.messages.filter { m in
            guard case .memberExpiration(let threshold) = m.kind else { return false }
            return context.now >= card.expiration.addingTimeInterval(-Double(threshold))
        }.map(\.id)
        return due.isEmpty ? [] : [.queueMessages(due)]
    }

    /// The words for a failure, in the words of `s` (the context's).
    public static func failureText(_ f: MemberCardFailure, _ s: Strings) -> String {
        switch f {
        case .network(let why): return s(.memberErrorNetwork, ["reason": why])
        case .fault(let why): return s(.memberErrorFault, ["reason": why])
        case .notFound: return s(.memberErrorNotFound)
        case .unreadable(let why): return s(.memberErrorUnreadable, ["reason": why])
        }
    }

    // MARK: Hooks

    public static func react(to event: FeatureEvent, _ state: inout MemberState, _ context: FeatureContext) -> Outcome {
        switch event {
        case .launched:
            // The card is personal: not offered on a shared terminal, and one kept from an
            // earlier use of this machine is not shown (as in the AIC rental build).
            if context.sharedTerminal {
                state.serviceURL = nil
                state.card = nil
                return .none
            }
            let url = context.config[configKey]?.trimmingCharacters(in: .whitespaces) ?? ""
            state.serviceURL = url.isEmpty ? nil : url
            return .none
        case .documentLoaded:
            guard context.museum != nil else { return .none }
            let requests = queueExpirationMessages(&state, context)
            return Outcome(effects: recheckStoredCard(&state), requests: requests)
        case .startOver:
            // Nothing of this visitor's card or form is kept; a pending answer is ignored.
            let token = state.token, service = state.serviceURL
            state = MemberState()
            state.token = token &+ 1
            state.serviceURL = service
            return .none
        default:  // not listened to (`listensTo`): never sent here
            return .none
        }
    }

    public static func content(_ route: Route, _ state: MemberState, _ context: FeatureContext) -> PageContent {
        let s = context.strings
        guard state.card != nil else { return .custom(id, title: s(.memberTitle)) }
        return .list(title: s(.memberTitle), rows: cardRows(state, context))
    }

    /// Info's "Member card" row, when the museum has a membership service.
    public static func rows(for slot: RowSlot, _ state: MemberState, _ context: FeatureContext) -> [Row] {
        guard slot == .infoMuseum, state.serviceURL != nil else { return [] }
        let s = context.strings
        return [Row(.item, s(.infoMemberCard), detail: state.card?.holder ?? s(.memberSignIn), action: .send(action(.open)))]
    }

    /// The CMS placeholders of `member_expiration` messages; emptied without a card, never
    /// shown raw.
    public static func placeholders(_ state: MemberState, _ context: FeatureContext) -> [String: String] {
        let card = state.card
        return [
            "CARD_ID": card?.memberID ?? "", "ZIP_CODE": card?.zip ?? "", "NAME": card?.holder ?? "",
            "FIRST_NAME": card?.firstName ?? "", "EXPIRATION_DATE": card.map { PageBuilder.formatDay($0.expiration, language: context.language) } ?? "",
        ]
    }

    public static func saved(_ state: MemberState) -> MemberCard? { state.card }
    public static func restore(_ saved: MemberCard, _ state: inout MemberState) { state.card = saved }

    static func cardRows(_ state: MemberState, _ context: FeatureContext) -> [Row] {
        let s = context.strings
        guard let card = state.card else { return [] }
        var rows: [Row] = [Row(.header, card.holder)]
        var level = card.isLifetime ? s(.memberLifeMember) : card.level
        if card.isReciprocal { level += " · " + s(.memberReciprocal) }
        rows.append(Row(.note, level))
        rows.append(Row(.note, s(.memberId, ["id": card.memberID])))
        if !card.isLifetime {
            let date = PageBuilder.formatDay(card.expiration, context)
            rows.append(Row(.note, s(card.hasExpired(at: context.now) ? .memberExpired : .memberValidThrough, ["date": date])))
        }
        switch state.status {
        case .checking: rows.append(Row(.note, s(.memberChecking)))
        case .recheckFailed(let why):
            rows.append(Row(.note, s(.memberNotChecked, ["date": PageBuilder.formatDateTime(card.checkedAt, context), "reason": failureText(why, s)])))
        default: rows.append(Row(.note, s(.memberChecked, ["date": PageBuilder.formatDateTime(card.checkedAt, context)])))
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
    var member: MemberState {
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
