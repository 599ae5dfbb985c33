// The fuzzer's entry point. SwiftPM links an executable's `main` from this file, so instead of
// libFuzzer's own `main` (which `-parse-as-library` builds would need) this one hands control to
// libFuzzer's driver, `LLVMFuzzerRunDriver`, with the callback below. The target comes from
// MAPSKETCH_FUZZ_TARGET; libFuzzer's options from the command line.
import Foundation

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

let name = ProcessInfo.processInfo.environment["MAPSKETCH_FUZZ_TARGET"] ?? ""
guard FuzzTarget(rawValue: name) != nil else {
    FileHandle.standardError.write(
        Data("set MAPSKETCH_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
    exit(2)
}

/// One input for the target MAPSKETCH_FUZZ_TARGET names. Also exported as libFuzzer's
/// `LLVMFuzzerTestOneInput`: a debug build renames this file's `main` (SwiftPM does, so that tests
/// can link an executable's module), and the linker then takes libFuzzer's own `main`, which
/// calls it.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let target = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["MAPSKETCH_FUZZ_TARGET"] ?? "") else {
        FileHandle.standardError.write(Data("set MAPSKETCH_FUZZ_TARGET to a fuzz target\n".utf8))
        exit(2)
    }
    let bytes = data.map { [UInt8](UnsafeBufferPointer(start: $0, count: count)) } ?? []
    MainActor.assumeIsolated { target.run(bytes) }
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, count in fuzzOneInput(data, count) })
