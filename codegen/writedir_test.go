package codegen_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/treegen/treegen/codegen"
)

// The tests of this file check what WriteDir leaves in a directory that
// holds a generated package and the user's own files when it fails at
// any step, and what it does with the user's files; writedir_linux_test.go
// kills it at every step.

// userFiles are the user's own entries of the package directory: a doc
// comment, a text file, a hand-written file named like a tree file, a
// folder with data and a symbolic link ("-> TARGET").
var userFiles = map[string]string{
	"doc.go":            "// Package many is generated.\npackage many\n",
	"notes.txt":         "notes\n",
	"trees042.go":       "package many\n\n// written by hand\n",
	"testdata/rows.csv": "a,b,c\n1,2,3\n",
	"link.txt":          "-> notes.txt",
}

// generated returns the files of a package of n trees, one tree per file
// (so that a package has many files).
func generated(t *testing.T, n int) []codegen.File {
	t.Helper()
	defer codegen.SetFileLimits(1, 1)()
	files, err := codegen.Generate(manyTrees(n), codegen.Options{Package: "many"})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// setup makes dir (mode 0750) holding the package files and the user's
// files.
func setup(t *testing.T, dir string, files []codegen.File) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	for name, data := range userFiles {
		path := filepath.Join(dir, name)
		var err error
		if target, ok := strings.CutPrefix(data, "-> "); ok {
			err = os.Symlink(target, path)
		} else {
			err = os.WriteFile(path, []byte(data), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := codegen.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
}

// snapshot describes everything under dir, dir included: each path with
// its kind, permissions and content (a link's target).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			snap[rel] = "-> " + target
			return err
		case d.IsDir():
			snap[rel] = info.Mode().String()
		default:
			data, err := os.ReadFile(path)
			snap[rel] = info.Mode().String() + " " + string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// differences lists the paths where two snapshots differ.
func differences(a, b map[string]string) []string {
	var diff []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			diff = append(diff, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			diff = append(diff, k)
		}
	}
	sort.Strings(diff)
	return diff
}

// leftovers returns what lies beside dir in its parent.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != filepath.Base(dir) {
			names = append(names, e.Name())
		}
	}
	return names
}

var (
	tempName = regexp.MustCompile(`^\..*\.tmp[0-9]+$`)
	guardDef = regexp.MustCompile(`\nconst (` + codegen.GuardPrefix + `[0-9a-f]+) = true\n`)
	guardRef = regexp.MustCompile(`\nconst _ = (` + codegen.GuardPrefix + `[0-9a-f]+)\n`)
	addCall  = regexp.MustCompile(`\baddTrees[0-9]+\(`)
	addDef   = regexp.MustCompile(`\nfunc (addTrees[0-9]+)\(`)
)

// unbuildable reports whether the Go files of snap refer to a guard that
// their main file does not define, or the main file calls a function
// addTreesNNN that no file defines: files of two runs, which do not build.
func unbuildable(snap map[string]string) bool {
	def := guardDef.FindStringSubmatch(snap[codegen.MainFile])
	defined := map[string]bool{}
	for name, content := range snap {
		if strings.Contains(name, "/") {
			continue
		}
		if ref := guardRef.FindStringSubmatch(content); ref != nil && (def == nil || ref[1] != def[1]) {
			return true
		}
		for _, m := range addDef.FindAllStringSubmatch(content, -1) {
			defined[m[1]+"("] = true
		}
	}
	for _, call := range addCall.FindAllString(snap[codegen.MainFile], -1) {
		if !defined[call] {
			return true
		}
	}
	return false
}

