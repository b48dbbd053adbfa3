import DocentText
import DocentJSON
import Foundation

/// An announcement's pattern over subject keys and screens: a small regular language
/// (literals, `.`, `\d`, `\w`, `[a-z0-9]` classes, groups, `|`, `? * +`, `{n}` `{n,m}`)
/// anchored at both ends: `gallery:2\d\d` matches `gallery:201`, never `gallery:2010`.
///
/// Patterns are checked when they are read (length, nesting, repeat bounds, program size) and
/// matched by a Thompson automaton: every input character is looked at once per program
/// state, so time grows with length × size and no pattern can backtrack into minutes (the
/// hostile `(a*)*b` is as quick as any other). See DECISIONS.md.
public struct PulsePattern: Hashable, Sendable, CustomStringConvertible {
    public let source: String
    let program: [Instruction]
    /// What every match starts with (the pattern's leading literal characters): an input
    /// without it is refused by one comparison, so announcements that cannot apply to a page
    /// cost next to nothing however many there are.
    let prefix: String

    /// Longest pattern accepted, in characters.
    public static let maxLength = 120
    /// Deepest group nesting accepted.
    public static let maxNesting = 4
    /// Largest `{n,m}` bound.
    public static let maxRepeat = 16
    /// Largest compiled program (instructions).
    public static let maxProgram = 1_000
    /// Longer inputs never match (subject keys and screens are short).
    public static let maxInput = 200

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case empty
        case tooLong(Int)
        case tooDeep
        case tooBig
        case badRepeat(String)
        case unexpected(Character, at: Int)
        case unclosed(String)

