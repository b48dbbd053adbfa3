import Foundation

/// A validated member card: what the membership service said, plus what the visitor typed.
/// Kept whole (not just the id and ZIP) so the card shows offline, with when it was checked.
public struct MemberCard: Equatable, Sendable {
    public var memberID: String
    public var zip: String
    /// The level as the service words it ("Life Membership", "Sustaining Fellow Gold", …).
    public var level: String
    /// The last day of the membership (midnight UTC of the date the service gave).
    public var expiration: Date
    /// The names on the card: one or two.
    public var holders: [String]
    /// Which of `holders` the card shows.
    public var holderIndex: Int
    /// When the service last confirmed the card.
    public var checkedAt: Date

    public init(memberID: String, zip: String, level: String, expiration: Date, holders: [String], holderIndex: Int = 0, checkedAt: Date) {
        self.memberID = memberID
        self.zip = zip
        self.level = level
        self.expiration = expiration
        self.holders = holders
        self.holderIndex = holderIndex
        self.checkedAt = checkedAt
    }

    /// "Life Membership" is shown as "Life Member" and never expires in practice.
    public var isLifetime: Bool { level == "Life Membership" }
    /// Levels that come with reciprocal admission at other museums (the AIC app's list).
    public var isReciprocal: Bool { MemberCardAPI.reciprocalLevels.contains(level) }
    public var holder: String { holders.indices.contains(holderIndex) ? holders[holderIndex] : holders.first ?? "" }
    public var firstName: String { String(holder.split(separator: " ").first ?? "") }

    /// Whether the membership has ended at `now` (it is valid through its expiration day).
    public func hasExpired(at now: Date) -> Bool { now >= expiration.addingTimeInterval(86_400) }
}

/// Why a card could not be confirmed.
public enum MemberCardFailure: Error, Equatable, Sendable {
    /// The service could not be reached, or answered with an HTTP error.
    case network(String)
    /// The service answered with a SOAP fault (its own words).
    case fault(String)
    /// The service answered, but not with a member for that ID and ZIP code.
    case notFound
    /// The answer could not be read.
    case unreadable(String)
}

/// The membership service the AIC apps use: one SOAP 1.1 call, `member_soap_retrieve`, with the
/// member ID and ZIP code (see `shared/docs/aic-data-spec.md` §e).
public enum MemberCardAPI {
    public static let soapAction = "urn:xmethods-delayed-quotes#member_soap_retrieve"

    public static let reciprocalLevels: Set<String> = [
        "Premium Member", "Lionhearted Council", "Lionhearted Roundtable", "Lionhearted Circle",
        "Sustaining Fellow", "Sustaining Fellow Young", "Sustaining Fellow Bronze", "Sustaining Fellow Silver",
        "Sustaining Fellow Sterling", "Sustaining Fellow Gold", "Sustaining Fellow Platinum",
    ]

