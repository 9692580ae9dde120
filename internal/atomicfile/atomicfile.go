// Package atomicfile writes files so that readers see either the old content
// or the complete new content, never a half-written file: the data goes to a
// temporary file in the same directory, which is synced and then renamed over
// the destination. A failed write leaves the destination untouched. A link
// is written through, and a pipe or a device is written in place, never
// replaced (see Write).
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically with the given permissions.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write calls fill with a writer on a temporary file beside path and, if fill
// and every file operation succeed, renames the temporary file to path. On any
// error the temporary file is removed and path is left as it was.
//
// What is at path decides how it is written, and nothing there is ever
// replaced by something else:
//   - a regular file, or nothing: atomically, as above;
//   - a symbolic link: the file it leads to (after every link of the chain,
//     which may not exist yet) is written atomically; the link stays;
//   - a named pipe or a device (/dev/stdout, /dev/null): written through,
//     as a shell redirection would, not atomically (such a target has no
//     old content to keep); an error writing it is returned;
//   - a directory or a socket: refused.
func Write(path string, perm os.FileMode, fill func(io.Writer) error) (err error) {
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if fi, statErr := os.Stat(target); statErr == nil {
		switch mode := fi.Mode(); {
		case mode.IsDir():
			return fmt.Errorf("cannot write %s: it is a directory", path)
		case mode&os.ModeSocket != 0:
			return fmt.Errorf("cannot write %s: it is a socket", path)
		case !mode.IsRegular():
			return writeThrough(path, target, fill)
		}
	}
	dir := filepath.Dir(target)
	if fi, statErr := os.Stat(dir); statErr != nil {
		return fmt.Errorf("cannot write %s: directory %s: %w", path, dir, unwrapPath(statErr))
	} else if !fi.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	path, display := target, path
	defer func() {
		if err != nil && display != path {
			err = fmt.Errorf("%w (through the link %s)", err, display)
		}
	}()
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = fill(f); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	return nil
}

// maxLinks bounds a chain of symbolic links, as the kernel does.
const maxLinks = 40

// resolve follows the symbolic links at path, one by one, and returns the
// path of the first thing that is not a link, which may not exist.
func resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", unwrapPath(err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("more than %d symbolic links in a chain", maxLinks)
}

// writeThrough writes to the pipe or device target (named path by the
// user) in place.
func writeThrough(path, target string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	return nil
}

// unwrapPath drops the *os.PathError wrapper, whose path (often the
// temporary file) would only confuse the message.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
