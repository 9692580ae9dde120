//go:build !linux

package main

// peakRSS returns 0 (unknown): the peak resident set size is read on Linux
// only (see rss_linux.go).
func peakRSS() int64 { return 0 }
