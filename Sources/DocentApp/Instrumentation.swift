import DocentCore

/// What a benchmark observes of the guide: one value, injected by the bench executable
/// (`docent-guide-bench`); the guide itself runs with `.none`, so the product holds no
/// benchmark switch of its own.
public struct Instrumentation: Sendable {
    /// Called once, right after the first frame drawn with the museum loaded (what a visitor
    /// waits for); false ends the loop there.
    public var firstLoadedFrame: @Sendable () -> Bool
    /// The audio engine the guide plays through, given the live one (a bench wraps it to note
    /// the process's CPU time).
    public var audio: @Sendable (AudioEngine) -> AudioEngine

    public init(firstLoadedFrame: @escaping @Sendable () -> Bool = { true }, audio: @escaping @Sendable (AudioEngine) -> AudioEngine = { $0 }) {
        self.firstLoadedFrame = firstLoadedFrame
        self.audio = audio
    }

    public static let none = Instrumentation()
}