    /// The SOAP envelope, exactly as the AIC app sends it (phone and email empty).
    public static func body(memberID: String, zip: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>\
        <soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:urn="urn:xmethods-delayed-quotes">\
        <soapenv:Header/>\
        <soapenv:Body>\
        <urn:member_soap_retrieve>\
        <pcid>\(XMLLite.escape(memberID))</pcid>\
        <phone></phone>\
        <email></email>\
        <zip>\(XMLLite.escape(zip))</zip>\
        </urn:member_soap_retrieve>\
        </soapenv:Body>\
        </soapenv:Envelope>
        """
    }

    /// The POST to `url` (curl sets Content-Length from the body).
    public static func request(url: String, memberID: String, zip: String) -> FetchRequest {
        FetchRequest(
            url: url, method: .post, body: Array(body(memberID: memberID, zip: zip).utf8),
            headers: [
                "SOAPAction": soapAction, "Content-Type": "text/xml; charset=utf-8",
                "Accept": "text/xml", "Accept-Charset": "UTF-8",
            ],
            timeoutSeconds: 20, maxBytes: 1 << 20, errorBodies: true)
    }

    /// What a fetch of `request` means for the card: an HTTP error is a network failure unless
    /// its body is a SOAP fault (services send faults with status 500), which `parse` reads.
    public static func answer(_ result: Result<FetchResponse, FetchError>) -> Result<[UInt8], LoadFailure> {
        switch result {
        case .failure(let e): return .failure(LoadFailure(e.description))
        case .success(let r) where r.status >= 400:
            if case .success(let root) = XMLLite.parse(r.body), root.find("Fault") != nil { return .success(r.body) }
            return .failure(LoadFailure("the membership service answered HTTP \(r.status)"))
        case .success(let r): return .success(r.body)
        }
    }

    /// Reads an answer. Success needs ResultCode 0 and a first member with an ID, a level, an
    /// expiration date (MM/dd/yyyy, UTC) and a name; a second member adds a second name.
    public static func parse(_ bytes: [UInt8], memberID: String, zip: String, now: Date) -> Result<MemberCard, MemberCardFailure> {
        let root: XMLLite.Element
        switch XMLLite.parse(bytes) {
        case .success(let r): root = r
        case .failure(let f): return .failure(.unreadable(f.message))
        }
        if let fault = root.find("Fault") {
            let text = fault.child("faultstring")?.trimmedText ?? fault.child("faultcode")?.trimmedText ?? ""
            return .failure(.fault(text.isEmpty ? "SOAP fault" : text))
        }
        guard let response = root.find("response_object") ?? root.find("member_soap_retrieveResponse") else {
            return .failure(.unreadable("no member_soap_retrieveResponse in the answer"))
        }
        guard let code = response.find("ResultCode").map(\.trimmedText) else {
            return .failure(.unreadable("no ResultCode in the answer"))
        }
        guard Int(code) == 0 else { return .failure(.notFound) }
        guard let memberships = response.find("Memberships"), let first = memberships.child("Member-1") else { return .failure(.notFound) }
        let id = first.child("PrimaryConstituentID")?.trimmedText ?? ""
        let level = first.child("MemberLevel")?.trimmedText ?? ""
        let names = [first.child("CardHolder"), memberships.child("Member-2")?.child("CardHolder")]
            .compactMap { $0?.trimmedText }.filter { !$0.isEmpty }
        guard !id.isEmpty, !level.isEmpty, !names.isEmpty,
            let expiration = first.child("Expiration").flatMap({ parseDate($0.trimmedText) })
        else { return .failure(.notFound) }
        return .success(MemberCard(memberID: id, zip: zip, level: level, expiration: expiration, holders: Array(names.prefix(2)), checkedAt: now))
    }

    /// `MM/dd/yyyy` as midnight UTC; nil for anything else (including impossible dates).
    public static func parseDate(_ s: String) -> Date? {
        let parts = s.split(separator: "/")
        guard parts.count == 3, parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 4,
            let m = Int(parts[0]), let d = Int(parts[1]), let y = Int(parts[2]), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC") ?? cal.timeZone
        guard let date = cal.date(from: DateComponents(year: y, month: m, day: d)),
            cal.component(.day, from: date) == d  // 02/31 would roll over into March
        else { return nil }
        return date
    }

    /// Message placeholders the AIC CMS uses, filled from a card (or emptied without one).
    public static func fillPlaceholders(_ text: String, card: MemberCard?, formatDate: (Date) -> String) -> String {
        guard text.contains("%") else { return text }
        let values: [(String, String)] = [
            ("%CARD_ID%", card?.memberID ?? ""), ("%ZIP_CODE%", card?.zip ?? ""), ("%NAME%", card?.holder ?? ""),
            ("%FIRST_NAME%", card?.firstName ?? ""), ("%EXPIRATION_DATE%", card.map { formatDate($0.expiration) } ?? ""),
        ]
        var out = text
        for (k, v) in values { out = out.replacingOccurrences(of: k, with: v) }
        return out
    }
}
