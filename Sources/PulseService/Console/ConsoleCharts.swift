import Foundation

/// Server-rendered SVG bar charts: no script, nothing fetched; each bar carries its number in a
/// `<title>` (a tooltip, read by screen readers), and the page puts the same numbers in a table
/// one click away.
enum ConsoleCharts {
    /// A chart of `values` (oldest first) labelled by `labels`; `titleID` names the figure's
    /// caption, which labels the image.
    static func bars(_ values: [Int], labels: [String], titleID: String, label: String) -> String {
        let width = 720, height = 220, left = 44, bottom = 28, top = 12
        let plotW = width - left - 8, plotH = height - top - bottom
        let top0 = max(1, values.max() ?? 1)
        let step = niceStep(top0)
        let maxY = ((top0 + step - 1) / step) * step
        let n = max(1, values.count)
        let slot = Double(plotW) / Double(n)
        let bar = max(1.0, slot * 0.7)
        var s = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(titleID)\">"
        s += "<desc>\(escape(label))</desc>"
        // Grid lines and their values.
        var y = 0
        while y <= maxY {
            let py = Double(top) + Double(plotH) * (1 - Double(y) / Double(maxY))
            s += "<line x1=\"\(left)\" x2=\"\(width - 8)\" y1=\"\(fmt(py))\" y2=\"\(fmt(py))\" stroke=\"#c4c4c4\" stroke-width=\"1\"/>"
            s += "<text x=\"\(left - 6)\" y=\"\(fmt(py + 4))\" text-anchor=\"end\" font-size=\"12\" fill=\"#1a1a1a\">\(y)</text>"
            y += step
        }
        for (i, v) in values.enumerated() {
            let h = Double(plotH) * Double(v) / Double(maxY)
            let x = Double(left) + slot * Double(i) + (slot - bar) / 2
            let py = Double(top) + Double(plotH) - h
            let name = i < labels.count ? labels[i] : ""
            s += "<rect x=\"\(fmt(x))\" y=\"\(fmt(py))\" width=\"\(fmt(bar))\" height=\"\(fmt(max(h, v > 0 ? 1 : 0)))\" fill=\"#0b57d0\"><title>\(escape(name)): \(v)</title></rect>"
            if i % 5 == 0 || i == values.count - 1 {
                let short = String(name.suffix(5))
                s += "<text x=\"\(fmt(x + bar / 2))\" y=\"\(height - 8)\" text-anchor=\"middle\" font-size=\"12\" fill=\"#1a1a1a\">\(escape(short))</text>"
            }
        }
        s += "<line x1=\"\(left)\" x2=\"\(width - 8)\" y1=\"\(top + plotH)\" y2=\"\(top + plotH)\" stroke=\"#1a1a1a\" stroke-width=\"1\"/></svg>"
        return s
    }

    static func niceStep(_ top: Int) -> Int {
        let raw = max(1, top / 4)
        var p = 1
        while p * 10 <= raw { p *= 10 }
        for m in [1, 2, 5, 10] where p * m >= raw { return p * m }
        return p * 10
    }

    static func fmt(_ d: Double) -> String { String(format: "%.1f", d) }

    static func escape(_ s: String) -> String {
        var o = ""
        for c in s {
            switch c {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case ">": o += "&gt;"
            case "\"": o += "&quot;"
            default: o.append(c)
            }
        }
        return o
    }
}
