/// A failure worth showing as one sentence. In DocentText (the lowest pure target) so that the
/// Pulse kit, which links neither DocentReading nor DocentCore, reports a bad seed with it.
public struct LoadFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
