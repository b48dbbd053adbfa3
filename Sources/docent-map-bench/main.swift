// docent-map-bench: the map half of `make bench` (scripts/bench.sh calls it).
//
//   docent-map-bench map FILE.pdf [--scale S] [--size WxH] [--pans N] [--repeat R] [--print]
//
// Measures, in one run and against an anchor measured in the same run:
//   first frame  read the PDF file, rasterise and trim it (poppler-glib), index
//                the ink, and draw the whole map screen at WxH (default 120x40);
//   pan step     one key's worth of panning: reduce `.map(.pan)` and draw the screen again
//                (the PDF is not touched);
//   anchor       `pdftoppm -r 72·S -gray` rasterising the same page at the same resolution
//                (the whole page, as pdftoppm does), and the same page cropped to the box the
//                guide renders (`-x -y -W -H`), for reference.
// Prints `key=value` lines and the two verdicts: first frame ≤ 1.5 × anchor, pan step < 5 % of
// a first frame. Medians of R runs (default 3). The plan cache is not used.

import DocentCore
import DocentUI
import Foundation
import MapRaster

func now() -> Double { Date().timeIntervalSinceReferenceDate }

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("docent-map-bench: \(message)\n".utf8))
    exit(2)
}

/// A museum of one floor plan, registered with the AIC anchors (spec §c.1).
func museum(planURL: String) -> AppData {
    var app = AppData(format: .v2, source: planURL)
    app.mapFloors = [
        MapFloor(
            floor: Floor(1), label: "1", planURL: planURL,
            anchorPoints: (PlanPoint(x: 855.955, y: 1338.365), PlanPoint(x: 1011.94, y: 1338.365)),
            anchorLocations: (LatLon(lat: 41.88002009571711, lon: -87.62398928403854), LatLon(lat: 41.8800240897643, lon: -87.62334823608397)))
    ]
    return app
}

func mapState(_ app: AppData, size: Size) -> AppState {
    let catalog = StringCatalog(tables: [.english: [StringKey.mapFloor.rawValue: "Floor", StringKey.mapZoom.rawValue: "Zoom {level}/{levels}"]])
    var s = AppState(source: app.source, catalog: catalog, now: Date(timeIntervalSince1970: 0), features: Registry.features)
    s.document = .ready(Museum(app))
    s.tab = .map
    let vp = RootView.viewport(for: size)
    s.viewportRows = vp.rows
    s.viewportWidth = vp.width
    return s
}

/// Runs a program and returns its wall time; nil when it cannot run or fails.
func timeProcess(_ path: String, _ args: [String]) -> Double? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    let t0 = now()
    do { try p.run() } catch { return nil }
    p.waitUntilExit()
    let t = now() - t0
    return p.terminationStatus == 0 ? t : nil
}

func findProgram(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let p = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}

var args = Array(CommandLine.arguments.dropFirst())
guard args.first == "map", args.count >= 2 else {
    fail("usage: docent-map-bench map FILE.pdf [--scale S] [--size WxH] [--pans N] [--repeat R] [--print]")
}
let file = URL(fileURLWithPath: args[1]).standardizedFileURL.path
var scale = MapState.rasterScale
var size = Size(width: 120, height: 40)
var pans = 40
var repeats = 3
var printScreen = false
var i = 2
while i < args.count {
    let a = args[i]
    let v = i + 1 < args.count ? args[i + 1] : ""
    switch a {
    case "--scale": scale = Double(v) ?? scale; i += 1
    case "--size":
        let p = v.split(separator: "x").compactMap { Int($0) }
        if p.count == 2 { size = Size(width: p[0], height: p[1]) }
        i += 1
    case "--pans": pans = Int(v) ?? pans; i += 1
    case "--repeat": repeats = max(1, Int(v) ?? repeats); i += 1
    case "--print": printScreen = true
    default: fail("unknown option \(a)")
    }
    i += 1
}

