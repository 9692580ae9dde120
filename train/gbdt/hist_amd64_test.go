//go:build amd64 && !purego

package gbdt

import (
	"bytes"
	"testing"

	"github.com/treegen/treegen/ir"
)

// TestAVXModel checks that training with the AVX histogram builder and
// with the portable one gives the same model, byte for byte.
func TestAVXModel(t *testing.T) {
	if !hasAVX {
		t.Skip("the CPU has no AVX")
	}
	defer func() { hasAVX = true }()
	d := randomData(5, 6000, 11, 4, 0.1)
	var models [2][]byte
	for i, avx := range []bool{true, false} {
		hasAVX = avx
		m, err := Train(d, nil, Options{Objective: Softmax, Rounds: 5, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		if models[i], err = ir.Marshal(m); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(models[0], models[1]) {
		t.Error("the AVX histograms give another model than the portable ones")
	}
}
