package direxchange_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/treegen/treegen/internal/direxchange"
)

func TestOwner(t *testing.T) {
	fi, err := os.Stat(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	uid, gid, ok := direxchange.Owner(fi)
	switch runtime.GOOS {
	case "windows", "plan9", "js", "wasip1":
		if ok {
			t.Errorf("Owner = %d, %d, true on %s", uid, gid, runtime.GOOS)
		}
		return
	}
	if !ok || uid != os.Geteuid() {
		t.Errorf("Owner of a new folder = %d, %d, %v; want the user %d", uid, gid, ok, os.Geteuid())
	}
}

// TestLockUnreadable checks that a folder that cannot be opened is not
// busy: the caller goes on at once.
func TestLockUnreadable(t *testing.T) {
	start := time.Now()
	unlock, busy := direxchange.Lock(filepath.Join(t.TempDir(), "none"), time.Minute)
	unlock()
	if busy || time.Since(start) > 10*time.Second {
		t.Errorf("Lock of a missing folder: busy %v after %v", busy, time.Since(start))
	}
}
