//go:build !linux

package direxchange_test

import (
	"errors"
	"os"
	"testing"

	"github.com/treegen/treegen/internal/direxchange"
)

func TestUnsupported(t *testing.T) {
	dir := t.TempDir()
	if err := direxchange.Exchange(dir, t.TempDir()); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Exchange = %v, want errors.ErrUnsupported", err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if direxchange.CanReplace(dir, fi) {
		t.Error("CanReplace accepts a folder where there is no exchange")
	}
}
