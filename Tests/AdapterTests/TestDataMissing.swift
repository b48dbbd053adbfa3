/// Reference data the tests need is missing or unreadable. A failure, never a skip: CI always
/// has `../shared/reference`, so its absence is a broken set-up to fix.
struct TestDataMissing: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
