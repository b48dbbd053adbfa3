/// A rectangle of cells, origin top-left.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// This rectangle shrunk by `by` cells on every side.
    public func inset(_ by: Int) -> Rect {
        Rect(x: x + by, y: y + by, width: width - 2 * by, height: height - 2 * by)
    }

    /// Splits off the top `rows` rows: (top, rest).
    public func splitTop(_ rows: Int) -> (Rect, Rect) {
        let r = min(max(rows, 0), height)
        return (Rect(x: x, y: y, width: width, height: r), Rect(x: x, y: y + r, width: width, height: height - r))
    }

    /// Splits off the bottom `rows` rows: (rest, bottom).
    public func splitBottom(_ rows: Int) -> (Rect, Rect) {
        let r = min(max(rows, 0), height)
        return (Rect(x: x, y: y, width: width, height: height - r), Rect(x: x, y: y + height - r, width: width, height: r))
    }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }
}
