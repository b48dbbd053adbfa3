import DocentCore
import Foundation

/// `ReadOptions.Both` for real: the second piece of work on a thread of its own while the
/// first runs on the caller's, so the reader of a large appData uses both cores (its audio
/// files are read while it is parsed, its artworks in two halves at once, a prepared copy's
/// halves side by side, a large file's two halves read at once). The one place the guide, the
/// benches and the tests get a second core from.
public enum TwoCores {
    public static let both: ReadOptions.Both = { first, second in
        withoutActuallyEscaping(second) { second in
            let work = UncheckedWork(second)
            let done = DispatchSemaphore(value: 0)
            let t = Thread {
                work.runOnce()
                done.signal()
            }
            t.stackSize = 4 << 20
            t.start()
            first()
            // The closure does not outlive this call: the thread has run and dropped it (the
            // Thread object itself may live on a moment) before the wait ends.
            done.wait()
        }
    }

    /// `work` on a thread of its own at the lowest priority, not waited for: what prepares
    /// for later (a library opened once the guide is on screen) and must not take a core from
    /// what a visitor waits for meanwhile.
    public static func lowPriority(_ work: @escaping @Sendable () -> Void) {
        let t = Thread(block: work)
        t.qualityOfService = .background
        t.start()
    }

    /// Read options with `both` set.
    public static func options(_ base: ReadOptions) -> ReadOptions {
        var o = base
        o.both = both
        return o
    }
}

/// A closure handed to another thread that the caller waits for (see `TwoCores.both`). It is
/// dropped as soon as it has run: `withoutActuallyEscaping` checks that nothing still holds it.
private final class UncheckedWork: @unchecked Sendable {
    private var run: (() -> Void)?
    init(_ run: @escaping () -> Void) { self.run = run }
    func runOnce() {
        run?()
        run = nil
    }
}
