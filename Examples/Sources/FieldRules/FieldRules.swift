// BEGIN rule
public import MapSketch
import MapSketchGeometry
public import MapSketchReplay

/// The survey team's rules for sketched lines.
public enum FieldRules {
    /// The shortest segment a surveyor may draw, in map units (metres in Web Mercator).
    public static let minimumSegment = 5.0

    /// Rejects an edit that leaves the inserted or moved vertex closer than ``minimumSegment``
    /// to a neighbour in its part: the reason, or nil to accept the edit.
    public static func shortSegment(_ proposal: SketchEditProposal) -> String? {
        guard proposal.kind == .insertVertex || proposal.kind == .moveVertex,
            let part = proposal.part, let index = proposal.index,
            let vertex = try? proposal.after.vertex(part: part, index: index),
            let count = try? proposal.after.vertexCount(part: part)
        else { return nil }
        for neighbour in [index - 1, index + 1] where neighbour >= 0 && neighbour < count {
            guard let other = try? proposal.after.vertex(part: part, index: neighbour) else { continue }
            let length = ((vertex.x - other.x) * (vertex.x - other.x) + (vertex.y - other.y) * (vertex.y - other.y)).squareRoot()
            if length < minimumSegment { return "a segment of \(length) m is shorter than \(minimumSegment) m" }
        }
        return nil
    }

    /// What every replay of the team installs: the rule, measured by the bench as `user.shortSegment`.
    public static var extensions: ReplayExtensions {
        var extensions = ReplayExtensions()
        extensions.validationRule("shortSegment", shortSegment)
        return extensions
    }
}
// END rule
