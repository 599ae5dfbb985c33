#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether this test process was built with AddressSanitizer or ThreadSanitizer
/// (`swift test --sanitize=…`, `scripts/sanitize.sh`): the executables built beside it are then
/// sanitized too, and valgrind cannot run them (the sanitizer's shadow memory and valgrind's own
/// take the same address space).
public enum SanitizerRuntime {
    /// "address", "thread", or nil for a build without either; found by the runtime's entry
    /// point among the process's symbols.
    public static let active: String? = {
        guard let process = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(process) }
        if dlsym(process, "__asan_init") != nil { return "address" }
        if dlsym(process, "__tsan_init") != nil { return "thread" }
        return nil
    }()
}
