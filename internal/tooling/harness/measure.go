package harness

import (
	"math"
	"time"
)

// MeasureRows runs pass, which predicts n rows, repeatedly and returns the
// best time per row of five rounds of at least budget/5 each. The driver
// program times generated packages with this very function (its source is
// copied into the driver), so that callers can time the interpreter the
// same way.
func MeasureRows(budget time.Duration, n int, pass func()) float64 {
	pass()
	best := math.Inf(1)
	for round := 0; round < 5; round++ {
		start := time.Now()
		passes := 0
		for time.Since(start) < budget/5 || passes == 0 {
			pass()
			passes++
		}
		best = math.Min(best, float64(time.Since(start).Nanoseconds())/float64(passes*n))
	}
	return best
}
