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
        column.appendAbsent(rows)
        columns.append(column)
        columnIndex[name] = columns.count - 1
        return columns.count - 1
    }

    /// The column of `key`, the `position`-th key of a graphic's attribute dictionary: compared
    /// with the key the previous graphics had at that position, then with their other keys (no
    /// hashing while graphics have the same keys, in whatever order their dictionaries list
    /// them), else found or created by name (`rows` rows lacking it, room for `reserve` more).
    @inline(__always)
    func fieldColumn(_ key: String, at position: Int, rows: Int, reserve: Int) -> Int {
        if position < lastKeys.count, lastKeys[position] == key { return lastKeyColumns[position] }
        return fieldColumnSlow(key, at: position, rows: rows, reserve: reserve)
    }

    @inline(never)
    private func fieldColumnSlow(_ key: String, at position: Int, rows: Int, reserve: Int) -> Int {
        // Dictionaries with the same keys list them in different orders (each has its own hash
        // seed): look at the other remembered keys before hashing (nothing moves, so graphics
        // alternating between two orders do not rewrite the table).
        for i in lastKeys.indices where i != position && lastKeys[i] == key { return lastKeyColumns[i] }
        let known = columnIndex[key] != nil
        let c = column(named: key, rows: rows)
        if !known { columns[c].reserveCapacity(forAppending: reserve) }
        if lastKeys.count < 16 {
            if lastKeys.isEmpty {
                lastKeys.reserveCapacity(16)
                lastKeyColumns.reserveCapacity(16)
            }
            lastKeys.append(key)
            lastKeyColumns.append(c)
        } else if position < lastKeys.count {
            lastKeys[position] = key
            lastKeyColumns[position] = c
        }
        return c
    }

    /// Appends a slot per graphic (its geometry projected by `projection`, its own symbol, its
    /// attributes straight into the layer's columns, its info template), with ids from
    /// `firstID` on. Outside the main actor: no executor check per graphic.
    /// - Complexity: O(n + v + a) for n graphics with v vertices and a attributes, plus O(rows)
    ///   per field new to the layer.
    func appendGraphics(_ graphics: [Graphic], projection: PointProjection?, firstID: Int) {
        let n = graphics.count
        let first = shapes.count
        shapes.reserveCapacity(forAppending: n)
        // Every column gets a row per graphic (a value or a placeholder): room for them at once.
        for c in columns.indices { columns[c].reserveCapacity(forAppending: n) }
        var lastSymbol: (Symbol, Int32)?
        for i in 0..<n {
            var code: Int32 = -1
            if let own = graphics[i].symbol {
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
            let row = first + i
            var p = 0
            for (name, value) in graphics[i].attributes {
                let c = fieldColumn(name, at: p, rows: row, reserve: n - i)
                let missing = row - columns[c].count
                if missing > 0 { columns[c].appendAbsent(missing) }
                columns[c].append(value)
                p += 1
            }
            if let template = graphics[i].infoTemplate { setTemplate(row, template) }
        }
        for c in columns.indices where columns[c].count < shapes.count {
            columns[c].appendAbsent(shapes.count - columns[c].count)
        }
    }

    /// Appends `batch`'s columns for the slots just appended (`shapes` already holds them); the
    /// layer's other columns get rows that lack their field.
    func appendAttributes(_ batch: [AttributeColumn], rows n: Int) {
        let base = shapes.count - n
        for incoming in batch {
            let c = column(named: incoming.name, rows: base)
            columns[c].append(contentsOf: incoming)
        }
        for c in columns.indices where columns[c].count < base + n {
            columns[c].appendAbsent(base + n - columns[c].count)
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
        for (name, value) in new where old[name] != value { columns[column(named: name)].set(s, value) }
        for (name, _) in old where new[name] == nil {
            if let c = columnIndex[name] { columns[c].set(s, nil) }
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
        for c in columns.indices { columns[c].filter(keep) }
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
        lastKeys = []
        lastKeyColumns = []
        templates = []
        templateTable = []
        templateLookup = [:]
        ownSymbols = []
        ownSymbolLookup = [:]
        ownShapes.removeAll()
    }
}
