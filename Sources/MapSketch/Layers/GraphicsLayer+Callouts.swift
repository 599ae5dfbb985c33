public import MapSketchGeometry

// Callouts built from the columns: a callout template is parsed once per layer into text and
// field references, and a tap reads the referenced fields' rows directly.

extension GraphicsLayer {
    /// The callout content a tap on graphic `id` at `screen` (map point `mapPoint`) shows: its info
    /// template's, or nil when the graphic does not exist, has no info template, or callouts are
    /// off for the layer. A callout template reads the fields it names straight from the
    /// attribute columns; a custom template gets the graphic built from the columns.
    /// - Complexity: O(t + s) for a callout template of length t and substituted values of total
    ///   length s (no attribute dictionary is built); a custom template adds building the graphic.
    @_spi(MapSketchInternal) public func calloutContent(_ id: GraphicID, screen: ScreenPoint, mapPoint: Point) -> CalloutContent? {
        guard calloutsEnabled, let s = slots.slot(of: id.rawValue), s < slots.templates.count else { return nil }
        let k = slots.templates[s]
        guard k >= 0 else { return nil }
        switch slots.templateTable[Int(k)] {
        case .callout(let template):
            let compiled = compiledTemplate(k, template)
            return CalloutContent(
                title: compiled.render(compiled.title, s, slots.columns),
                detail: compiled.render(compiled.detail, s, slots.columns))
        case .custom(let template):
            return template.content(slots.graphic(s), screen, mapPoint)
        }
    }

    /// Template `k` parsed against the current columns (parsed again when columns were added).
    private func compiledTemplate(_ k: Int32, _ template: CalloutTemplate) -> CompiledCalloutTemplate {
        if let c = compiledTemplates[k], c.columnCount == slots.columns.count { return c }
        let c = CompiledCalloutTemplate(template, columnIndex: slots.columnIndex, columnCount: slots.columns.count)
        compiledTemplates[k] = c
        return c
    }
}

/// A callout template as pieces of literal text and column references.
struct CompiledCalloutTemplate: Sendable {
    enum Piece: Sendable {
        case text(String)
        /// A field's column, or -1 when no column has the field (the token becomes "").
        case column(Int)
    }
    let title: [Piece]
    let detail: [Piece]
    /// How many columns there were when parsed.
    let columnCount: Int

    init(_ template: CalloutTemplate, columnIndex: [String: Int], columnCount: Int) {
        func compile(_ text: String) -> [Piece] {
            CalloutTemplate.pieces(text).map { piece in
                switch piece {
                case .text(let t): .text(t)
                case .field(let name): .column(columnIndex[name] ?? -1)
                }
            }
        }
        title = compile(template.title)
        detail = compile(template.detail)
        self.columnCount = columnCount
    }

    /// The text of `pieces` for row `s`: each field's display string (empty when the row lacks
    /// it or holds null), as ``CalloutTemplate/substitute(_:_:)``.
    func render(_ pieces: [Piece], _ s: Int, _ columns: [AttributeColumn]) -> String {
        if pieces.count == 1, case .column(let c) = pieces[0] {
            return c >= 0 ? columns[c][s]?.displayString ?? "" : ""
        }
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let t): out += t
            case .column(let c) where c >= 0: out += columns[c][s]?.displayString ?? ""
            case .column: break
            }
        }
        return out
    }
}
