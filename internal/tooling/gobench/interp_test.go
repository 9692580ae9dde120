package gobench_test

import (
	"strings"
	"testing"
	"time"

	"github.com/treegen/treegen/internal/tooling/gobench"
	"github.com/treegen/treegen/ir"
)

var sink []byte

func TestLoop(t *testing.T) {
	tests := []struct {
		name   string
		count  int
		pass   func()
		allocs uint64
	}{
		{"no allocation", 2, func() {}, 0},
		{"one allocation a pass", 1, func() { sink = make([]byte, 64) }, 1},
		{"three allocations a pass", 3, func() {
			for range 3 {
				sink = make([]byte, 64)
			}
		}, 3},
		{"count 0 runs once", 0, func() {}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			passes := 0
			got := gobench.Loop(tc.count, 4, 5*time.Millisecond, func() { passes++; tc.pass() })
			if got.AllocsPerPass != tc.allocs || got.NsPerRow < 0 || passes < 2 {
				t.Errorf("%+v after %d passes; want %d allocations a pass", got, passes, tc.allocs)
			}
		})
	}
}

func TestInterpreter(t *testing.T) {
	for _, prec := range []ir.Precision{ir.Float64, ir.Float32} {
		res, err := gobench.Interpreter(stumps, rows, prec, gobench.Options{BenchTime: 5 * time.Millisecond, Count: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Rows != len(rows) || !(res.NsPerRow > 0) || !(res.NsPerRowBatch > 0) || res.AllocsPerRow() != 0 || res.Instructions != "portable" {
			t.Errorf("%s: %+v", prec, res)
		}
	}
	tests := []struct {
		name string
		rows [][]float64
		err  string
	}{
		{"no rows", nil, "no rows to time the interpreter on"},
		{"short row", [][]float64{{1, 2}, {1}}, "row 2 has 1 values, the model 2 features"},
	}
	for _, tc := range tests {
		_, err := gobench.Interpreter(stumps, tc.rows, ir.Float64, gobench.Options{BenchTime: time.Millisecond})
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		}
	}
}
