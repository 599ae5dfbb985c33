/// The geometry engine: operations on ``Geometry`` values, one per file.
public enum GeometryEngine {}
