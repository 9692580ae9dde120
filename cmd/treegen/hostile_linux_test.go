package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileModelSize: a model of 100,000 stumps (a 17 MB file) is not
// refused, but inspect, predict and gen each end with a bounded result:
// exit 0, the right predictions, and a peak resident set below the bound
// that docs/RELIABILITY.md states. Each command runs in a process of its
// own, so that its peak is its own; the times are logged, not asserted.
func TestHostileModelSize(t *testing.T) {
	if testing.Short() {
		t.Skip("about 30 s: three commands on a 17 MB model")
	}
	dir := t.TempDir()
	model := stumps(t, dir, "stumps.json", 100_000, 1)
	data := writeFile(t, dir, "rows.csv", "a,b,c\n0,0,0\n20,20,20\n")
	for _, c := range []struct {
		bound int64 // bytes of peak resident set
		args  []string
	}{
		{1 << 30, []string{"inspect", model}},
		{1 << 30, []string{"predict", "--model", model, "--data", data}},
		{2 << 30, []string{"gen", "--model", model, "--out", filepath.Join(dir, "pkg")}},
	} {
		args, bound := c.args, c.bound
		t.Run(args[0], func(t *testing.T) {
			cmd := childCommand(args)
			began := time.Now()
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("treegen %s: %v", strings.Join(args, " "), err)
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // kB on Linux
			t.Logf("treegen %s: %.1f s, peak resident set %d MB", args[0], time.Since(began).Seconds(), rss>>20)
			if rss > bound {
				t.Errorf("treegen %s: peak resident set %d MB, above the stated %d MB", args[0], rss>>20, bound>>20)
			}
			if args[0] == "predict" {
				if want := "output_0\n100000\n100000\n"; string(out) != want {
					t.Errorf("predict printed %q, want %q", out, want)
				}
			}
		})
	}
}
