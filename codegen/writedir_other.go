//go:build !linux

package codegen

import (
	"errors"
	"os"
)

// On systems other than Linux, WriteDir writes in place: the exchange of
// two directories in one step is Linux's renameat2 (macOS's renamex_np
// with RENAME_SWAP would do, and is left for later).

func exchange(a, b string) error { return errors.ErrUnsupported }

func canExchange(dir string, fi os.FileInfo) bool { return false }

func chown(dir string, fi os.FileInfo) error { return nil }

func lockDir(dir string) (unlock func(), settle bool) { return func() {}, true }
