package parallel

import (
	"sync/atomic"
	"testing"
)

func TestFor(t *testing.T) {
	for _, c := range []struct{ n, threads int }{{0, 4}, {1, 4}, {7, 1}, {100, 2}, {100, 16}, {3, 0}} {
		var calls atomic.Int64
		seen := make([]atomic.Int32, c.n)
		For(c.n, c.threads, func(u int) {
			calls.Add(1)
			seen[u].Add(1)
		})
		if int(calls.Load()) != c.n {
			t.Errorf("n=%d threads=%d: %d calls", c.n, c.threads, calls.Load())
		}
		for u := range seen {
			if seen[u].Load() != 1 {
				t.Errorf("n=%d threads=%d: unit %d ran %d times", c.n, c.threads, u, seen[u].Load())
			}
		}
	}
}
