//go:build unix

package direxchange

import (
	"os"
	"syscall"
)

// Owner returns the user and group that own the file fi describes; ok is
// false where fi does not say (a FileInfo not made by os.Stat).
func Owner(fi os.FileInfo) (uid, gid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}
