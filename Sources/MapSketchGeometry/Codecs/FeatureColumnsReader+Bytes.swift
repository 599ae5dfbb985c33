// The feature reader's byte-level paths: keys and strings compared and interned by their bytes
// (no `String` made for a key or a value seen before), and GeoJSON points read straight from
// the bytes into the geometry column. Anything out of the ordinary goes the general way, which
// also says what is wrong.

extension FeatureColumnsReader {
    // MARK: Strings

    /// The bytes of the string at the position (which must be at its `"`) when it has no escape
    /// and no control byte, stepping past its closing quote; whether every byte is ASCII (else its
    /// UTF-8 is not checked yet). Nil, the position unchanged, otherwise.
    @inline(__always)
    mutating func plainString() -> (bytes: UnsafeBufferPointer<UInt8>, ascii: Bool)? {
        let start = p.i + 1
        var k = start
        var high: UInt8 = 0
        let n = p.p.count
        while k < n {
            let b = p.p[k]
            if b == UInt8(ascii: "\"") {
                p.i = k + 1
                return (UnsafeBufferPointer(rebasing: p.p[start..<k]), high < 0x80)
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            high |= b
            k += 1
        }
        return nil
    }

    /// Whether `key` is `word`, byte for byte.
    @inline(__always)
    static func bytes(_ key: UnsafeBufferPointer<UInt8>, are word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard key.count == n else { return false }
        let w = word.utf8Start
        for k in 0..<n where key[k] != w[k] { return false }
        return true
    }

    /// Whether the bytes at the position are `word` in quotes; if so, steps over them.
    @inline(__always)
    mutating func skipQuoted(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard p.i + n + 2 <= p.p.count, p.p[p.i] == UInt8(ascii: "\""), p.p[p.i + n + 1] == UInt8(ascii: "\"")
        else { return false }
        let w = word.utf8Start
        for k in 0..<n where p.p[p.i + 1 + k] != w[k] { return false }
        p.i += n + 2
        return true
    }

    // MARK: Attribute keys and string values

    /// The field of attribute `key`, the `position`-th key of its object: by its bytes when the
    /// last object had it at that position, else by name (``FieldLookup``).
    mutating func field(_ key: UnsafeBufferPointer<UInt8>, _ position: Int) -> Int {
        if let f = keys.field(key, position) { return f }
        let name = String(decoding: key, as: UTF8.self)
        let f = lookup.column(name, at: position)
        if f == fields.count {
            fields.append(FieldColumn(name))
            interns.append(StringInterns())
        }
        keys.set(key, position, f)
        return f
    }

    /// Appends the string at the position to field `f` (a string column, or one with no value
    /// yet): its id found by its bytes when the field had it before, else read, checked and
    /// interned the general way.
    mutating func appendString(field f: Int) throws {
        let at = mark
        if fields[f].kind == .string, let s = plainString() {
            if let id = interns[f].id(of: s.bytes) {
                fields[f].storage.appendStringID(id)
                return
            }
            restore(at)
        }
        let s = try p.parseString()
        fields[f].storage.append(.string(s))
        if fields[f].kind == .string, let id = fields[f].storage.lastStringID {
            interns[f].insert(UnsafeBufferPointer(rebasing: p.p[(at.i + 1)..<(p.i - 1)]), id, plain: s.utf8.count == p.i - at.i - 2)
        }
    }

    // MARK: GeoJSON points

    /// Reads `{"type": "Point", "coordinates": [x, y]}` (z and m allowed; the two members in
    /// either order) straight into a point. Nil, the position unchanged, for anything else — an
    /// empty point, another member, a number the general path must reject —, which the general
    /// path then reads as a value tree.
    mutating func geoJSONPoint() -> Point? {
        guard byte == UInt8(ascii: "{"), p.depth + 2 <= p.options.maxDepth else { return nil }
        let start = mark
        p.i += 1
        var sawType = false
        var point: Point?
        while true {
            p.skipSpace()
            if skipQuoted("type") {
                guard !sawType, skipColon(), skipQuoted("Point") else { break }
                sawType = true
            } else if skipQuoted("coordinates") {
                guard point == nil, skipColon(), let q = position() else { break }
                point = q
            } else {
                break
            }
            p.skipSpace()
            if byte == UInt8(ascii: ",") {
                p.i += 1
                continue
            }
            if byte == UInt8(ascii: "}"), sawType, let point {
                p.i += 1
                return point
            }
            break
        }
        restore(start)
        return nil
    }

    /// Steps over blank space, ':' and blank space; false when there is no ':'.
    @inline(__always)
    private mutating func skipColon() -> Bool {
        p.skipSpace()
        guard byte == UInt8(ascii: ":") else { return false }
        p.i += 1
        p.skipSpace()
        return true
    }

    /// `[x, y]`, `[x, y, z]` or `[x, y, z, m]` of plain numbers; nil for anything else.
    private mutating func position() -> Point? {
        guard byte == UInt8(ascii: "[") else { return nil }
        p.i += 1
        var c: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var n = 0
        while true {
            p.skipSpace()
            guard let b = byte, b == UInt8(ascii: "-") || JSONScanner.isDigit(b), n < 4 else { return nil }
            let d: Double
            switch try? p.parseNumber() {
            case .integer(let i)?: d = Double(i)
            case .number(let x)?: d = x
            default: return nil
            }
            switch n {
            case 0: c.0 = d
            case 1: c.1 = d
            case 2: c.2 = d
            default: c.3 = d
            }
            n += 1
            p.skipSpace()
            if byte == UInt8(ascii: ",") {
                p.i += 1
                continue
            }
            guard byte == UInt8(ascii: "]"), n >= 2 else { return nil }
            p.i += 1
            return Point(x: c.0, y: c.1, z: n > 2 ? c.2 : nil, m: n > 3 ? c.3 : nil)
        }
    }

    // MARK: Capacity

    /// Reserves room for `rows` more rows like the last one read (its vertices, its fields).
    mutating func reserve(rows: Int) {
        guard rows > 0, geometry.count > 0 else { return }
        geometry.reserveCapacity(rows: rows, vertices: rows * max(1, geometry.vertexCount / geometry.count))
        for f in fields.indices { fields[f].storage.reserveCapacity(forAppending: rows) }
    }
}

/// The field of each key position of the last attributes object, by the key's bytes: while
/// objects list the same keys in the same order, a key is found by comparing its bytes, with no
/// `String` made or hashed.
struct KeyCache {
    private var bytes: [UInt8] = []
    /// Per position: where its key's bytes start and end in `bytes`, and its field.
    private var slots: [(start: Int, end: Int, field: Int)] = []

