/// Listening modes for a tour.
public enum TourMode: String, Equatable, Sendable, CaseIterable {
    /// After a stop and the next bumper, wait until the visitor says they have arrived.
    case guided
    /// Play on: bumper, next stop, bumper…
    case continuous

    /// UI string key of the mode's name.
    public var nameKey: StringKey {
        switch self {
        case .guided: return .tourModeGuided
        case .continuous: return .tourModeContinuous
        }
    }
}

/// Where a tour stands. Stop indices are positions in `Tour.stops` (already in `sort` order).
public enum TourPosition: Equatable, Sendable {
    /// Playing the tour's intro (`tour_audio`).
    case intro
    /// Playing the bumper that walks the visitor to stop `to`.
    case bumper(to: Int)
    /// Guided mode: waiting for the visitor to reach stop `at`.
    case waiting(at: Int)
    /// Playing stop `index`.
    case stop(Int)
    /// The last stop has been heard.
    case complete
}

/// What a tour needs played or done; the reducer turns it into player effects.
public enum TourCommand: Equatable, Sendable {
    /// Play a recording: the intro, a stop or a bumper.
    case play(audioID: Int, artworkID: Int?, clip: TourClip)
    /// Nothing should be playing (waiting, complete).
    case silence
}

/// Which part of the tour a recording is.
public enum TourClip: Equatable, Sendable {
    case intro
    case bumper(to: Int)
    case stop(Int)
}

/// What happened, as the tour machine sees it.
public enum TourEvent: Equatable, Sendable {
    /// The clip that was playing finished.
    case clipEnded
    /// The visitor arrived (Enter/Space while waiting).
    case arrived
    case next
    /// Previous: restarts the current stop when more than 5 s in.
    case previous(secondsIntoClip: Double)
    case jump(to: Int)
    case setMode(TourMode)
    /// Play the current clip again (after a failure).
    case retry
}

/// The tour machine: pure, it returns where the tour is now and what to play. The iOS bug
/// of a stale queued bumper replaying after the last stop cannot happen: nothing is queued,
/// the next clip is derived from the position each time.
public struct TourMachine: Equatable, Sendable {
    public let tourID: Int
    /// Stop artwork and audio ids, and bumper ids, in order.
    public let stops: [TourStop]
    public let introAudioID: Int
    public private(set) var position: TourPosition
    public private(set) var mode: TourMode
    /// Stops heard to the end.
    public private(set) var listened: Set<Int>

    public init(tour: Tour, mode: TourMode = .guided, start: TourPosition = .intro, listened: Set<Int> = []) {
        tourID = tour.id
        stops = tour.stops
        introAudioID = tour.introAudioID
        self.mode = mode
        self.listened = listened
        position = start
    }

    /// What to play for the current position.
    public var command: TourCommand {
        switch position {
        case .intro: return .play(audioID: introAudioID, artworkID: nil, clip: .intro)
        case .bumper(let k):
            guard stops.indices.contains(k), let b = stops[k].bumperID else { return .silence }
            return .play(audioID: b, artworkID: nil, clip: .bumper(to: k))
        case .stop(let k):
            guard stops.indices.contains(k) else { return .silence }
            return .play(audioID: stops[k].audioID, artworkID: stops[k].artworkID, clip: .stop(k))
        case .waiting, .complete: return .silence
        }
    }

    /// The stop the visitor is at or heading to.
    public var currentStop: Int? {
        switch position {
        case .intro: return nil
        case .bumper(let k), .waiting(let k), .stop(let k): return k
        case .complete: return stops.count - 1
        }
    }

    /// Applies an event; returns the command for the new position (nil when nothing changes).
    @discardableResult
    public mutating func handle(_ event: TourEvent) -> TourCommand? {
        let before = position
        switch event {
        case .clipEnded:
            switch position {
            case .intro: position = arriveAt(0)
            case .bumper(let k): position = mode == .guided ? .waiting(at: k) : .stop(k)
            case .stop(let k):
                listened.insert(k)
                position = k + 1 < stops.count ? arriveAt(k + 1) : .complete
            case .waiting, .complete: return nil
            }
        case .arrived:
            guard case .waiting(let k) = position else { return nil }
            position = .stop(k)
        case .next:
            switch position {
            case .intro: position = .stop(0)
            case .bumper(let k), .waiting(let k): position = .stop(k)
            case .stop(let k): position = k + 1 < stops.count ? .stop(k + 1) : .complete
            case .complete: return nil
            }
        case .previous(let into):
            switch position {
            case .intro: position = .intro
            case .stop(let k): position = into > 5 ? .stop(k) : (k > 0 ? .stop(k - 1) : .intro)
            case .bumper(let k), .waiting(let k): position = k > 0 ? .stop(k - 1) : .intro
            case .complete: position = .stop(stops.count - 1)
            }
            return command
        case .jump(let k):
            guard stops.indices.contains(k) else { return nil }
            position = .stop(k)
            return command
        case .setMode(let m):
            guard m != mode else { return nil }
            mode = m
            if m == .continuous, case .waiting(let k) = position {
                position = .stop(k)
            } else {
                return nil
            }
        case .retry:
            return command
        }
        return position == before && event != .retry ? nil : command
    }

    /// Where arriving at stop `k` begins: its bumper if it has one, else the stop (continuous)
    /// or waiting for the visitor (guided).
    func arriveAt(_ k: Int) -> TourPosition {
        guard stops.indices.contains(k) else { return .complete }
        if stops[k].bumperID != nil { return .bumper(to: k) }
        return mode == .guided ? .waiting(at: k) : .stop(k)
    }
}
