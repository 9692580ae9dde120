// Package parallel runs units of work on several goroutines so that the
// result never depends on how many there are or how they are scheduled.
package parallel

import (
	"sync"
	"sync/atomic"
)

// For calls fn(u) for every unit of work u = 0 .. n-1, on up to threads
// goroutines, the calling one among them. The units are handed out one at
// a time to whichever goroutine is free, so that a goroutine that the
// operating system keeps waiting does not hold up the others. Callers make
// the result of a unit depend only on u, never on the goroutine that
// computes it, so that neither the number of goroutines nor their
// scheduling changes a result.
func For(n, threads int, fn func(u int)) {
	if threads <= 1 || n <= 1 {
		for u := range n {
			fn(u)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for {
			u := int(next.Add(1) - 1)
			if u >= n {
				return
			}
			fn(u)
		}
	}
	var wg sync.WaitGroup
	for range min(threads, n) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}
