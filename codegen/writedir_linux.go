package codegen

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// sysRenameat2 is the number of the renameat2 system call (Linux 3.15) on
// this architecture, as golang.org/x/sys/unix v0.47.0 lists them; 0 where
// it is not known. The syscall package lacks it on amd64, and x/sys would
// be a new requirement of every module that runs treegen with go tool.
var sysRenameat2 = map[string]uintptr{
	"386": 353, "amd64": 316, "arm": 382, "arm64": 276, "loong64": 276,
	"mips": 4351, "mipsle": 4351, "mips64": 5311, "mips64le": 5311,
	"ppc64": 357, "ppc64le": 357, "riscv64": 276, "s390x": 347,
}[runtime.GOARCH]

// renameExchange is renameat2's flag RENAME_EXCHANGE.
const renameExchange = 0x2

// exchange exchanges the directories a and b in one step: renameat2 with
// RENAME_EXCHANGE. File systems without it answer EINVAL.
func exchange(a, b string) error {
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return err
	}
	cwd := -100 // AT_FDCWD: paths relative to the working directory
	_, _, errno := syscall.Syscall6(sysRenameat2,
		uintptr(cwd), uintptr(unsafe.Pointer(pa)), uintptr(cwd), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	if errno != 0 {
		return &os.LinkError{Op: "renameat2", Old: a, New: b, Err: errno}
	}
	return nil
}

// canExchange reports whether WriteDir may try to replace dir (fi) as a
// whole: the system call is known, dir is writable (a read-only folder
// stays so), and no process that this one descends from works in it.
func canExchange(dir string, fi os.FileInfo) bool {
	const wOK = 2
	return sysRenameat2 != 0 && syscall.Access(dir, wOK) == nil && !ancestorWorksIn(fi)
}

// ancestorWorksIn reports whether a process that this one descends from
// has dir as its working directory: the shell after cd DIR, make, go
// generate run from that folder. The exchange would leave it in the old,
// removed directory, where ls shows nothing and go build fails. (go
// generate run from elsewhere starts treegen in the package's folder, but
// is not there itself.)
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

// chown gives dir the owner and group of fi where they differ (as they do
// when root writes into a user's directory).
func chown(dir string, fi os.FileInfo) error {
	want, ok1 := fi.Sys().(*syscall.Stat_t)
	got, err := os.Stat(dir)
	if err != nil {
		return err
	}
	have, ok2 := got.Sys().(*syscall.Stat_t)
	if !ok1 || !ok2 || (want.Uid == have.Uid && want.Gid == have.Gid) {
		return nil
	}
	if err := hook("chown"); err != nil {
		return err
	}
	return os.Chown(dir, int(want.Uid), int(want.Gid))
}

// lockDir takes an exclusive lock on the folder dir (flock), which makes
// WriteDirs beside each other wait for each other, so that none takes
// another's staging folder for one left by an interrupted run; it returns
// the function that releases it, and whether WriteDir may settle the
// staging folders it finds. Where the system cannot lock the folder (a
// folder it cannot read, a file system without locks), WriteDir goes on
// and settles them; where another process holds the lock for more than a
// minute, it goes on and leaves them.
func lockDir(dir string) (unlock func(), settle bool) {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}, true
	}
	for wait := time.Minute; ; wait -= 10 * time.Millisecond {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
			return func() { f.Close() }, true
		}
		if wait <= 0 {
			return func() { f.Close() }, false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
