package flagerr_test

import (
	"fmt"

	"github.com/treegen/treegen/internal/flagerr"
)

func ExampleSuggest() {
	fmt.Println(flagerr.Suggest("--max-dept", []string{"model", "max-depth", "min-leaf"}, 0))
	// Output: [max-depth]
}

func ExampleInvalid() {
	fmt.Println(flagerr.Invalid("--trees", "int", "1e3", nil))
	fmt.Println(flagerr.Invalid("--lr", "float64", "fast", nil))
	// Output:
	// --trees: 1e3 is not written as an integer: write 1000
	// --lr: "fast" is not a number
}
