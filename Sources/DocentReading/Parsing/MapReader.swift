/// `map_floors` and `map_annontations` (misspelt in every producer; both spellings read).
enum MapReader {
    static func floors(_ v: JSON?, _ ctx: ReadContext) -> [MapFloor] {
        guard let v, v != .null else { return [] }
        guard case .object(let o) = v else {
            ctx.warning("map_floors", "expected an object, found \(v.kindName)")
            return []
        }
        var out: [MapFloor] = []
        for (key, value) in o.fields {
            let path = JSONPath.key("map_floors", key)
            guard key.hasPrefix("map_floor"), let n = Int(key.dropFirst("map_floor".count)), n >= 0, n < 100 else {
                ctx.dropped(path, id: key, "floor keys are map_floor0 … map_floor3")
                continue
            }
            guard case .object(let rec) = value else {
                ctx.dropped(path, id: key, "expected an object, found \(value.kindName)")
                continue
            }
            let r = FieldReader(rec, path: path)
            guard let plan = ctx.url(r.rawString("floor_plan"), path: path, field: "floor_plan", id: key) else {
                ctx.dropped(path, id: key, "no usable floor_plan")
                continue
            }
            guard let p1 = r.rawString("anchor_pixel_1").flatMap(FieldReader.planPoint),
                let p2 = r.rawString("anchor_pixel_2").flatMap(FieldReader.planPoint),
                let l1 = r.rawString("anchor_location_1").flatMap({ FieldReader.latLon($0) }),
                let l2 = r.rawString("anchor_location_2").flatMap({ FieldReader.latLon($0) })
            else {
                ctx.dropped(path, id: key, "anchor_pixel_1/2 and anchor_location_1/2 must be \"x,y\" within ±1,000,000 points and \"lat,lon\" within ±85° latitude")
                continue
            }
            if p1 == p2 || l1 == l2 {
                ctx.dropped(path, id: key, "the two anchors are the same point")
                continue
            }
            let label = r.string("label", .title)
            out.append(MapFloor(
                floor: Floor(n), label: label.isEmpty ? Floor(n).label : label, planURL: plan,
                anchorPoints: (p1, p2), anchorLocations: (l1, l2)))
        }
        out.sort { $0.floor < $1.floor }
        let have = Set(out.map(\.floor.number))
        for n in 0...3 where !have.contains(n) && !out.isEmpty {
            ctx.warning("map_floors", id: "map_floor\(n)", "no plan for floor \(Floor(n).label)")
        }
        return out
    }

    static func annotations(_ v: JSON?, _ ctx: ReadContext) -> [MapAnnotation] {
        var out: [MapAnnotation] = []
        for (i, e) in Records.entries(v, name: "map_annontations", ctx).enumerated() {
            if let a = annotation(e, index: i, ctx) { out.append(a) }
        }
        return out.sorted { $0.id < $1.id }
    }

    static func annotation(_ e: Records.Entry, index: Int, _ ctx: ReadContext) -> MapAnnotation? {
        let r = e.reader
        let id = r.optionalInt("nid").value.flatMap { $0 } ?? e.key.flatMap { Int($0) } ?? index
        let sid = String(id)
        let type = r.rawString("annotation_type") ?? ""
        let label = r.string("label")
        let floor: Floor?
        switch r.optionalFloor() {
        case .success(let f): floor = f
        case .failure(let f):
            ctx.dropped(e.path, id: sid, f.message)
            return nil
        }
        let kind: AnnotationKind
        switch type {
        case "Amenity":
            guard let t = r.rawString("amenity_type").flatMap(AmenityType.init(rawValue:)) else {
                ctx.dropped(e.path, id: sid, "unknown amenity_type \"\(FieldReader.clip(r.rawString("amenity_type") ?? ""))\"")
                return nil
            }
            kind = .amenity(t)
        case "Text":
            switch r.rawString("text_type") {
            case "Landmark": kind = .landmark
            case "Garden": kind = .garden
            case "Space": kind = .space
            case "Gallery":
                ctx.note(e.path, id: sid, "gallery text labels come from galleries; ignored")
                return nil
            case let other:
                ctx.dropped(e.path, id: sid, "unknown text_type \"\(FieldReader.clip(other ?? ""))\"")
                return nil
            }
        case "Department": kind = .department
        case "Image":
            ctx.note(e.path, id: sid, "image annotations are not drawn in a terminal; ignored")
            return nil
        default:
            ctx.dropped(e.path, id: sid, "unknown annotation_type \"\(FieldReader.clip(type))\"")
            return nil
        }
        let needsFloor: Bool
        switch kind {
        case .landmark, .garden: needsFloor = false
        default: needsFloor = true
        }
        if needsFloor && floor == nil {
            ctx.dropped(e.path, id: sid, "\(type) needs a floor")
            return nil
        }
        var isAmenity = false
        if case .amenity = kind { isAmenity = true }
        if !isAmenity && label.isEmpty {
            ctx.dropped(e.path, id: sid, "\(type) needs a label")
            return nil
        }
        guard let location = r.location().value else {
            ctx.dropped(e.path, id: sid, r.location().failureMessage ?? "bad location")
            return nil
        }
        return MapAnnotation(
            id: id, kind: kind, floor: needsFloor ? floor : nil, location: location, label: label,
            description: r.string("description"), imageURL: ctx.imageURL(r.rawString("image_url"), path: e.path, id: sid))
    }
}
