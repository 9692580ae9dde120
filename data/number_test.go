package data

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestIsDecimal: isDecimal accepts what strconv.ParseFloat reads (in range
// or not) except hexadecimal and underscores, checked on random strings of
// the characters that matter.
func TestIsDecimal(t *testing.T) {
	const alphabet = "0123456789.eE+-_xXpPinfatyINFATY "
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	for range 300000 {
		b.Reset()
		for range rng.IntN(9) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		_, err := strconv.ParseFloat(s, 64)
		want := (err == nil || errors.Is(err, strconv.ErrRange)) && !strings.ContainsAny(s, "_xX")
		if got := isDecimal(s); got != want {
			t.Fatalf("isDecimal(%q) = %v, want %v (ParseFloat: %v)", s, got, want, err)
		}
		if got := isDecimal([]byte(s)); got != want {
			t.Fatalf("isDecimal([]byte(%q)) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"1e999", "-Infinity", "infinity", "NaN", "nAn", "1e+5", "0.5e-3", "9999999999999999999999"} {
		if !isDecimal(s) {
			t.Errorf("isDecimal(%q) = false", s)
		}
	}
}
