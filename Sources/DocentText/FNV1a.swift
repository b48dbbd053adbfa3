/// FNV-1a: a small hash that is the same on every run and machine (Swift's `Hasher` is seeded
/// per process), for cache file names, content keys and stable ids. Not for security.
public enum FNV1a {
    /// 64 bits.
    public static func hash64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        hash64(bytes, continuing: offset64)
    }

    /// The 64-bit hash's starting value (the hash of nothing).
    public static let offset64: UInt64 = 0xcbf2_9ce4_8422_2325

    /// `hash64` of what `h` hashed followed by `bytes`: a body hashed piece by piece as it
    /// arrives.
    public static func hash64(_ bytes: some Sequence<UInt8>, continuing h: UInt64) -> UInt64 {
        var h = h
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }

    /// 64 bits as 16 lower-case hex digits.
    public static func hex64(_ bytes: some Sequence<UInt8>) -> String {
        hex(hash64(bytes))
    }

    /// `value` as 16 lower-case hex digits.
    public static func hex(_ value: UInt64) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// 32 bits.
    public static func hash32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for b in bytes {
            h ^= UInt32(b)
            h = h &* 16_777_619
        }
        return h
    }
}
