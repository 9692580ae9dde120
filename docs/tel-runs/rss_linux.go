package main

import (
	"os"
	"syscall"
)

// peakRSS returns the peak resident set size of the finished process in
// bytes, or -1 where the system does not say.
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // kilobytes on Linux
	}
	return -1
}