// classify says what dir holds after WriteDir of package new over package
// old (snapshots) was interrupted or failed: "old" or "new", byte for
// byte; "moving": the old package whose user's folder lies in a staging
// folder beside dir, moved there just before the exchange; or, in place
// only, "mixed": files of both runs, which do not build. Temporary files
// (hidden) count only in place, where the next run removes them. Anything
// else fails the test.
func classify(t *testing.T, dir string, old, new map[string]string, inPlace bool) string {
	t.Helper()
	got := snapshot(t, dir)
	for name := range got {
		if tempName.MatchString(name) {
			if !inPlace {
				t.Fatalf("temporary file %s in %s", name, dir)
			}
			delete(got, name)
		}
	}
	switch {
	case len(differences(got, old)) == 0:
		return "old"
	case len(differences(got, new)) == 0:
		return "new"
	}
	diff := differences(got, old)
	if !inPlace {
		for _, name := range diff {
			if name != "testdata" && !strings.HasPrefix(name, "testdata/") {
				t.Fatalf("%s holds neither package: differs from the old one in %v, from the new one in %v", dir, diff, differences(got, new))
			}
		}
		for _, stage := range leftovers(t, dir) {
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), stage, "testdata", "rows.csv")); err == nil {
				return "moving"
			}
		}
		t.Fatalf("%s lost testdata, which no staging folder holds", dir)
	}
	for _, name := range diff {
		if !strings.HasPrefix(old[name], "-rw-r--r-- // Code generated by treegen") && !strings.HasPrefix(got[name], "-rw-r--r-- // Code generated by treegen") {
			t.Fatalf("%s: the user's %s changed", dir, name)
		}
	}
	if !unbuildable(got) {
		t.Fatalf("%s mixes files of two runs that would build: differs from the old one in %v, from the new one in %v", dir, diff, differences(got, new))
	}
	return "mixed"
}

// settled checks that dir holds the package new and nothing beside it.
func settled(t *testing.T, dir string, new map[string]string) {
	t.Helper()
	if diff := differences(snapshot(t, dir), new); len(diff) > 0 {
		t.Fatalf("%s differs from the new package in %v", dir, diff)
	}
	if left := leftovers(t, dir); len(left) > 0 {
		t.Fatalf("left beside %s: %v", dir, left)
	}
}

// states returns the snapshots of a directory set up with the package of
// from trees and then written the package of to trees: before and after.
func states(t *testing.T, from, to []codegen.File) (old, new map[string]string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "many")
	setup(t, dir, from)
	old = snapshot(t, dir)
	if err := codegen.WriteDir(dir, to); err != nil {
		t.Fatal(err)
	}
	return old, snapshot(t, dir)
}

// modes runs f with WriteDir exchanging directories (where it can) and
// writing in place.
func modes(t *testing.T, f func(t *testing.T, inPlace bool)) {
	for _, inPlace := range []bool{false, true} {
		name := "exchange"
		if inPlace {
			name = "inplace"
		}
		t.Run(name, func(t *testing.T) {
			if !inPlace && runtime.GOOS != "linux" {
				t.Skip("WriteDir exchanges directories on Linux only")
			}
			defer codegen.SetInPlaceOnly(inPlace)()
			f(t, inPlace)
		})
	}
}

// TestWriteDirFailures makes every step of WriteDir fail in turn (as a full
// disk would: ENOSPC), from a package of 2 tree files to one of 5 and back:
// the error says what the directory holds, the old package (unchanged) or
// the new one (a failure after the exchange, or one that makes WriteDir
// write in place), or, in place only, files of both that do not build (a
// failure while renaming); the next WriteDir leaves the new package and
// nothing else.
func TestWriteDirFailures(t *testing.T) {
	small, big := generated(t, 2), generated(t, 5)
	modes(t, func(t *testing.T, inPlace bool) {
		for _, tc := range []struct{ from, to []codegen.File }{{small, big}, {big, small}} {
			old, new := states(t, tc.from, tc.to)
			seen := map[string]int{}
			for k := 0; ; k++ {
				dir := filepath.Join(t.TempDir(), "many")
				setup(t, dir, tc.from)
				step, n := "", 0
				restore := codegen.SetWriteHook(func(s string) error {
					n++
					if n-1 == k {
						step = s
						return fmt.Errorf("injected: %w", syscall.ENOSPC)
					}
					return nil
				})
				err := codegen.WriteDir(dir, tc.to)
				restore()
				if step == "" { // past the last step
					if err != nil {
						t.Fatal(err)
					}
					break
				}
				state := classify(t, dir, old, new, inPlace)
				seen[state]++
				msg := fmt.Sprint(err)
				switch {
				case state == "old" && !strings.Contains(msg, dir+" is unchanged"),
					state == "mixed" && !strings.Contains(msg, dir+" holds files of two runs of treegen, which do not build together: run treegen gen again"),
					state == "new" && err != nil && !strings.Contains(msg, "the new package is in "+dir+", but"),
					state == "moving":
					t.Errorf("failure at step %d (%s): %s, error %v", k, step, state, err)
				}
				if err == nil && state != "new" {
					t.Errorf("failure at step %d (%s) left %s but no error", k, step, state)
				}
				if err := codegen.WriteDir(dir, tc.to); err != nil {
					t.Fatalf("after a failure at step %d (%s): %v", k, step, err)
				}
				settled(t, dir, new)
			}
			t.Logf("%d files to %d: %v", len(tc.from), len(tc.to), seen)
			if seen["old"] == 0 || (!inPlace && seen["new"] == 0) || inPlace != (seen["mixed"] > 0) {
				t.Errorf("states after a failure: %v", seen)
			}
		}
	})
}

