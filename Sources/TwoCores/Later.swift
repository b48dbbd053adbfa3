import Foundation

/// Work started now on a thread of its own, its result waited for where it is needed (the
/// guide's strings read while the registry, the configuration and the museum's load are set
/// up). Asked for more than once, it gives the same result.
public final class Later<T>: @unchecked Sendable {
    private var result: T?
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () -> T) {
        let t = Thread { [self] in
            result = work()
            done.signal()
        }
        t.stackSize = 4 << 20
        t.start()
    }

    /// The result, once the work is over (the semaphore orders the write before the read;
    /// it is signalled again for the next reader).
    public var value: T {
        done.wait()
        done.signal()
        return result!
    }
}
