import Foundation

/// Traditional Chinese characters and their Simplified forms, one character to one: search
/// folds both scripts to Simplified, in the documents and in the query, so "亲子" finds
/// "親子導覽" and "港务长" finds "港務長". The table is a well-kept one read by the shell
/// (ICU's Hant-Hans transform, see the `ScriptConversion` adapter) and handed to the index;
/// the core only looks characters up.
public struct ChineseVariants: Sendable, Equatable {
    let simplified: [UInt32: Unicode.Scalar]

    /// Every (Traditional, Simplified) pair of the table.
    public var pairs: [(Unicode.Scalar, Unicode.Scalar)] { simplified.compactMap { k, v in Unicode.Scalar(k).map { ($0, v) } } }

    /// `pairs` maps a character to its Simplified form; pairs that map a character to itself
    /// are dropped.
    public init(simplified pairs: [Unicode.Scalar: Unicode.Scalar]) {
        var table: [UInt32: Unicode.Scalar] = [:]
        table.reserveCapacity(pairs.count)
        for (from, to) in pairs where from != to { table[from.value] = to }
        simplified = table
    }

    /// How many characters have a Simplified form of their own.
    public var count: Int { simplified.count }

    /// The Simplified form of `scalar` (itself when it has none).
    @inline(__always) public func simplified(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        simplified[scalar.value] ?? scalar
    }
}
