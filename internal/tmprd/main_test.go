package rd

import (
	"testing"
	"time"

	"github.com/treegen/treegen/data"
)

func TestRead(t *testing.T) {
	start := time.Now()
	d, err := data.ReadFile("/tmp/m1.csv", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	t.Logf("%d rows in %v: %.0f MB/s", d.Rows, el, 510/el.Seconds())
}
