import MapSketchGeometry

// The attribute columns, own symbols and info templates of the slots.

extension GraphicSlots {
    // MARK: Attributes

    /// The column of field `name`, created when new (every slot so far lacking the field).
    func column(named name: String) -> Int { column(named: name, rows: shapes.count) }

    /// The column of field `name`, created when new with `rows` rows that lack the field.
    func column(named name: String, rows: Int) -> Int {
        if let c = columnIndex[name] { return c }
        if columns.isEmpty {
            // Room for a few fields at once (a layer's first graphic usually brings them all).
            columns.reserveCapacity(8)
            columnIndex.reserveCapacity(8)
        }
        var column = AttributeColumn(name)
        column.storage.appendAbsent(rows)
        columns.append(column)
        columnIndex[name] = columns.count - 1
        return columns.count - 1
    }

    /// The column of `key`, the `position`-th key of a graphic's attribute dictionary: compared
    /// with the key the previous graphics had at that position, then with their other keys (no
    /// hashing while graphics have the same keys, in whatever order their dictionaries list
    /// them), else found or created by name (`rows` rows lacking it, room for `reserve` more).
    /// The remembered keys are first compared by representation (see `representation(of:)`,
    /// read in place: no retain):
    /// two words, no call, where a `String` comparison of two different short keys calls into
    /// the standard library (dictionaries list the same keys in different orders, so half of the
    /// first comparisons fail).
    @inline(__always)
    func fieldColumn(_ key: String, at position: Int, rows: Int, reserve: Int) -> Int {
        let bits = Self.representation(of: key)
        let found = rememberedKeys.withUnsafeBufferPointer { known -> Int in
            guard let base = known.baseAddress else { return -1 }
            let raw = UnsafeRawPointer(base)
            let stride = MemoryLayout<RememberedKey>.stride
            if position < known.count, raw.loadUnaligned(fromByteOffset: position &* stride, as: SIMD2<UInt64>.self) == bits {
                return known[position].column
            }
            for i in known.indices where raw.loadUnaligned(fromByteOffset: i &* stride, as: SIMD2<UInt64>.self) == bits {
                return known[i].column
            }
            return -1
        }
        return found >= 0 ? found : fieldColumnSlow(key, at: position, rows: rows, reserve: reserve)
    }

    /// The bytes of a `String` value. Equal bytes are the same string: a short string's bytes
    /// inline, or the same count and storage object (kept alive, so never reused, while
    /// `rememberedKeys` holds the string). Equal strings may differ in bytes (another storage
    /// object): `fieldColumnSlow` compares those as strings.
    @inline(__always)
    static func representation(of s: String) -> SIMD2<UInt64> {
        withUnsafeBytes(of: s) { bytes in
            bytes.count == 16 ? bytes.loadUnaligned(as: SIMD2<UInt64>.self) : SIMD2(UInt64(bytes.count), 0)
        }
    }

    @inline(never)
    private func fieldColumnSlow(_ key: String, at position: Int, rows: Int, reserve: Int) -> Int {
        // The same key in another representation (nothing moves, so graphics alternating between
        // two orders do not rewrite the table).
        for k in rememberedKeys where k.key == key { return k.column }
        let known = columnIndex[key] != nil
        let c = column(named: key, rows: rows)
        if !known { columns[c].storage.reserveCapacity(forAppending: reserve) }
        if rememberedKeys.count < 16 {
            if rememberedKeys.isEmpty { rememberedKeys.reserveCapacity(16) }
            rememberedKeys.append(RememberedKey(key: key, column: c))
        } else if position < rememberedKeys.count {
            rememberedKeys[position] = RememberedKey(key: key, column: c)
        }
        return c
    }

