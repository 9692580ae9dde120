package codegen_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
)

func TestCheckDir(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string // "" for no error
	}{
		{"missing", nil, ""},
		{"empty", map[string]string{}, ""},
		{"same", map[string]string{"a.go": "package p\n", "a_test.go": "package p_test\n"}, ""},
		{"other", map[string]string{"main.go": "package main\n"}, "holds package main (main.go): generating package p there would put two packages in one directory and break the build"},
		{"not built here", map[string]string{"x.go": "//go:build ignore\n\npackage main\n"}, ""},
		{"not Go", map[string]string{"notes.go": "hello\n", "README": "package main\n"}, ""},
	} {
		dir := filepath.Join(t.TempDir(), "out")
		if tc.files != nil {
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		err := codegen.CheckDir(dir, "p")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || err.Error() != dir+" "+tc.want):
			t.Errorf("%s: got %v, want %s %s", tc.name, err, dir, tc.want)
		}
		var other *codegen.OtherPackageError
		if tc.want != "" && !errors.As(err, &other) {
			t.Errorf("%s: %T is not an *OtherPackageError", tc.name, err)
		}
	}
}

func TestMakeDir(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, want string // want: "" for none
	}{
		{"existing", root, ""},
		{"new", filepath.Join(root, "new"), ""},
		{"a file", file, "output " + file + " is not a directory"},
		{"no parent", filepath.Join(root, "a", "b"), "output directory " + filepath.Join(root, "a", "b") + " cannot be created: " + filepath.Join(root, "a") + " does not exist"},
		{"parent a file", filepath.Join(file, "b"), "cannot be created: " + file + " does not exist"},
	} {
		err := codegen.MakeDir(tc.dir)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		case tc.want == "":
			if fi, err := os.Stat(tc.dir); err != nil || !fi.IsDir() {
				t.Errorf("%s: %s is no directory after MakeDir", tc.name, tc.dir)
			}
		}
	}
}
