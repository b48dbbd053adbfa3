/// Stemming, as search asks for it: a word's stem in one language ("teapots" → "teapot",
/// "harbourmasters" → "harbourmast"). The algorithms are Snowball's (the reference C library,
/// read by the `SnowballStemming` adapter); the pure core only asks, as it does for the
/// Chinese table (`ChineseVariants`), and the runner hands the stemmer to the index.
///
/// Words are given and returned folded (`SearchText.fold`: lower case, no accents), so the
/// documents and the query are stemmed the same way whatever accents the visitor typed.
public protocol WordStemming: Sendable {
    /// Whether there is an algorithm for `language` (Chinese and Korean have none: search does
    /// not stem them).
    func stems(_ language: Language) -> Bool
    /// The stem of the folded `word` in `language`, or nil when there is no algorithm for it.
    func stem(_ word: ArraySlice<UInt8>, _ language: Language) -> [UInt8]?
}
