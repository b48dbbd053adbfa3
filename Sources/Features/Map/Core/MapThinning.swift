/// Which items the drawing shows in a window, most important first (issue 33 #10). Gallery
/// numbers and artworks show at every zoom, the whole floor included; where they would
/// collide they are thinned here, in the core, so what is drawn and what `n`/`N` step through
/// are the same items:
/// - the selection, the highlight, "you are here" and a running tour's stops always show;
/// - a gallery's label is dropped when it would touch one already kept (its width centred
///   on its cell, a blank cell either side), so numbers never run together;
/// - an artwork is dropped when one already kept is in its cell, or, from further out than
///   the detail level, in a cell next to it (a gallery of twenty works is a few pins, not a
///   block of asterisks); works with a commentary go before silent ones.
/// What is left the view places, nudging a mark beside a wall or another mark.
public enum MapThinning {
    /// The items of `items` to draw in `v` at `zoom`, in drawing order.
    /// - Parameters:
    ///   - always: shown whatever the zoom and however crowded (the selection, the highlight,
    ///     "you are here").
    ///   - stops: artworks that are stops of the running tour (shown, after `always`).
    public static func shown(_ items: [MapItem], in v: MapViewport, zoom: Int, always: Set<MapItemID>, stops: Set<Int>) -> [MapItem] {
        func isStop(_ i: MapItem) -> Bool {
            if case .artwork(let a) = i.id { return stops.contains(a) }
            return false
        }
        let candidates = items.filter { always.contains($0.id) || isStop($0) || $0.isVisible(atZoom: zoom) }
        func rank(_ i: MapItem) -> Int {
            if always.contains(i.id) { return 0 }
            if isStop(i) { return 1 }
            switch i.kind {
            case .amenity: return 2
            case .tourStart: return 3
            case .gallery: return 4
            case .department: return 5
            case .landmark: return 6
            case .space: return 7
            case .garden: return 8
            case .artwork(let audio): return audio ? 9 : 10
            }
        }
        let ordered = candidates.sorted { (rank($0), $0.id.tag) < (rank($1), $1.id.tag) }
        let near = MapZoom.named(zoom) < .detail
        var labels: [(x0: Int, x1: Int, row: Int)] = []
        var pins = Set<Int>()
        var out: [MapItem] = []
        for item in ordered {
            let keep = always.contains(item.id) || isStop(item)
            guard let cell = v.cell(item.point) else {
                if keep { out.append(item) }
                continue
            }
            switch item.kind {
            case .gallery(let closed):
                let w = max(1, TextWidth.width((closed ? "×" : "") + item.label))
                let x0 = cell.col - w / 2 - 1, x1 = x0 + w + 2
                let clash = labels.contains { $0.row == cell.row && $0.x0 < x1 && x0 < $0.x1 }
                guard keep || !clash else { continue }
                labels.append((x0, x1, cell.row))
            case .artwork:
                let key = { (c: Int, r: Int) in r * (v.cols + 2) + c }
                let around = near ? [(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] : [(0, 0)]
                let clash = around.contains { pins.contains(key(cell.col + $0.0, cell.row + $0.1)) }
                guard keep || !clash else { continue }
                pins.insert(key(cell.col, cell.row))
            default:
                break
            }
            out.append(item)
        }
        return out
    }
}