let app = museum(planURL: file)
var firstFrames: [Double] = [], fetches: [Double] = [], rasterises: [Double] = [], draws: [Double] = []
var panSteps: [Double] = []
var lastRaster: PlanRaster?
var lastScreen: Screen?
for _ in 0..<repeats {
    let t0 = now()
    guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
    let response = FetchResponse(status: 200, body: [UInt8](data))
    let t1 = now()
    var timing = PopplerRasterizer.Timing()
    let raster: PlanRaster
    switch PopplerRasterizer.rasterise(pdf: response.body, pixelsPerPoint: scale, source: file, timing: &timing) {
    case .success(let r): raster = r
    case .failure(let f): fail("cannot rasterise \(file): \(f.message)")
    }
    let t2 = now()
    var state = mapState(app, size: size)
    _ = Reducer.reduce(&state, .map(.rasterReady(floor: Floor(1), url: file, raster: raster)))
    state[MapFeature.self].plans[Floor(1)] = .ready(url: file, raster: raster)
    let screen = RootView.render(state, size: size)
    let t3 = now()
    fetches.append(t1 - t0)
    rasterises.append(t2 - t1)
    draws.append(t3 - t2)
    firstFrames.append(t3 - t0)
    lastRaster = raster
    lastScreen = screen

    // Pan around at the closest zoom that still shows much, then further out and in.
    _ = Reducer.reduce(&state, .map(.zoom(1)))
    let moves: [(Int, Int)] = [(1, 0), (1, 0), (0, 1), (0, 1), (-1, 0), (-1, 0), (0, -1), (0, -1)]
    let p0 = now()
    for k in 0..<pans {
        let (dx, dy) = moves[k % moves.count]
        _ = Reducer.reduce(&state, .map(.pan(dx: dx, dy: dy)))
        _ = RootView.render(state, size: size)
    }
    panSteps.append((now() - p0) / Double(max(1, pans)))
}

guard let raster = lastRaster else { fail("no runs") }
let box = raster.planBox
// The anchor: pdftoppm at the same resolution, the whole page and the guide's crop.
var anchors: [Double] = [], cropAnchors: [Double] = []
let tmp = NSTemporaryDirectory() + "docent-map-bench-\(ProcessInfo.processInfo.processIdentifier)"
if let pdftoppm = findProgram("pdftoppm") {
    let dpi = String(format: "%.3f", 72 * scale)
    for _ in 0..<repeats {
        if let t = timeProcess(pdftoppm, ["-r", dpi, "-gray", "-singlefile", file, tmp]) { anchors.append(t) }
        // Crop box in pixels, top-left origin, of the same page.
        let pageHeight = 2400.0
        let cx = Int(box.minX * raster.pixelsPerPoint), cy = Int((pageHeight - box.maxY) * raster.pixelsPerPoint)
        if let t = timeProcess(pdftoppm, [
            "-r", dpi, "-gray", "-singlefile", "-x", String(cx), "-y", String(cy), "-W", String(raster.width), "-H", String(raster.height), file, tmp + "-crop",
        ]) { cropAnchors.append(t) }
    }
    try? FileManager.default.removeItem(atPath: tmp + ".pgm")
    try? FileManager.default.removeItem(atPath: tmp + "-crop.pgm")
}

let first = median(firstFrames), pan = median(panSteps), anchor = median(anchors), crop = median(cropAnchors)
func f(_ x: Double) -> String { String(format: "%.4f", x) }
print("map.file=\(file)")
print("map.size=\(size.width)x\(size.height) map.scale=\(scale) map.raster=\(raster.width)x\(raster.height) map.box=\(Int(box.minX)),\(Int(box.minY)),\(Int(box.maxX)),\(Int(box.maxY))")
print("map.fetch_s=\(f(median(fetches))) map.rasterise_s=\(f(median(rasterises))) map.draw_s=\(f(median(draws)))")
print("map.first_frame_s=\(f(first)) map.pan_step_s=\(f(pan))")
if anchor > 0 {
    print("map.anchor_pdftoppm_page_s=\(f(anchor)) map.anchor_pdftoppm_crop_s=\(f(crop))")
    let ratio = first / anchor
    print("map.first_frame_ratio=\(String(format: "%.3f", ratio)) (target <= 1.5) \(ratio <= 1.5 ? "PASS" : "FAIL")")
    if crop > 0 { print("map.first_frame_vs_crop=\(String(format: "%.3f", first / crop)) (reference)") }
} else {
    print("map.anchor_pdftoppm_page_s=unavailable (install poppler-utils)")
}
let panRatio = pan / max(first, 1e-9)
print("map.pan_step_ratio=\(String(format: "%.4f", panRatio)) (target < 0.05) \(panRatio < 0.05 ? "PASS" : "FAIL")")
if printScreen, let sc = lastScreen {
    for y in 0..<sc.height { print(sc.row(y)) }
}
