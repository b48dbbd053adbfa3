import Foundation

/// Server-rendered SVG bar charts: no script, nothing fetched; each bar carries its number in a
/// `<title>` (a tooltip, read by screen readers), and the page puts the same numbers in a table
/// one click away.
///
/// The chart is data (`BarChart`: numbers and texts), drawn by the `barChart` template, so every
/// text in it (a day, a caption that may name an exhibition) is escaped by the template engine
/// like the rest of the page: nothing is concatenated into markup (issue 46 item 5).
enum ConsoleCharts {
    struct BarChart: Sendable {
        struct Grid: Sendable { let y: String, textY: String, value: Int }
        struct Bar: Sendable { let x: String, y: String, width: String, height: String, title: String }
        struct Tick: Sendable { let x: String, text: String }
        let width: Int, height: Int, left: Int, right: Int, axisY: Int, tickY: Int, gridTextX: Int
        /// What the chart shows, in words (`aria-label` and `<desc>`).
        let label: String
        let grid: [Grid]
        let bars: [Bar]
        let ticks: [Tick]
    }

    /// The template that draws a `BarChart` (a partial of the pages that show one).
    static let template = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {{width}} {{height}}" role="img" aria-label="{{label}}"><desc>{{label}}</desc>\
        {{#grid}}<line x1="{{left}}" x2="{{right}}" y1="{{y}}" y2="{{y}}" stroke="#c4c4c4" stroke-width="1"/>\
        <text x="{{gridTextX}}" y="{{textY}}" text-anchor="end" font-size="12" fill="#1a1a1a">{{value}}</text>{{/grid}}\
        {{#bars}}<rect x="{{x}}" y="{{y}}" width="{{width}}" height="{{height}}" fill="#0b57d0"><title>{{title}}</title></rect>{{/bars}}\
        {{#ticks}}<text x="{{x}}" y="{{tickY}}" text-anchor="middle" font-size="12" fill="#1a1a1a">{{text}}</text>{{/ticks}}\
        <line x1="{{left}}" x2="{{right}}" y1="{{axisY}}" y2="{{axisY}}" stroke="#1a1a1a" stroke-width="1"/></svg>
        """

    /// A chart of `values` (oldest first) labelled by `labels`; `label` says what it shows.
    static func bars(_ values: [Int], labels: [String], label: String) -> BarChart {
        let width = 720, height = 220, left = 44, bottom = 28, top = 12
        let plotW = width - left - 8, plotH = height - top - bottom
        let top0 = max(1, values.max() ?? 1)
        let step = niceStep(top0)
        let maxY = ((top0 + step - 1) / step) * step
        let n = max(1, values.count)
        let slot = Double(plotW) / Double(n)
        let bar = max(1.0, slot * 0.7)
        var grid: [BarChart.Grid] = []
        var y = 0
        while y <= maxY {
            let py = Double(top) + Double(plotH) * (1 - Double(y) / Double(maxY))
            grid.append(.init(y: fmt(py), textY: fmt(py + 4), value: y))
            y += step
        }
        var bars: [BarChart.Bar] = []
        var ticks: [BarChart.Tick] = []
        for (i, v) in values.enumerated() {
            let h = Double(plotH) * Double(v) / Double(maxY)
            let x = Double(left) + slot * Double(i) + (slot - bar) / 2
            let py = Double(top) + Double(plotH) - h
            let name = i < labels.count ? labels[i] : ""
            bars.append(.init(x: fmt(x), y: fmt(py), width: fmt(bar), height: fmt(max(h, v > 0 ? 1 : 0)), title: "\(name): \(v)"))
            if i % 5 == 0 || i == values.count - 1 {
                ticks.append(.init(x: fmt(x + bar / 2), text: String(name.suffix(5))))
            }
        }
        return BarChart(
            width: width, height: height, left: left, right: width - 8, axisY: top + plotH, tickY: height - 8, gridTextX: left - 6,
            label: label, grid: grid, bars: bars, ticks: ticks)
    }

    /// The chart drawn alone (the pages draw it through the same template as a partial).
    static func svg(_ chart: BarChart) -> String {
        ConsoleAssets.library.render(chart, withTemplate: "barChart") ?? ""
    }

    static func niceStep(_ top: Int) -> Int {
        let raw = max(1, top / 4)
        var p = 1
        while p * 10 <= raw { p *= 10 }
        for m in [1, 2, 5, 10] where p * m >= raw { return p * m }
        return p * 10
    }

    static func fmt(_ d: Double) -> String { String(format: "%.1f", d) }
}
