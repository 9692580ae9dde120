package tel

import (
	"fmt"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
)

func TestInferLoss(t *testing.T) {
	tests := []struct {
		name, targets string
		want          Loss
		err           string
	}{
		{"two values", "0 1 1 0", Logistic, ""},
		{"two labels", "yes no", Logistic, ""},
		{"integers", "0 1 2 3", Softmax, ""},
		{"labels", "a b c", Softmax, ""},
		{"fractions", "0.5 1 2", SquaredError, ""},
		{"one value", "3 3 3", "", "t.tsv: the target has a single value (3) in all 3 rows: nothing to learn (--loss squarederror fits that constant, if that is what you want)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := "x\ttarget\n"
			for _, v := range strings.Fields(tc.targets) {
				text += "1\t" + v + "\n"
			}
			d, err := data.Read(strings.NewReader(text), "t.tsv", data.Options{Target: "target", RequireTarget: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := InferLoss(d)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("%q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func ExampleInferLoss() {
	d, err := data.Read(strings.NewReader("x\ttarget\n1\tcat\n2\tdog\n3\tcat\n"), "pets.tsv", data.Options{Target: "target"})
	if err != nil {
		fmt.Println(err)
		return
	}
	loss, err := InferLoss(d)
	fmt.Println(loss, err)
	// Output:
	// logistic <nil>
}
