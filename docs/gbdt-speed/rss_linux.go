package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// peakRSS returns the peak resident set size of this process so far, in
// KiB, or 0 when it cannot be read: the VmHWM line of /proc/self/status,
// the high-water mark of this process's own memory since it started (its
// exec). getrusage's ru_maxrss, the fallback, is no good here: Linux
// carries it over an exec, and a child started by os/exec shares its
// parent's memory until it execs, so it would report at least the
// parent's peak.
func peakRSS() int64 {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range bytes.Lines(b) {
			if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
				v = bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(v), []byte("kB")))
				if kib, err := strconv.ParseInt(string(v), 10, 64); err == nil {
					return kib
				}
			}
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Maxrss
}
