package direxchange_test

import (
	"fmt"
	"os"
	"time"

	"github.com/treegen/treegen/internal/direxchange"
)

// A writer locks the folder of the directory it replaces, replaces it as a
// whole where it can, and writes its files one by one where it cannot.
func ExampleLock() {
	parent, err := os.MkdirTemp("", "direxchange")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(parent)
	unlock, busy := direxchange.Lock(parent, time.Minute)
	defer unlock()
	fmt.Println("busy:", busy)
	// Output:
	// busy: false
}
