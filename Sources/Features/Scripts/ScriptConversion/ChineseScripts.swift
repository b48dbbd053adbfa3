import DocentCore
import Foundation

/// The Traditional → Simplified Chinese table search folds with, read from ICU's "Hant-Hans"
/// transform (CLDR's data, which Foundation carries on every platform): each ideograph of the
/// CJK blocks goes through the transform once, in one call, and the characters it changes
/// become the table. An adapter, because the pure core does not run ICU's transforms itself;
/// the search runner builds the table once, off the loop thread, and hands it to the index.
public enum ChineseScripts {
    /// The blocks looked at: CJK Unified Ideographs and Extension A, the compatibility
    /// ideographs, Extension B (the characters Traditional texts use).
    static let blocks: [ClosedRange<UInt32>] = [0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2A6DF]

    /// The table, built on first use (about 0.1 s; every later use shares it).
    public static let variants: ChineseVariants = build()

    /// Runs the transform over every character of `blocks`. The transform maps one character
    /// to one: when it does not (a newer ICU), each block is transformed character by
    /// character instead, and characters that do not come back as one character are left out.
    static func build() -> ChineseVariants {
        var pairs: [Unicode.Scalar: Unicode.Scalar] = [:]
        let transform = StringTransform("Hant-Hans")
        for block in blocks {
            let scalars = block.compactMap(Unicode.Scalar.init)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            guard let out = String(view).applyingTransform(transform, reverse: false) else { continue }
            let mapped = Array(out.unicodeScalars)
            if mapped.count == scalars.count {
                for (from, to) in zip(scalars, mapped) where from != to { pairs[from] = to }
                continue
            }
            for from in scalars {
                guard let one = String(from).applyingTransform(transform, reverse: false)?.unicodeScalars,
                    one.count == 1, let to = one.first, to != from
                else { continue }
                pairs[from] = to
            }
        }
        return ChineseVariants(simplified: pairs)
    }
}