// TestWriteDirUserFiles checks, both ways of writing, that WriteDir keeps
// the user's files (the same files: hard links where it exchanges the
// directories), the permissions of the directory, a symbolic link to it,
// removes stale tree files (of this version and of earlier ones), replaces
// a symbolic link named like a generated file, and refuses to overwrite a
// file that treegen did not generate, writing nothing.
func TestWriteDirUserFiles(t *testing.T) {
	big, small := generated(t, 7), generated(t, 3)
	modes(t, func(t *testing.T, inPlace bool) {
		real := filepath.Join(t.TempDir(), "many")
		setup(t, real, big)
		if err := os.Chmod(real, 0o751|fs.ModeSetgid); err != nil {
			t.Fatal(err)
		}
		old := "// Code generated by treegen from m.json (sha256 00). DO NOT EDIT.\n\npackage many\n"
		if err := os.WriteFile(filepath.Join(real, "trees_386.go"), []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(t.TempDir(), "link")
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, real)
		doc, err := os.Stat(filepath.Join(real, "doc.go"))
		if err != nil {
			t.Fatal(err)
		}
		if err := codegen.WriteDir(link, small); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link to the directory is no longer one: %v, %v", fi, err)
		}
		after := snapshot(t, real)
		want := map[string]bool{}
		for _, f := range small {
			want[f.Name] = true
			if after[f.Name] != "-rw-r--r-- "+string(f.Data) {
				t.Errorf("%s: not written", f.Name)
			}
		}
		for _, name := range differences(before, after) {
			if !want[name] && (codegen.IsTreeFileName(name) || name == codegen.MainFile) && after[name] != "" {
				t.Errorf("stale %s was not removed", name)
			}
			if !want[name] && !codegen.IsTreeFileName(name) {
				t.Errorf("%s changed: %q, was %q", name, after[name], before[name])
			}
		}
		if after["trees042.go"] != before["trees042.go"] || after["trees_386.go"] != "" {
			t.Errorf("hand-written trees042.go: %q; generated trees_386.go of an earlier version: %q", after["trees042.go"], after["trees_386.go"])
		}
		if fi, err := os.Stat(filepath.Join(real, "doc.go")); err != nil || !os.SameFile(fi, doc) {
			t.Errorf("doc.go is not the same file any more")
		}
		if left := leftovers(t, real); len(left) > 0 {
			t.Errorf("left beside the directory: %v", left)
		}

		// A symbolic link to a generated file is replaced like the file.
		main := filepath.Join(real, codegen.MainFile)
		if err := os.Rename(main, main+".orig"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(codegen.MainFile+".orig", main); err != nil {
			t.Fatal(err)
		}
		if err := codegen.WriteDir(real, small); err != nil {
			t.Fatal(err)
		}
		if got := snapshot(t, real)[codegen.MainFile]; got != "-rw-r--r-- "+string(small[0].Data) {
			t.Errorf("a link named %s: %.40q", codegen.MainFile, got)
		}

		// A hand-written file of the same name is never overwritten.
		if err := os.WriteFile(filepath.Join(real, "trees005.go"), []byte("package many\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before = snapshot(t, real)
		err = codegen.WriteDir(real, big)
		if path := filepath.Join(real, "trees005.go"); err == nil || err.Error() != "refusing to overwrite "+path+": it was not generated by treegen" {
			t.Errorf("overwriting a hand-written file: %v", err)
		}
		if diff := differences(before, snapshot(t, real)); len(diff) > 0 || len(leftovers(t, real)) > 0 {
			t.Errorf("a refused WriteDir changed %v, left %v", diff, leftovers(t, real))
		}
	})
}

// TestWriteDirLeftovers checks that WriteDir settles the staging folders
// that interrupted runs left beside the directory: it removes the files
// that the directory holds too or that treegen generated, puts back what
// the directory lacks (the user's folder, moved just before an exchange
// that did not happen), and keeps, naming them, files that differ from
// the directory's, while folders of other names stay untouched.
func TestWriteDirLeftovers(t *testing.T) {
	files := generated(t, 3)
	parent := t.TempDir()
	dir := filepath.Join(parent, "many")
	setup(t, dir, files)
	want := snapshot(t, dir)
	stage := filepath.Join(parent, ".many.treegen-123")
	moved := filepath.Join(dir, "testdata")
	if err := os.Mkdir(stage, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(moved, filepath.Join(stage, "testdata")); err != nil {
		t.Fatal(err)
	}
	other := generated(t, 5) // of another run: predict.go, trees000.go, ...
	for name, data := range map[string][]byte{
		codegen.MainFile:       other[0].Data,
		"trees004.go":          other[5].Data,
		".trees001.go.tmp4242": []byte("// Code gen"), // cut short
		"notes.txt":            []byte(userFiles["notes.txt"]),
	} {
		if err := os.WriteFile(filepath.Join(stage, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(dir, "doc.go"), filepath.Join(stage, "doc.go")); err != nil {
		t.Fatal(err)
	}
	others := []string{".many.treegen-12.bak", ".many.treegen-x", ".other.treegen-1", "many.treegen-1"}
	for _, name := range others {
		if err := os.Mkdir(filepath.Join(parent, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := codegen.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	if diff := differences(snapshot(t, dir), want); len(diff) > 0 {
		t.Errorf("after settling a staging folder: %v differ", diff)
	}
	if left := leftovers(t, dir); strings.Join(left, " ") != strings.Join(others, " ") {
		t.Errorf("beside the directory: %v, want %v", left, others)
	}

	// A file that differs from the directory's stays, and WriteDir says so.
	if err := os.Mkdir(stage, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stage, "notes.txt"), []byte("newer notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := codegen.WriteDir(dir, files)
	wantErr := stage + ", left by an interrupted treegen gen, holds notes.txt, which differ from those in " + dir + ": keep the ones you want and remove " + stage
	if err == nil || err.Error() != wantErr {
		t.Errorf("a staging folder with a file of its own: %v\nwant %s", err, wantErr)
	}
	if _, err := os.Stat(filepath.Join(stage, "notes.txt")); err != nil {
		t.Error(err)
	}
}

// TestWriteDirConcurrent runs WriteDirs of two packages into one directory
// at the same time: they take turns, and the directory ends holding one
// of the two packages, with nothing beside it.
func TestWriteDirConcurrent(t *testing.T) {
	small, big := generated(t, 2), generated(t, 5)
	old, new := states(t, small, big)
	dir := filepath.Join(t.TempDir(), "many")
	setup(t, dir, small)
	errs := make(chan error)
	for i := range 8 {
		go func() { errs <- codegen.WriteDir(dir, [][]codegen.File{small, big}[i%2]) }()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if state := classify(t, dir, old, new, false); state != "old" && state != "new" {
		t.Errorf("after concurrent writes: %s", state)
	}
	if left := leftovers(t, dir); len(left) > 0 {
		t.Errorf("left beside the directory: %v", left)
	}
}
