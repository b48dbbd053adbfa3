import Foundation

/// An exhibition on view, from the Data Aggregator (or a file in its response shape).
public struct Exhibition: Hashable, Sendable, Identifiable {
    public let id: Int
    public let title: String
    public let shortDescription: String
    public let imageURL: String?
    public let galleryID: Int?
    public let webURL: String?
    public let startAt: Date
    public let endAt: Date
    /// The offset from UTC its dates were written with (seconds east), so its last day shows
    /// as the museum wrote it on every machine.
    public let utcOffset: Int

    public init(id: Int, title: String, shortDescription: String, imageURL: String?, galleryID: Int?, webURL: String?, startAt: Date, endAt: Date, utcOffset: Int = 0) {
        self.id = id
        self.title = title
        self.shortDescription = shortDescription
        self.imageURL = imageURL
        self.galleryID = galleryID
        self.webURL = webURL
        self.startAt = startAt
        self.endAt = endAt
        self.utcOffset = utcOffset
    }
}

/// One occurrence of an event.
public struct Event: Hashable, Sendable, Identifiable {
    public let id: String
    public let title: String
    public let shortDescription: String
    public let description: String
    public let location: String
    public let startAt: Date
    public let endAt: Date
    public let buttonText: String?
    public let buttonURL: String?
    /// The offset from UTC its times were written with (seconds east): the museum's local time
    /// when no `time_zone` is configured.
    public let utcOffset: Int

    public init(id: String, title: String, shortDescription: String, description: String, location: String, startAt: Date, endAt: Date, buttonText: String?, buttonURL: String?, utcOffset: Int = 0) {
        self.id = id
        self.title = title
        self.shortDescription = shortDescription
        self.description = description
        self.location = location
        self.startAt = startAt
        self.endAt = endAt
        self.buttonText = buttonText
        self.buttonURL = buttonURL
        self.utcOffset = utcOffset
    }
}

/// Something fetched in the background: its state is part of the screen state, so a
/// failure shows in its own section and never blocks the rest.
public enum Remote<Value: Equatable & Sendable>: Equatable, Sendable {
    case idle
    case loading
    case loaded(Value)
    case failed(String)
    /// The museum does not publish this (no endpoint in its data).
    case notPublished

    public var value: Value? {
        if case .loaded(let v) = self { return v }
        return nil
    }
}

