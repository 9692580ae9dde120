package codegen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/treegen/treegen/internal/direxchange"
)

// This file holds how WriteDir changes the directory: replace builds the
// new directory beside the old one and exchanges the two; inPlace, where
// that cannot be done, writes every file beside its final name and renames
// them after. The exchange itself, the lock and the checks that depend on
// the system are internal/direxchange's.

// writeHook, when set, is called before each step of WriteDir that changes
// the file system, with a short description of the step; an error it
// returns fails the step. Tests use it to kill the process, or to inject a
// failure, at every step.
var writeHook func(step string) error

// inPlaceOnly makes WriteDir write in place even where it could exchange
// the directories, for tests of that path.
var inPlaceOnly bool

func hook(step string) error {
	if writeHook == nil {
		return nil
	}
	return writeHook(step)
}

// dirWrite is one WriteDir into an existing directory.
type dirWrite struct {
	dir   string // as the caller named it, for messages
	real  string // absolute, symbolic links resolved
	files []File
	// entries are those of the directory before the write; drop tells the
	// ones that the new directory does not hold: the files that the new
	// ones replace, stale tree files, and the temporary files of an
	// interrupted write in place.
	entries []fs.DirEntry
	drop    map[string]bool
	keep    map[string]bool // the names of files
}

// tempRE matches the names of the temporary files that WriteDir writes
// beside a file NAME: .NAME.tmp123456789 (os.CreateTemp's random digits).
var tempRE = regexp.MustCompile(`^\.(.+)\.tmp[0-9]+$`)

// plan reads the directory and decides what the new one drops.
func (w *dirWrite) plan() error {
	entries, err := os.ReadDir(w.real)
	if err != nil {
		return err
	}
	w.entries = entries
	w.drop = make(map[string]bool, len(w.files))
	w.keep = make(map[string]bool, len(w.files))
	for _, f := range w.files {
		w.drop[f.Name] = true
		w.keep[f.Name] = true
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || w.drop[name] {
			continue
		}
		if m := tempRE.FindStringSubmatch(name); m != nil && (w.keep[m[1]] || m[1] == MainFile || IsTreeFileName(m[1])) {
			w.drop[name] = true
			continue
		}
		if IsTreeFileName(name) {
			generated, err := isGenerated(filepath.Join(w.real, name))
			if err != nil {
				return err
			}
			w.drop[name] = generated
		}
	}
	return nil
}

// unchanged and mixed end the message of an error that left the directory
// as it was, and of one that left files of two runs.
const (
	unchanged = "%s is unchanged"
	mixed     = "%s holds files of two runs of treegen, which do not build together: run treegen gen again"
)

// fail returns the error of writing file name (in the directory) and what
// it left, unchanged or mixed.
func (w *dirWrite) fail(name string, err error, left string) error {
	return fmt.Errorf("cannot write %s: %v ("+left+")", filepath.Join(w.dir, name), unwrapPath(err), w.dir)
}

// inPlace writes every file beside its final name (.NAME.tmpNNN), then
// renames them into place and removes the files that the new package
// drops: a failure while writing leaves the directory unchanged.
func (w *dirWrite) inPlace() error {
	temps := make([]string, len(w.files))
	defer func() {
		for _, tmp := range temps {
			if tmp != "" {
				os.Remove(tmp)
			}
		}
	}()
	for i, f := range w.files {
		tmp, err := writeTemp(w.real, f.Name, 0o644, bytes.NewReader(f.Data))
		if err != nil {
			return w.fail(f.Name, err, unchanged)
		}
		temps[i] = tmp
	}
	for i, f := range w.files {
		err := hook("rename " + f.Name)
		if err == nil {
			err = os.Rename(temps[i], filepath.Join(w.real, f.Name))
		}
		if err != nil {
			left := mixed
			if i == 0 {
				left = unchanged
			}
			return w.fail(f.Name, err, left)
		}
		temps[i] = ""
	}
	for _, e := range w.entries { // sorted by name
		if name := e.Name(); w.drop[name] && !w.keep[name] {
			err := hook("remove " + name)
			if err == nil {
				err = os.Remove(filepath.Join(w.real, name))
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("removing stale %s: %w ("+mixed+")", filepath.Join(w.dir, name), err, w.dir)
			}
		}
	}
	return nil
}

// errCannotReplace says that the directory cannot be replaced as a whole
// here: WriteDir writes in place instead.
var errCannotReplace = errors.New("cannot replace the directory")

