# Sourced by the CI scripts (not run on its own).
#
# heartbeat_run LOG COMMAND [ARG…]
#   Runs COMMAND with its output (stdout and stderr) in LOG and keeps talking while it runs: every
#   30 s one line with the time so far and the last line the command printed, so a long build or
#   benchmark run is never minutes of silence. Returns the command's exit status.
heartbeat_run() {
    local log="$1"
    shift
    "$@" >"$log" 2>&1 &
    local pid=$! waited=0 last
    while kill -0 "$pid" 2>/dev/null; do
        sleep 5
        waited=$((waited + 5))
        if [ $((waited % 30)) -eq 0 ] && kill -0 "$pid" 2>/dev/null; then
            last="$(grep -v '^[[:space:]]*$' "$log" 2>/dev/null | tail -1 | cut -c1-110)"
            echo "   … ${waited} s: ${last:-(no output yet)}"
        fi
    done
    wait "$pid" 2>/dev/null
}

# swiftpm_run LOG COMMAND [ARG…]
#   heartbeat_run for a SwiftPM command (swift build / swift package …) that is run once more when
#   the SwiftPM process itself was killed by a signal (exit status above 128). On Linux,
#   swift-package intermittently dies of SIGSEGV in libdispatch's event loop
#   (`_dispatch_event_loop_drain`) while it waits for the processes it spawned; that crash is in
#   the toolchain, not in MapSketch or a benchmark. A benchmark that crashes, a failed build or a
#   failed precondition make SwiftPM exit 1, 2 or 3 after printing why, and are never retried.
#   Returns the command's exit status (of the second run when there was one). The first run's
#   output is kept in LOG.first.
swiftpm_run() {
    local log="$1"
    shift
    local attempt status
    for attempt in 1 2; do
        heartbeat_run "$log" "$@"
        status=$?
        if [ "$status" -le 128 ] || [ "$attempt" -eq 2 ]; then
            return "$status"
        fi
        echo "   SwiftPM itself was killed by signal $((status - 128)) (exit $status), a toolchain crash"
        echo "   (its output: $log.first); running the same command once more"
        grep -E "Program crashed|crashed:|^ *[0-9]+ .* in (libdispatch|swift-package)" "$log" | head -6 | sed 's/^/     /'
        mv "$log" "$log.first"
    done
    return "$status"
}