    /// Validates and appends a slot per graphic (its geometry projected by `projection`, its own
    /// symbol, its attributes straight into the layer's columns, its info template), with ids
    /// from `firstID` on, in one pass: each graphic is read once, in place (no copy of its
    /// geometry or dictionary), and a plain point goes straight into its slot.
    ///
    /// All or nothing: a point without z, m, own symbol or template is checked as it comes, and
    /// what it adds (a slot, rows, fields and strings new to the layer) is undone if a later
    /// graphic is bad. Before anything that is not undone that way (a vertex run, a general
    /// row, an own symbol, a template, a field changing its storage) every graphic still to come
    /// is checked first. Outside the main actor: no executor check per graphic.
    /// - Throws: ``GraphicsLayerError/symbolMismatch(index:symbolKind:geometryType:)`` or
    ///   ``GraphicsLayerError/nonFiniteGeometry(index:)`` for the first bad graphic, having
    ///   added nothing.
    /// - Complexity: O(n + v + a) for n graphics with v vertices and a attributes, plus O(rows)
    ///   per field new to the layer.
    func appendGraphics(
        _ graphics: UnsafeBufferPointer<Graphic>, projection: PointProjection?, firstID: Int
    ) throws(GraphicsLayerError) {
        let n = graphics.count
        let first = shapes.count
        let mark = AppendMark(self)
        shapes.reserveCapacity(forAppending: n)
        if denseIDs {
            precondition(firstID == self.firstID + first, "ids are handed out in order")
        } else {
            ids.reserveCapacity(forAppending: n)
        }
        // Every column gets a row per graphic (a value or a placeholder): room for them at once.
        for c in columns.indices { columns[c].storage.reserveCapacity(forAppending: n) }
        let projecting = projection != nil
        /// Graphics below `checked` are valid.
        var checked = 0
        if !mark.coversFields {
            try GraphicsLayer.validate(graphics, from: 0)
            checked = n
        }
        var lastSymbol: (Symbol, Int32)?
        for i in 0..<n {
            var plain: Point?
            if case .point(let p?) = graphics[i].geometry, p.z == nil, p.m == nil, case .none = graphics[i].symbol,
                case .none = graphics[i].infoTemplate
            {
                plain = p
            }
            if i >= checked {
                if let p = plain {
                    guard p.isFinite else {
                        rollBack(to: mark)
                        throw .nonFiniteGeometry(index: i)
                    }
                    checked = i &+ 1
                } else {
                    try checkRest(graphics, from: i, rollingBackTo: mark)
                    checked = n
                }
            }
            if var p = plain {
                if projecting, let projection { p = projection.project(p) }
                shapes.append(SlotShape(kind: .point, x: p.x, y: p.y, symbol: -1))
                if !denseIDs { ids.append(firstID &+ i) }
            } else {
                var code: Int32 = -1
                if case .some(let own) = graphics[i].symbol {
                    if let (symbol, known) = lastSymbol, symbol == own {
                        code = known
                    } else {
                        code = ownSymbolCode(own)
                        lastSymbol = (own, code)
                    }
                }
                if let projection {
                    appendShape(graphics[i].geometry.mapPoints(projection.project), symbol: code, id: firstID + i)
                } else {
                    appendShape(graphics[i].geometry, symbol: code, id: firstID + i)
                }
                if case .some(let template) = graphics[i].infoTemplate { setTemplate(first &+ i, template) }
            }
            guard !graphics[i].attributes.isEmpty else { continue }
            let row = first &+ i
            var position = 0
            for (name, value) in graphics[i].attributes {
                let c = fieldColumn(name, at: position, rows: row, reserve: n &- i)
                if checked < n, c < mark.columns, !columns[c].storage.keepsKind(appending: value) {
                    try checkRest(graphics, from: checked, rollingBackTo: mark)
                    checked = n
                }
                let missing = row &- columns[c].count
                if missing > 0 { columns[c].storage.appendAbsent(missing) }
                columns[c].append(value)
                position &+= 1
            }
        }
        for c in columns.indices where columns[c].count < shapes.count {
            columns[c].storage.appendAbsent(shapes.count - columns[c].count)
        }
    }

    /// Validates graphics `start...` (see `GraphicsLayer.validate(_:from:)`); on a bad one,
    /// undoes this call's appends and rethrows.
    private func checkRest(
        _ graphics: UnsafeBufferPointer<Graphic>, from start: Int, rollingBackTo mark: AppendMark
    ) throws(GraphicsLayerError) {
        do {
            try GraphicsLayer.validate(graphics, from: start)
        } catch {
            rollBack(to: mark)
            throw error
        }
    }

    /// What a bulk add can undo: the slots and the fields before it started, and the distinct
    /// strings of up to eight fields, inline (no allocation per add; a layer with more fields
    /// validates a batch before adding it).
    struct AppendMark {
        static let fieldLimit = 8
        let slots: Int
        let ids: Int
        let columns: Int
        var strings = SIMD8<UInt32>()

        init(_ s: GraphicSlots) {
            slots = s.shapes.count
            ids = s.ids.count
            columns = s.columns.count
            for c in 0..<min(columns, Self.fieldLimit) {
                strings[c] = UInt32(truncatingIfNeeded: s.columns[c].storage.distinctStringCount)
            }
        }

        /// Whether a rollback to this mark can restore every field.
        var coversFields: Bool { columns <= Self.fieldLimit }
    }

    /// Drops what a bulk add appended after `mark`: slots, ids, rows, fields and strings. Only
    /// plain point slots (no vertex run, general row, own symbol or template) and rows of fields
    /// that kept their storage come after a mark (see `appendGraphics`).
    func rollBack(to mark: AppendMark) {
        shapes.removeLast(shapes.count - mark.slots)
        ids.removeLast(ids.count - mark.ids)
        precondition(mark.coversFields, "a rollback past the fields a mark covers")
        for c in 0..<mark.columns { columns[c].storage.truncate(rows: mark.slots, strings: Int(mark.strings[c])) }
        for c in (mark.columns..<columns.count).reversed() { columnIndex[columns[c].name] = nil }
        columns.removeLast(columns.count - mark.columns)
        // The remembered keys may name the dropped fields' columns.
        rememberedKeys.removeAll(keepingCapacity: true)
    }

