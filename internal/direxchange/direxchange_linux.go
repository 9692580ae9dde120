package direxchange

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Exchange exchanges the directories a and b in one step: each name then
// holds what the other held. A file system without the exchange answers
// EINVAL; the error is an [*os.LinkError].
func Exchange(a, b string) error {
	if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
		return &os.LinkError{Op: "renameat2", Old: a, New: b, Err: err}
	}
	return nil
}

// CanReplace reports whether the directory dir, which fi describes, may be
// replaced as a whole by [Exchange]: dir is writable (a read-only folder
// stays so), and no process that this one descends from works in it.
func CanReplace(dir string, fi os.FileInfo) bool {
	return unix.Access(dir, unix.W_OK) == nil && !ancestorWorksIn(fi)
}

// ancestorWorksIn reports whether a process that this one descends from
// has dir as its working directory: the shell after cd DIR, make, go
// generate run from that folder. The exchange would leave it in the old,
// removed directory, where ls shows nothing and go build fails. (go
// generate run from elsewhere starts its command in the package's folder,
// but is not there itself.)
func ancestorWorksIn(dir os.FileInfo) bool {
	pid := os.Getppid()
	for i := 0; i < 100 && pid > 0; i++ {
		proc := "/proc/" + strconv.Itoa(pid)
		if fi, err := os.Stat(proc + "/cwd"); err == nil && os.SameFile(fi, dir) {
			return true
		}
		stat, err := os.ReadFile(proc + "/stat") // PID (COMM) STATE PPID ...
		if err != nil {
			return false
		}
		end := bytes.LastIndexByte(stat, ')')
		if end < 0 {
			return false
		}
		fields := strings.Fields(string(stat[end+1:]))
		if len(fields) < 2 {
			return false
		}
		pid, _ = strconv.Atoi(fields[1])
	}
	return false
}

// Lock takes an exclusive lock (flock) on the folder dir, which makes
// processes that replace the same directory wait for each other, and
// returns the function that releases it. It waits up to wait for another
// process that holds the lock; busy reports that one held it all that
// time, and the caller goes on without the lock. Where the system cannot
// lock the folder (a folder it cannot read, a file system without locks),
// Lock returns at once, with busy false.
func Lock(dir string, wait time.Duration) (unlock func(), busy bool) {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}, false
	}
	const poll = 10 * time.Millisecond
	for ; ; wait -= poll {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			return func() { f.Close() }, false
		}
		if wait <= 0 {
			f.Close()
			return func() {}, true
		}
		time.Sleep(poll)
	}
}
