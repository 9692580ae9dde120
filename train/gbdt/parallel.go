package gbdt

import "sync"

// parallel calls fn(c, lo, hi) on chunks c = 0, 1, ... of min(threads, n)
// contiguous chunks [lo, hi) of [0, n) of nearly equal size, concurrently,
// and waits for them; it returns the number of chunks. With one chunk it
// calls fn on the calling goroutine. Callers make every result depend only
// on the index range, never on the chunking, so that the number of
// goroutines never changes a result.
func parallel(n, threads int, fn func(c, lo, hi int)) int {
	chunks := min(threads, n)
	if chunks <= 1 {
		if n > 0 {
			fn(0, 0, n)
		}
		return 1
	}
	var wg sync.WaitGroup
	for c := range chunks {
		lo, hi := c*n/chunks, (c+1)*n/chunks
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(c, lo, hi)
		}()
	}
	wg.Wait()
	return chunks
}