    /// Appends `batch`'s columns for the slots just appended (`shapes` already holds them); the
    /// layer's other columns get rows that lack their field.
    func appendAttributes(_ batch: [AttributeColumn], rows n: Int) {
        let base = shapes.count - n
        for incoming in batch {
            let c = column(named: incoming.name, rows: base)
            columns[c].storage.append(contentsOf: incoming.storage)
        }
        for c in columns.indices where columns[c].count < base + n {
            columns[c].storage.appendAbsent(base + n - columns[c].count)
        }
    }

    /// Slot `s`'s attributes, as a dictionary.
    /// - Complexity: O(c) for c columns.
    func attributes(_ s: Int) -> [String: AttributeValue] {
        var out: [String: AttributeValue] = [:]
        for c in columns.indices {
            if let v = columns[c][s] { out[columns[c].name] = v }
        }
        return out
    }

    /// Row `s` of field `name`: nil when the slot lacks it.
    func attribute(_ s: Int, _ name: String) -> AttributeValue? {
        columnIndex[name].flatMap { columns[$0][s] }
    }

    /// Replaces slot `s`'s attributes, writing only the fields that changed.
    func setAttributes(_ s: Int, from old: [String: AttributeValue], to new: [String: AttributeValue]) {
        for (name, value) in new where old[name] != value { columns[column(named: name)].storage.set(s, value) }
        for (name, _) in old where new[name] == nil {
            if let c = columnIndex[name] { columns[c].storage.set(s, nil) }
        }
    }

    // MARK: Own symbols and templates

    /// The symbol code (`-2 - k`) of own symbol `symbol`, adding it to the table when new.
    func ownSymbolCode(_ symbol: Symbol) -> Int32 {
        if let k = ownSymbolLookup[symbol] { return -2 - k }
        let k = Int32(ownSymbols.count)
        ownSymbols.append(symbol)
        ownSymbolLookup[symbol] = k
        ownShapes.append(SymbolShape(symbol))
        maxReach = max(maxReach, SymbolHitTest.reach(symbol))
        return -2 - k
    }

    /// Slot `s`'s own symbol, if it has one.
    func ownSymbol(_ s: Int) -> Symbol? {
        let k = shapes[s].symbol
        return k <= -2 ? ownSymbols[Int(-2 - k)] : nil
    }

    /// The symbol slot `s` is drawn with: its own, else the renderer's, or nil.
    func resolved(_ s: Int) -> Symbol? {
        let k = shapes[s].symbol
        if k >= 0 { return rendererSymbols[Int(k)] }
        return k == -1 ? nil : ownSymbols[Int(-2 - k)]
    }

    /// Sets slot `s`'s symbol code.
    func setSymbol(_ s: Int, _ k: Int32) { shapes[s].symbol = k }

    /// Sets the info template of slot `s` (the slot exists; `templates` grows to cover it).
    func setTemplate(_ s: Int, _ template: InfoTemplate?) {
        guard let template else {
            if s < templates.count { templates[s] = -1 }
            return
        }
        let k: Int32
        if let known = templateLookup[template] {
            k = known
        } else {
            k = Int32(templateTable.count)
            templateTable.append(template)
            templateLookup[template] = k
        }
        if templates.count < shapes.count {
            templates.append(contentsOf: repeatElement(-1, count: shapes.count - templates.count))
        }
        templates[s] = k
    }

    /// Sets the info template of the last `n` slots.
    func setTemplate(lastSlots n: Int, _ template: InfoTemplate?) {
        guard template != nil else { return }
        for s in (shapes.count - n)..<shapes.count { setTemplate(s, template) }
    }

    /// Slot `s`'s info template, if it has one.
    func template(_ s: Int) -> InfoTemplate? {
        guard s < templates.count, templates[s] >= 0 else { return nil }
        return templateTable[Int(templates[s])]
    }

    /// Slot `s` as a graphic.
    /// - Complexity: O(k + c) for its k vertices and c columns.
    func graphic(_ s: Int) -> Graphic {
        Graphic(geometry: geometry(s), symbol: ownSymbol(s), attributes: attributes(s), infoTemplate: template(s))
    }

    /// Keeps only the slots `keep` marks, in every column.
    func compactColumns(_ keep: [Bool]) {
        for c in columns.indices { columns[c].storage.filter(keep) }
        if !templates.isEmpty {
            var w = 0
            for s in templates.indices where keep[s] {
                templates[w] = templates[s]
                w += 1
            }
            templates.removeLast(templates.count - w)
        }
    }

    /// Drops every column, symbol and template.
    func removeAllColumns() {
        columns = []
        columnIndex = [:]
        rememberedKeys = []
        templates = []
        templateTable = []
        templateLookup = [:]
        ownSymbols = []
        ownSymbolLookup = [:]
        ownShapes.removeAll()
    }
}
