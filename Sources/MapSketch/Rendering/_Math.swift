import Foundation

/// Trigonometry and logarithms behind one internal door, so files need not import Foundation.
@usableFromInline func _sin(_ x: Double) -> Double { sin(x) }
@usableFromInline func _cos(_ x: Double) -> Double { cos(x) }
@usableFromInline func _log(_ x: Double) -> Double { log(x) }
