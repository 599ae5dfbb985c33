// Android getevent reader: contacts, from the frames of the three kernel protocols to touch
// began/moved/ended events in screen points.
import MapSketch

extension GeteventState {
    func scaled(x: Double, y: Double) -> (Double, Double) {
        guard let screen = options.screen else { return (x, y) }
        let xr = xRange ?? (0, options.axisMax?.x ?? 1)
        let yr = yRange ?? (0, options.axisMax?.y ?? 1)
        return ((x - xr.0) / (xr.1 - xr.0) * screen.width, (y - yr.0) / (yr.1 - yr.0) * screen.height)
    }

    mutating func emit(_ time: Double, _ id: Int, _ phase: TouchPhase, _ rawX: Double, _ rawY: Double) {
        if firstFrameTime == nil { firstFrameTime = time }
        let (x, y) = scaled(x: rawX, y: rawY)
        events.append(TouchEvent(time: time - (firstFrameTime ?? time), id: id, phase: phase, x: x, y: y))
    }

    /// One `[time] [device:] type code value` line, or nil for other lines (device info, blank,
    /// another device's events).

    // MARK: Protocol A

    mutating func handleA(_ code: EventCode, _ value: Int, _ time: Double) {
        switch code {
        case .mtX: contact.x = Double(value)
        case .mtY: contact.y = Double(value)
        case .mtTrackingID: contact.trackingID = value
        case .synMTReport:
            if contact.x != nil || contact.y != nil || contact.trackingID != nil { frame.append(contact) }
            contact = Contact()
        case .synReport:
            if contact.x != nil || contact.y != nil { frame.append(contact) }  // a last contact without SYN_MT_REPORT
            contact = Contact()
            finishFrameA(time)
        default: break
        }
    }

    mutating func finishFrameA(_ time: Double) {
        var next: [ActiveTouch] = []
        var began: [ActiveTouch] = []
        var moved: [ActiveTouch] = []
        var used = Array(repeating: false, count: activeA.count)
        for (order, c) in frame.enumerated() {
            let key = c.trackingID ?? order
            if let k = activeA.indices.first(where: { !used[$0] && activeA[$0].key == key }) {
                used[k] = true
                var a = activeA[k]
                let nx = c.x ?? a.x, ny = c.y ?? a.y
                if nx != a.x || ny != a.y {
                    a.x = nx
                    a.y = ny
                    moved.append(a)
                }
                next.append(a)
            } else {
                guard let x = c.x, let y = c.y else { continue }  // a contact must be located to begin
                let a = ActiveTouch(id: nextID, key: key, x: x, y: y)
                nextID += 1
                began.append(a)
                next.append(a)
            }
        }
        for (k, a) in activeA.enumerated() where !used[k] { emit(time, a.id, .ended, a.x, a.y) }
        for a in began { emit(time, a.id, .began, a.x, a.y) }
        for a in moved { emit(time, a.id, .moved, a.x, a.y) }
        activeA = next
        frame.removeAll(keepingCapacity: true)
    }

    // MARK: Protocol B

    mutating func handleB(_ code: EventCode, _ value: Int, _ time: Double) {
        switch code {
        case .mtSlot:
            slot = max(0, min(value, 63))
            while slots.count <= slot { slots.append(Slot()) }
        case .mtTrackingID:
            if value < 0 {
                if slots[slot].trackingID >= 0 { slots[slot].lifted = true }
                slots[slot].trackingID = -1
            } else {
                if slots[slot].trackingID >= 0, slots[slot].trackingID != value { slots[slot].lifted = true }
                slots[slot].trackingID = value
                slots[slot].dirty = true
            }
        case .mtX:
            slots[slot].x = Double(value)
            slots[slot].dirty = true
        case .mtY:
            slots[slot].y = Double(value)
            slots[slot].dirty = true
        case .synReport:
            for k in slots.indices {
                var s = slots[k]
                if s.lifted, let id = s.touchID {
                    emit(time, id, .ended, s.x ?? 0, s.y ?? 0)
                    s.touchID = nil
                }
                s.lifted = false
                if s.trackingID >= 0, s.dirty, let x = s.x, let y = s.y {
                    if let id = s.touchID {
                        emit(time, id, .moved, x, y)
                    } else {
                        s.touchID = nextID
                        nextID += 1
                        emit(time, nextID - 1, .began, x, y)
                    }
                }
                s.dirty = false
                slots[k] = s
            }
        default: break
        }
    }

    // MARK: Single touch

    mutating func handleSingle(_ code: EventCode, _ value: Int, _ time: Double) {
        switch code {
        case .absX:
            stX = Double(value)
            stChanged = true
        case .absY:
            stY = Double(value)
            stChanged = true
        case .btnTouch: stDown = value != 0
        case .synReport:
            if var t = stTouch {
                if !stDown {
                    emit(time, t.id, .ended, stX ?? t.x, stY ?? t.y)
                    stTouch = nil
                } else if stChanged, let x = stX, let y = stY, x != t.x || y != t.y {
                    t.x = x
                    t.y = y
                    stTouch = t
                    emit(time, t.id, .moved, x, y)
                }
            } else if stDown, let x = stX, let y = stY {
                stTouch = ActiveTouch(id: nextID, key: 0, x: x, y: y)
                nextID += 1
                emit(time, nextID - 1, .began, x, y)
            }
            stChanged = false
        default: break
        }
    }
}
