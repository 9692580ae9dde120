//go:build !linux

package direxchange

import (
	"errors"
	"os"
	"time"
)

// Exchange answers [errors.ErrUnsupported]: this system has no exchange of
// two directories in one step.
func Exchange(a, b string) error {
	return &os.LinkError{Op: "exchange", Old: a, New: b, Err: errors.ErrUnsupported}
}

// CanReplace reports false: a directory is not replaced as a whole here.
func CanReplace(dir string, fi os.FileInfo) bool { return false }

// Lock takes no lock here: it returns at once, with a function that does
// nothing and busy false.
func Lock(dir string, wait time.Duration) (unlock func(), busy bool) { return func() {}, false }
