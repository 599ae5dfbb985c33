// The few system calls the file input and output use, with the platform differences in one place.
#if canImport(Glibc)
package import Glibc
#elseif canImport(Darwin)
package import Darwin
#endif
import MapSketchGeometry

package enum POSIX {
    /// The one chunk size file input and output use: read calls, write buffers, inflate bursts
    /// (the encoders' `ByteOutput.chunkBytes`).
    package static let chunkBytes = ByteOutput.chunkBytes

    /// The system's text for an `errno` value ("No such file or directory").
    package static func reason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// `write(2)`.
    package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    /// `read(2)`.
    package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }

    /// The last modification time of a file's status, in whole seconds since 1970.
    package static func modificationSeconds(_ st: stat) -> Int {
        #if canImport(Glibc)
        Int(st.st_mtim.tv_sec)
        #else
        Int(st.st_mtimespec.tv_sec)
        #endif
    }
}
