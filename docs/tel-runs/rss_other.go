//go:build !linux

package main

import "os"

// peakRSS returns -1: only Linux's figure is read.
func peakRSS(*os.ProcessState) int64 { return -1 }
