import Foundation

/// Trigonometry and logarithms behind one internal door, so files need not import Foundation.
@usableFromInline func _sin(_ x: Double) -> Double { sin(x) }
@usableFromInline func _cos(_ x: Double) -> Double { cos(x) }
@usableFromInline func _tan(_ x: Double) -> Double { tan(x) }
@usableFromInline func _atan(_ x: Double) -> Double { atan(x) }
@usableFromInline func _exp(_ x: Double) -> Double { exp(x) }
@usableFromInline func _log(_ x: Double) -> Double { log(x) }
