import Foundation

/// What a visitor reads for a Pulse store's error: the guide's strings, so it lives with the
/// guide's Pulse, not in the kit (`PulseKit` knows no `StringKey`).
extension PulseStoreError {
    /// The phrase a visitor reads.
    public var phrase: Phrase {
        switch self {
        case .rateLimited(let limit):
            // Bounded first: a wait from the wire may be anything (`Int.max`, -5).
            let s = limit.seconds
            if case .notes = limit { return .key(.pulseErrorNotesLimit, ["minutes": .verbatim(String((s + 59) / 60))]) }
            return .key(.pulseErrorReactionsLimit, ["seconds": .verbatim(String(s))])
        case .conflict: return .key(.pulseErrorConflict)
        case .badText(.empty): return .key(.pulseErrorEmpty)
        case .badText(.tooLong(let n)): return .key(.pulseErrorTooLong, ["cells": .verbatim(String(n)), "max": .verbatim(String(NoteText.maxCells))])
        case .badCredentials: return .key(.pulseErrorIdentity)
        case .noSuchNote: return .key(.pulseErrorNoSuchNote)
        case .badSubject: return .key(.pulseErrorNoSuchNote)
        case .unavailable(let why): return .key(.pulseErrorUnavailable, ["reason": .verbatim(why)])
        case .notKept: return .key(.pulseErrorNotKept)
        case .postingRefused(.visitCodeRequired): return .key(.pulseGateCodeRequired)
        case .postingRefused(.visitCodeWrong): return .key(.pulseGateCodeWrong)
        case .postingRefused(.memberRequired): return .key(.pulseGateMemberRequired)
        case .postingRefused(.memberUnknown): return .key(.pulseGateMemberUnknown)
        case .postingRefused(.tooManyTries(let s)):
            return .key(.pulseGateTooManyTries, ["minutes": .verbatim(String((PulseRules.Limit.bounded(s) + 59) / 60))])
        }
    }

}