// replace builds the new directory beside the old one and exchanges the
// two in one step, then removes the old one. It returns done false, having
// changed nothing, where that cannot be done here.
func (w *dirWrite) replace() (done bool, err error) {
	fi, err := os.Stat(w.real)
	if err != nil {
		return true, err
	}
	parent := filepath.Dir(w.real)
	if inPlaceOnly || parent == w.real || !direxchange.CanReplace(w.real, fi) {
		return false, nil
	}
	err = hook("mkdir")
	var stage string
	if err == nil {
		stage, err = os.MkdirTemp(parent, stagePrefix(w.real)+"*")
	}
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("cannot write %s: %v ("+unchanged+")", w.dir, unwrapPath(err), w.dir)
	}
	if err := w.fill(stage, fi); err != nil {
		if serr := settle(stage, w.real); serr != nil {
			return true, fmt.Errorf("%v; %v", err, serr)
		}
		return !errors.Is(err, errCannotReplace), err
	}
	inCwd := false
	if cwd, err := os.Stat("."); err == nil {
		inCwd = os.SameFile(cwd, fi)
	}
	err = hook("exchange")
	if err == nil {
		err = direxchange.Exchange(stage, w.real)
	}
	if err != nil { // nothing exchanged: a file system without it, a mount point
		if serr := settle(stage, w.real); serr != nil {
			return true, serr
		}
		return false, nil
	}
	syncDir(parent)
	if inCwd {
		os.Chdir(w.real)
	}
	if err := settle(stage, w.real); err != nil {
		return true, fmt.Errorf("the new package is in %s, but %v", w.dir, err)
	}
	return true, nil
}

// chown gives dir the owner and group of fi where they differ (as they do
// when root writes into a user's directory).
func chown(dir string, fi os.FileInfo) error {
	uid, gid, ok := direxchange.Owner(fi)
	got, err := os.Stat(dir)
	if err != nil {
		return err
	}
	hasUID, hasGID, ok2 := direxchange.Owner(got)
	if !ok || !ok2 || (uid == hasUID && gid == hasGID) {
		return nil
	}
	if err := hook("chown"); err != nil {
		return err
	}
	return os.Chown(dir, uid, gid)
}

// lockWait is how long WriteDir waits for another that holds the lock on
// the folder of the directory.
const lockWait = time.Minute

// lockDir takes an exclusive lock on the folder dir, which makes WriteDirs
// beside each other wait for each other, so that none takes another's
// staging folder for one left by an interrupted run; it returns the
// function that releases it, and whether WriteDir may settle the staging
// folders it finds. Where the system cannot lock the folder (a folder it
// cannot read, a file system without locks, a system other than Linux),
// WriteDir goes on and settles them; where another process holds the lock
// for more than lockWait, it goes on and leaves them.
func lockDir(dir string) (unlock func(), settle bool) {
	unlock, busy := direxchange.Lock(dir, lockWait)
	return unlock, !busy
}

// stagePrefix starts the name of the folders beside dir in which WriteDir
// builds the new directory: .NAME.treegen-, followed by digits.
func stagePrefix(dir string) string { return "." + filepath.Base(dir) + ".treegen-" }

// fill builds the new directory in stage, an empty folder beside the old
// one (fi): the new files, hard links to the files that it keeps (copies
// where a link cannot be made), copies of its symbolic links, the same
// owner and permissions; and moves the old directory's other entries
// (folders, pipes) into it, last. It returns errCannotReplace where the
// new directory cannot be the same as the old one.
func (w *dirWrite) fill(stage string, fi os.FileInfo) error {
	if err := chown(stage, fi); err != nil {
		return errCannotReplace
	}
	for _, f := range w.files {
		if err := place(stage, f.Name, 0o644, bytes.NewReader(f.Data)); err != nil {
			return w.fail(f.Name, err, unchanged)
		}
	}
	var moves []string
	for _, e := range w.entries {
		name := e.Name()
		if w.drop[name] {
			continue
		}
		src, dst := filepath.Join(w.real, name), filepath.Join(stage, name)
		var err error
		switch typ := e.Type(); {
		case typ.IsRegular():
			err = linkOrCopy(src, dst)
		case typ&fs.ModeSymlink != 0:
			var target string
			if err = hook("symlink " + name); err == nil {
				if target, err = os.Readlink(src); err == nil {
					err = os.Symlink(target, dst)
				}
			}
		default:
			moves = append(moves, name)
		}
		if errors.Is(err, fs.ErrPermission) {
			return errCannotReplace // in place, WriteDir need not read it
		}
		if err != nil {
			return fmt.Errorf("cannot keep %s in the new directory: %v ("+unchanged+")", src, unwrapPath(err), w.dir)
		}
	}
	err := hook("chmod")
	if err == nil {
		err = os.Chmod(stage, fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	}
	if err != nil {
		return errCannotReplace
	}
	syncDir(stage)
	for _, name := range moves {
		err := hook("move " + name)
		if err == nil {
			err = os.Rename(filepath.Join(w.real, name), filepath.Join(stage, name))
		}
		if err != nil { // a mount point: settle puts back those moved
			return errCannotReplace
		}
	}
	return nil
}

// linkOrCopy makes dst a hard link to the regular file src, or where that
// fails (a file system without links, a file of another user) a copy with
// the same content, permissions and modification time.
func linkOrCopy(src, dst string) error {
	name := filepath.Base(dst)
	if err := hook("link " + name); err != nil {
		return err
	}
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if err := place(filepath.Dir(dst), name, fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky), in); err != nil {
		return err
	}
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}

