package emit

import "fmt"

// TreeRange names trees first to last in a doc comment of generated code:
// "trees 3 to 5", or "tree 3" when first == last.
func TreeRange(first, last int) string {
	if first == last {
		return fmt.Sprintf("tree %d", first)
	}
	return fmt.Sprintf("trees %d to %d", first, last)
}