        public var description: String {
            switch self {
            case .empty: return "empty pattern"
            case .tooLong(let n): return "pattern of \(n) characters (at most \(PulsePattern.maxLength))"
            case .tooDeep: return "groups nested deeper than \(PulsePattern.maxNesting)"
            case .tooBig: return "pattern expands beyond \(PulsePattern.maxProgram) steps"
            case .badRepeat(let why): return "bad repeat: \(why)"
            case .unexpected(let c, let i): return "unexpected '\(c)' at \(i + 1)"
            case .unclosed(let what): return "unclosed \(what)"
            }
        }
    }

    /// A checked pattern, or why it cannot be used.
    public static func compile(_ source: String) -> Result<PulsePattern, Failure> {
        let chars = Array(source)
        if chars.isEmpty { return .failure(.empty) }
        if chars.count > maxLength { return .failure(.tooLong(chars.count)) }
        do {
            var parser = Parser(chars: chars)
            let node = try parser.parseAlternation(depth: 0)
            if parser.i < chars.count { throw Failure.unexpected(chars[parser.i], at: parser.i) }
            var program: [Instruction] = []
            try emit(node, into: &program)
            program.append(.match)
            return .success(PulsePattern(source: source, program: program, prefix: literalPrefix(node)))
        } catch let f as Failure {
            return .failure(f)
        } catch {
            return .failure(.empty)
        }
    }

    public init?(_ source: String) {
        guard case .success(let p) = PulsePattern.compile(source) else { return nil }
        self = p
    }

    private init(source: String, program: [Instruction], prefix: String) {
        self.source = source
        self.program = program
        self.prefix = prefix
    }

    /// The literal characters every match begins with: the leading one-character sets of a
    /// sequence (none for an alternation or a repeat at the front).
    static func literalPrefix(_ node: Node) -> String {
        func single(_ n: Node) -> Unicode.Scalar? {
            guard case .set(let cs) = n, !cs.negated, cs.ranges.count == 1, let r = cs.ranges.first, r.lowerBound == r.upperBound else { return nil }
            return Unicode.Scalar(r.lowerBound)
        }
        var out = String.UnicodeScalarView()
        switch node {
        case .sequence(let parts):
            for p in parts {
                guard let c = single(p) else { break }
                out.append(c)
            }
        default:
            if let c = single(node) { out.append(c) }
        }
        return String(out)
    }

    public static func == (a: PulsePattern, b: PulsePattern) -> Bool { a.source == b.source }
    public func hash(into h: inout Hasher) { h.combine(source) }
    public var description: String { source }

    /// Whether the whole of `input` matches.
    public func matches(_ input: String) -> Bool {
        var steps = 0
        return run(input, steps: &steps)
    }

    /// The program states visited matching `input`: at most the program's size for each
    /// character and once more, whatever the pattern (the tests prove the bound on the worst).
    func steps(_ input: String) -> Int {
        var steps = 0
        _ = run(input, steps: &steps)
        return steps
    }

    private func run(_ input: String, steps: inout Int) -> Bool {
        guard input.unicodeScalars.starts(with: prefix.unicodeScalars) else { return false }
        let scalars = Array(input.unicodeScalars)
        guard scalars.count <= PulsePattern.maxInput else { return false }
        var current = StateSet(size: program.count)
        var next = StateSet(size: program.count)
        addState(0, to: &current, steps: &steps)
        for s in scalars {
            next.clear()
            for pc in current.list {
                if case .char(let set) = program[pc], set.contains(s) { addState(pc + 1, to: &next, steps: &steps) }
            }
            swap(&current, &next)
            if current.list.isEmpty { return false }
        }
        return current.list.contains { if case .match = program[$0] { return true } else { return false } }
    }

    /// Follows jumps and splits (each state once per step: the set bounds the work).
    private func addState(_ start: Int, to set: inout StateSet, steps: inout Int) {
        var stack = [start]
        while let pc = stack.popLast() {
            guard set.insert(pc) else { continue }
            steps += 1
            switch program[pc] {
            case .jump(let t): stack.append(t)
            case .split(let a, let b):
                stack.append(b)
                stack.append(a)
            case .char, .match: break
            }
        }
    }

    // MARK: The program

    enum Instruction: Hashable, Sendable {
        case char(CharSet)
        case split(Int, Int)
        case jump(Int)
        case match
    }

    struct CharSet: Hashable, Sendable {
        var ranges: [ClosedRange<UInt32>]
        var negated = false
        func contains(_ s: Unicode.Scalar) -> Bool {
            ranges.contains { $0.contains(s.value) } != negated
        }
        static func single(_ c: Unicode.Scalar) -> CharSet { CharSet(ranges: [c.value...c.value]) }
        static let any = CharSet(ranges: [0...0x10FFFF])
        static let digit = CharSet(ranges: [0x30...0x39])
        static let word = CharSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    }

    indirect enum Node {
        case set(CharSet)
        case sequence([Node])
        case alternation([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    private static func emit(_ node: Node, into p: inout [Instruction]) throws {
        if p.count > maxProgram { throw Failure.tooBig }
        switch node {
        case .set(let s): p.append(.char(s))
        case .sequence(let nodes): for n in nodes { try emit(n, into: &p) }
        case .alternation(let nodes):
            // split L1, next; L1: a; jump end; next: split L2, … ; last: z; end:
            var jumps: [Int] = []
            for (k, n) in nodes.enumerated() {
                if k < nodes.count - 1 {
                    let split = p.count
                    p.append(.split(split + 1, -1))
                    try emit(n, into: &p)
                    jumps.append(p.count)
                    p.append(.jump(-1))
                    p[split] = .split(split + 1, p.count)
                } else {
                    try emit(n, into: &p)
                }
            }
            for j in jumps { p[j] = .jump(p.count) }
        case .repeated(let n, let min, let max):
            for _ in 0..<min { try emit(n, into: &p) }
            if let max {
                // Each optional copy: split body, end.
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(p.count)
                    p.append(.split(p.count + 1, -1))
                    try emit(n, into: &p)
                }
                for s in splits { p[s] = .split(s + 1, p.count) }
            } else {
                // L: split body, end; body; jump L; end:
                let loop = p.count
                p.append(.split(loop + 1, -1))
                try emit(n, into: &p)
                p.append(.jump(loop))
                p[loop] = .split(loop + 1, p.count)
            }
        }
        if p.count > maxProgram { throw Failure.tooBig }
    }

    private struct Parser {
        let chars: [Character]
        var i = 0

        mutating func parseAlternation(depth: Int) throws -> Node {
            var branches = [try parseSequence(depth: depth)]
            while i < chars.count, chars[i] == "|" {
                i += 1
                branches.append(try parseSequence(depth: depth))
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func parseSequence(depth: Int) throws -> Node {
            var items: [Node] = []
            while i < chars.count, chars[i] != "|", chars[i] != ")" {
                let atom = try parseAtom(depth: depth)
                items.append(try parseQuantifier(atom))
            }
            return .sequence(items)
        }

        mutating func parseQuantifier(_ atom: Node) throws -> Node {
            guard i < chars.count else { return atom }
            switch chars[i] {
            case "?": i += 1; return .repeated(atom, min: 0, max: 1)
            case "*": i += 1; return .repeated(atom, min: 0, max: nil)
            case "+": i += 1; return .repeated(atom, min: 1, max: nil)
            case "{":
                let start = i
                i += 1
                let lo = try number()
                var hi: Int? = lo
                if i < chars.count, chars[i] == "," {
                    i += 1
                    hi = try number()
                }
                guard i < chars.count, chars[i] == "}" else { throw Failure.unclosed("{ at \(start + 1)") }
                i += 1
                guard let hi, lo <= hi, hi <= PulsePattern.maxRepeat else {
                    throw Failure.badRepeat("bounds must be 0…\(PulsePattern.maxRepeat), low ≤ high")
                }
                return .repeated(atom, min: lo, max: hi)
            default: return atom
            }
        }

        mutating func number() throws -> Int {
            var n = 0, digits = 0
            while i < chars.count, let d = chars[i].wholeNumberValue, chars[i].isASCII {
                n = n * 10 + d
                digits += 1
                i += 1
                if digits > 3 { throw Failure.badRepeat("number too large") }
            }
            if digits == 0 { throw Failure.badRepeat("a number is needed") }
            return n
        }

        mutating func parseAtom(depth: Int) throws -> Node {
            let c = chars[i]
            switch c {
            case "(":
                guard depth < PulsePattern.maxNesting else { throw Failure.tooDeep }
                let start = i
                i += 1
                let inner = try parseAlternation(depth: depth + 1)
                guard i < chars.count, chars[i] == ")" else { throw Failure.unclosed("( at \(start + 1)") }
                i += 1
                return inner
            case ".": i += 1; return .set(.any)
            case "[": return .set(try parseClass())
            case "\\": return .set(try parseEscape())
            case "?", "*", "+", "{", "}", "]", ")", "^", "$": throw Failure.unexpected(c, at: i)
            default:
                i += 1
                guard c.unicodeScalars.count == 1, let s = c.unicodeScalars.first else {
                    return .sequence(c.unicodeScalars.map { .set(.single($0)) })
                }
                return .set(.single(s))
            }
        }

        mutating func parseEscape() throws -> CharSet {
            i += 1
            guard i < chars.count else { throw Failure.unclosed("\\") }
            let c = chars[i]
            i += 1
            switch c {
            case "d": return .digit
            case "w": return .word
            default:
                guard c.isPunctuation || c.isSymbol, let s = c.unicodeScalars.first, c.unicodeScalars.count == 1 else {
                    throw Failure.unexpected(c, at: i - 1)
                }
                return .single(s)
            }
        }

        mutating func parseClass() throws -> CharSet {
            let start = i
            i += 1
            var set = CharSet(ranges: [])
            if i < chars.count, chars[i] == "^" {
                set.negated = true
                i += 1
            }
            while i < chars.count, chars[i] != "]" {
                if chars[i] == "\\" {
                    set.ranges += try parseEscape().ranges
                    continue
                }
                guard let lo = chars[i].unicodeScalars.first, chars[i].unicodeScalars.count == 1 else { throw Failure.unexpected(chars[i], at: i) }
                i += 1
                if i + 1 < chars.count, chars[i] == "-", chars[i + 1] != "]" {
                    guard let hi = chars[i + 1].unicodeScalars.first, hi.value >= lo.value else { throw Failure.unexpected(chars[i + 1], at: i + 1) }
                    set.ranges.append(lo.value...hi.value)
                    i += 2
                } else {
                    set.ranges.append(lo.value...lo.value)
                }
            }
            guard i < chars.count else { throw Failure.unclosed("[ at \(start + 1)") }
            i += 1
            if set.ranges.isEmpty { throw Failure.unexpected("]", at: i - 1) }
            return set
        }
    }
}

/// The states of one step of the automaton: a list (in order) and a table of which are in it.
private struct StateSet {
    var list: [Int] = []
    var inList: [Bool]
    init(size: Int) { inList = Array(repeating: false, count: size) }
    mutating func insert(_ pc: Int) -> Bool {
        if inList[pc] { return false }
        inList[pc] = true
        list.append(pc)
        return true
    }
    mutating func clear() {
        for pc in list { inList[pc] = false }
        list.removeAll(keepingCapacity: true)
    }
}
