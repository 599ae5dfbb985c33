@testable import MapSketchGeometry
import Testing

/// The huge-page advice covers only whole 2 MiB pages inside a large region, never a byte
/// outside it, and is harmless on any region (the hit test's results do not depend on it).
@Suite struct HugePagesTests {
    @Test func spanIsTheWholeHugePagesInsideTheRegion() {
        let page = HugePages.pageSize
        // Aligned start, a whole number of pages.
        #expect(HugePages.span(start: 4 * page, bytes: 3 * page)! == (4 * page, 7 * page))
        // Unaligned both ends: rounded inward.
        #expect(HugePages.span(start: 4 * page + 16, bytes: 3 * page)! == (5 * page, 7 * page))
        #expect(HugePages.span(start: 4 * page - 16, bytes: 3 * page)! == (4 * page, 6 * page))
        // Too small, or no whole page inside once rounded inward.
        #expect(HugePages.span(start: 4 * page, bytes: HugePages.threshold - 1) == nil)
        #expect(HugePages.span(start: 4 * page + 1, bytes: HugePages.threshold) != nil)
        #expect(HugePages.span(start: 0, bytes: 3 * page) == nil)
        #expect(HugePages.span(start: Int.max - page, bytes: 3 * page) == nil)
    }

    @Test func advisingARealBufferKeepsItsContents() {
        let n = 3 * HugePages.pageSize / 8
        let p = UnsafeMutablePointer<Int>.allocate(capacity: n)
        defer { p.deallocate() }
        p.initialize(repeating: 7, count: n)
        HugePages.advise(p, bytes: n * 8)
        HugePages.advise(p, bytes: 8)
        #expect((0..<n).allSatisfy { p[$0] == 7 })
        let fresh = UnsafeMutablePointer<Int>.allocate(capacity: n)
        defer { fresh.deallocate() }
        HugePages.advise(fresh, bytes: n * 8)
        fresh.initialize(repeating: 9, count: n)
        #expect(fresh[0] == 9 && fresh[n - 1] == 9)
    }
}
