/// Finds the column of each attribute key of row after row: by name once per distinct key order,
/// then — while rows list their keys as the row before did (as dictionaries and JSON objects with
/// the same keys mostly do) — by comparing a key with the one at the same position, not by
/// hashing it. Shared by the feature readers and the map model's attribute columns.
package struct FieldLookup {
    private var index: [String: Int] = [:]
    private var lastKeys: [String] = []
    private var lastColumns: [Int] = []

    package init() {}

    /// The number of fields named so far.
    package var count: Int { index.count }

    /// The column of `key`, the `position`-th key of its row; a key not seen before gets the
    /// next column (`count` before the call), which the caller then appends.
    package mutating func column(_ key: String, at position: Int) -> Int {
        if position < lastKeys.count, lastKeys[position] == key { return lastColumns[position] }
        // Dictionaries with the same keys list them in different orders (each has its own hash
        // seed): look for the key at the previous row's other positions before hashing it, and
        // swap it into this position (each remembered key keeps its column).
        if position < lastKeys.count, lastKeys.count <= 8 {
            for i in lastKeys.indices where lastKeys[i] == key {
                lastKeys.swapAt(i, position)
                lastColumns.swapAt(i, position)
                return lastColumns[position]
            }
        }
        let c = self.column(key)
        if position < lastKeys.count {
            lastKeys[position] = key
            lastColumns[position] = c
        } else {
            lastKeys.append(key)
            lastColumns.append(c)
        }
        return c
    }

    /// The column of `key`, by name (a new key gets the next column).
    package mutating func column(_ key: String) -> Int {
        if let c = index[key] { return c }
        let c = index.count
        index[key] = c
        return c
    }

    /// The column of `key` if it has one.
    package func existing(_ key: String) -> Int? { index[key] }
}