    /// The field of `key` at `position`, when the last key there was the same.
    @inline(__always)
    func field(_ key: UnsafeBufferPointer<UInt8>, _ position: Int) -> Int? {
        guard position < slots.count else { return nil }
        let s = slots[position]
        guard s.end - s.start == key.count else { return nil }
        for k in 0..<key.count where bytes[s.start + k] != key[k] { return nil }
        return s.field
    }

    /// Remembers `key`'s field at `position` (the bytes are kept once, up to 64 positions).
    mutating func set(_ key: UnsafeBufferPointer<UInt8>, _ position: Int, _ field: Int) {
        guard position < 64 else { return }
        if bytes.count + key.count > 1 << 16 {  // keys in ever new orders: start over
            bytes.removeAll(keepingCapacity: true)
            slots.removeAll(keepingCapacity: true)
        }
        if slots.isEmpty {
            bytes.reserveCapacity(256)
            slots.reserveCapacity(16)
        }
        let slot = (start: bytes.count, end: bytes.count + key.count, field: field)
        bytes.append(contentsOf: key)
        while slots.count <= position { slots.append((0, 0, -1)) }
        slots[position] = slot
    }
}

/// A string column's ids by the strings' bytes as written (escape-free strings only): an
/// open-addressing table over one byte arena, so a repeated string is found without a `String`
/// made or hashed. It holds up to 4,096 distinct strings of a field (the first met; more go the
/// general way), so a field of unique strings costs it a bounded amount.
struct StringInterns {
    private var arena: [UInt8] = []
    /// Per entry: its bytes in `arena` and its id in the column.
    private var entries: [(start: Int32, count: Int32, id: UInt32)] = []
    /// Open addressing: an entry's index + 1, or 0.
    private var table: [Int32] = []

    private static let limit = 4096

    /// The id of the string whose bytes are `s`, if it is held.
    @inline(__always)
    func id(of s: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard !table.isEmpty else { return nil }
        let mask = table.count - 1
        var slot = Self.hash(s) & mask
        while true {
            let e = Int(table[slot])
            if e == 0 { return nil }
            let entry = entries[e - 1]
            if Int(entry.count) == s.count {
                let base = Int(entry.start)
                var same = true
                for k in 0..<s.count where arena[base + k] != s[k] {
                    same = false
                    break
                }
                if same { return entry.id }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Holds `s` (its bytes as written) with `id`, when `plain` (no escape: the bytes are the
    /// string's own) and there is room.
    mutating func insert(_ s: UnsafeBufferPointer<UInt8>, _ id: UInt32, plain: Bool) {
        guard plain, entries.count < Self.limit, arena.count + s.count <= 1 << 20 else { return }
        if table.isEmpty {
            // Room for a field of a few dozen distinct strings from the start.
            table = [Int32](repeating: 0, count: 256)
            entries.reserveCapacity(64)
            arena.reserveCapacity(1024)
        }
        if (entries.count + 1) * 2 > table.count { grow() }
        entries.append((Int32(arena.count), Int32(s.count), id))
        arena.append(contentsOf: s)
        place(entries.count - 1, Self.hash(s))
    }

    private mutating func place(_ e: Int, _ h: Int) {
        let mask = table.count - 1
        var slot = h & mask
        while table[slot] != 0 { slot = (slot + 1) & mask }
        table[slot] = Int32(e + 1)
    }

    private mutating func grow() {
        table = [Int32](repeating: 0, count: table.count * 2)
        for e in entries.indices {
            let entry = entries[e]
            let h = arena.withUnsafeBufferPointer {
                Self.hash(UnsafeBufferPointer(rebasing: $0[Int(entry.start)..<Int(entry.start + entry.count)]))
            }
            place(e, h)
        }
    }

    /// FNV-1a over the bytes.
    @inline(__always)
    private static func hash(_ s: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in s { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return Int(truncatingIfNeeded: h ^ (h >> 29))
    }
}