// place writes the file name into dir from r, beside its final name first.
func place(dir, name string, perm fs.FileMode, r io.Reader) error {
	tmp, err := writeTemp(dir, name, perm, r)
	if err == nil {
		if err = hook("rename " + name); err == nil {
			err = os.Rename(tmp, filepath.Join(dir, name))
		}
		if err != nil {
			os.Remove(tmp)
		}
	}
	return err
}

// writeTemp writes r to a new file .NAME.tmpNNN in dir, with permissions
// perm, synced to disk, and returns its path; on failure it removes it.
func writeTemp(dir, name string, perm fs.FileMode, r io.Reader) (path string, err error) {
	if err := hook("write " + name); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "."+name+".tmp*")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = io.Copy(f, r); err != nil {
		return "", err
	}
	if err = f.Chmod(perm); err != nil {
		return "", err
	}
	if err = f.Sync(); err != nil {
		return "", err
	}
	return f.Name(), f.Close()
}

// syncDir flushes the entries of the folder dir to disk, where the system
// can.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}

// recoverLeftovers settles the folders that interrupted WriteDirs into dir
// left beside it.
func recoverLeftovers(dir string) error {
	parent, prefix := filepath.Dir(dir), stagePrefix(dir)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil // nothing that this run can see, or clean
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() || rest == "" || strings.Trim(rest, "0123456789") != "" {
			continue
		}
		if err := settle(filepath.Join(parent, e.Name()), dir); err != nil {
			return err
		}
	}
	return nil
}

// settle empties and removes stage, a folder beside dir in which WriteDir
// built a new directory: of this run or of an interrupted one, before the
// exchange (it holds the new files, links to the user's files and the
// user's folders moved there) or after it (it is the old directory). An
// entry that dir holds too (the same file, or the same content), a file
// that treegen generated, and a temporary file go; one that dir lacks (a
// folder of the user's) goes back into dir; any other stays in stage, and
// the error names it.
func settle(stage, dir string) error {
	entries, err := os.ReadDir(stage)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var kept []string
	for _, e := range entries {
		name := e.Name()
		src, dst := filepath.Join(stage, name), filepath.Join(dir, name)
		redundant, err := redundant(src, dst)
		if err != nil {
			return err
		}
		_, lerr := os.Lstat(dst)
		switch {
		case redundant:
			if err = hook("remove " + name); err == nil {
				err = os.Remove(src)
			}
		case errors.Is(lerr, fs.ErrNotExist):
			if err = hook("restore " + name); err == nil {
				err = os.Rename(src, dst)
			}
		default:
			kept = append(kept, name)
		}
		if err != nil {
			return err
		}
	}
	if len(kept) > 0 {
		return fmt.Errorf("%s, left by an interrupted treegen gen, holds %s, which differ from those in %s: keep the ones you want and remove %s",
			stage, strings.Join(kept, ", "), dir, stage)
	}
	if err := hook("rmdir"); err != nil {
		return err
	}
	return os.Remove(stage)
}

// redundant reports whether the entry src of a staging folder can go: dst
// is the same file, or a file with the same content, or src is a temporary
// file, a file that treegen generated, or a symbolic link where dst exists
// (a link holds no data: dir has a copy of it, or the generated file that
// replaced it).
func redundant(src, dst string) (bool, error) {
	si, err := os.Lstat(src)
	if err != nil {
		return false, err
	}
	di, derr := os.Lstat(dst)
	if derr == nil && os.SameFile(si, di) {
		return true, nil
	}
	if si.Mode().IsRegular() {
		if tempRE.MatchString(si.Name()) {
			return true, nil
		}
		if generated, err := isGenerated(src); err != nil || generated {
			return generated, err
		}
	}
	switch {
	case derr != nil:
		return false, nil
	case si.Mode()&fs.ModeSymlink != 0:
		return true, nil // copied into dir, or replaced there by a generated file
	case si.Mode().IsRegular() && di.Mode().IsRegular() && si.Size() == di.Size():
		return sameContent(src, dst)
	}
	return false, nil
}

// sameContent reports whether the files a and b hold the same bytes.
func sameContent(a, b string) (bool, error) {
	fa, err := os.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, erra := io.ReadFull(fa, ba)
		nb, errb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		if erra != nil || errb != nil {
			for _, err := range []error{erra, errb} {
				if err != io.EOF && err != io.ErrUnexpectedEOF {
					return false, err
				}
			}
			return true, nil
		}
	}
}

// unwrapPath drops the *os.PathError or *os.LinkError wrapper, whose paths
// (often of temporary files) would only confuse the message.
func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}
