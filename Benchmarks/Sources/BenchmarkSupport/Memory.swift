import CMallocInfo
import Foundation

/// How much memory the process holds, for figures such as bytes per graphic.
public enum Memory {
    /// Bytes held through `malloc` right now, as the C library counts them (glibc `mallinfo2`:
    /// in use in the arenas plus blocks mapped on their own): allocated capacity, touched or not.
    /// 0 where the C library does not say.
    public static func allocatedBytes() -> Int { Int(mapsketch_malloc_in_use_bytes()) }

    /// The process's resident set (RSS) in bytes, from `/proc/self/statm`; 0 where there is none.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The growth of ``allocatedBytes()`` and ``residentBytes()`` while `body` runs, and its
    /// result (memory freed by `body` before it returns is not counted).
    public static func growth<T>(_ body: () throws -> T) rethrows -> (value: T, allocated: Int, resident: Int) {
        let a = allocatedBytes(), r = residentBytes()
        let value = try body()
        return (value, allocatedBytes() - a, residentBytes() - r)
    }
}
