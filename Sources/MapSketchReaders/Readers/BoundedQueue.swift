import Foundation

/// A bounded first-in first-out hand-over from one producing thread to one consuming thread:
/// the producer waits while `depth` elements wait; the consumer waits while none does. The
/// producer ends the queue with a value (what it counted) and, when it stopped on one, an error
/// the consumer receives after every element put before it. Either side may cancel: the
/// producer's next ``put(_:)`` then returns false, the consumer's next ``take()`` nil.
///
/// Every stored property is read and written only with `condition` locked, which is what makes
/// the class safe to share (`@unchecked Sendable`).
package final class BoundedQueue<Element: Sendable, Ending: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let depth: Int
    private var elements: [Element?] = []
    private var head = 0
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false
    private var ending: Ending?

    /// A queue holding at most `depth` (at least 1) waiting elements.
    package init(depth: Int) { self.depth = max(1, depth) }

    /// Waits for room, then queues `element`; false, queueing nothing, once cancelled.
    package func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while elements.count - head >= depth && !cancelled { condition.wait() }
        if cancelled { return false }
        if head >= 64 {  // drop the taken slots now and then: the array stays O(depth)
            elements.removeFirst(head)
            head = 0
        }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// Marks the end of the production, with what the producer counted and the error it stopped
    /// on, if any.
    package func end(_ value: Ending, failure: (any Error)?) {
        condition.lock()
        defer { condition.unlock() }
        ending = value
        self.failure = failure
        finished = true
        condition.broadcast()
    }

    /// Waits for the next element or the end: the element; at the end nil, or the producer's
    /// error; nil once cancelled and the queued elements are taken.
    package func take() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == elements.count && !finished && !cancelled { condition.wait() }
        if head < elements.count {
            let element = elements[head]
            elements[head] = nil
            head += 1
            condition.broadcast()
            return element
        }
        if let failure, finished { throw failure }
        return nil
    }

    /// The producer's ending value, once it has ended; nil before.
    package var endingValue: Ending? {
        condition.lock()
        defer { condition.unlock() }
        return finished ? ending : nil
    }

    /// Stops both sides at their next call.
    package func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        condition.broadcast()
    }
}
