package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// tourStep is one command of the README's tour, with the output the README
// shows for it (checked only for commands written after a "$ " prompt).
type tourStep struct {
	line    int    // line of README.md where the command starts
	command string // as the shell reads it (continuation lines joined)
	output  string // expected output; "" with check false: not checked
	check   bool
	// The output's lines are lines[outFrom:outTo] of README.md, counted
	// from 0 (outFrom == outTo: the README shows no output).
	outFrom, outTo int
}

var updateTour = flag.Bool("update", false, "rewrite the outputs shown in README.md's tour with what its commands print")

// readTour returns the commands of the section of README.md headed
// "## A five-minute tour", in order: every line of a ```sh block, and every
// "$ " line of a plain ``` block with the lines after it as its output.
func readTour(t *testing.T, path string) []tourStep {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		steps        []tourStep
		inTour       bool
		fence        string // "" outside a block, else the block's language ("" plain is "-")
		cur          *tourStep
		continuation bool
	)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			inTour = line == "## A five-minute tour"
			continue
		case !inTour:
			continue
		case strings.HasPrefix(line, "```"):
			if fence == "" {
				fence = strings.TrimPrefix(line, "```")
				if fence == "" {
					fence = "-"
				}
			} else {
				fence, cur, continuation = "", nil, false
			}
			continue
		case fence != "sh" && fence != "-":
			continue
		}
		if continuation {
			cur.command += "\n" + line
			cur.outFrom, cur.outTo = n, n
			continuation = strings.HasSuffix(line, `\`)
			continue
		}
		cmd, prompt := strings.CutPrefix(line, "$ ")
		switch {
		case fence == "sh":
			if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			steps = append(steps, tourStep{line: n, command: line})
		case prompt:
			steps = append(steps, tourStep{line: n, command: cmd, check: true, outFrom: n, outTo: n})
		case cur != nil:
			cur.output += line + "\n"
			cur.outTo = n
			continue
		default:
			t.Fatalf("%s:%d: output %q before any $ command", path, n, line)
		}
		cur = &steps[len(steps)-1]
		continuation = strings.HasSuffix(line, `\`)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return steps
}

// durations matches the times commands print, which vary from run to run.
var durations = regexp.MustCompile(`<?\b[0-9]+(\.[0-9]+)?(ns|µs|us|ms|s)\b`) // "<1ms" too

func normalise(s string) string {
	return durations.ReplaceAllString(strings.TrimRight(s, "\n"), "<time>")
}

// TestReadmeTour runs the README's five-minute tour exactly as written, in
// one shell, from the repository root, with treegen installed by the tour's
// own go install into a temporary GOBIN: every command must succeed and
// print what the README shows (up to the times it reports). With -update,
// once every command has succeeded, it rewrites the outputs the README
// shows with what the commands printed:
//
//	go test ./cmd/treegen -run TestReadmeTour -update
func TestReadmeTour(t *testing.T) {
	if testing.Short() {
		t.Skip("installs treegen and runs the tour")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	steps := readTour(t, filepath.Join(root, "README.md"))
	if len(steps) < 10 {
		t.Fatalf("README.md: found %d commands in the tour; is the heading \"## A five-minute tour\" still there?", len(steps))
	}
	// Each command's output is framed by markers, so that one shell runs
	// the tour (a cd holds for the commands after it) and each output is
	// compared on its own.
	var script strings.Builder
	script.WriteString("set -e -o pipefail\n")
	for i, s := range steps {
		fmt.Fprintf(&script, "echo '@@step %d'\n%s\n", i, s.command)
	}
	script.WriteString("echo '@@end'\n")
	bin := t.TempDir()
	cmd := exec.Command(bash, "-c", script.String())
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	outputs := map[int]string{}
	step := -1
	for _, line := range strings.SplitAfter(string(out), "\n") {
		var i int
		if _, err := fmt.Sscanf(line, "@@step %d\n", &i); err == nil {
			step = i
			continue
		}
		if line == "@@end\n" {
			step = len(steps)
			continue
		}
		if step >= 0 {
			outputs[step] += line
		}
	}
	if err != nil || step != len(steps) {
		last := steps[max(step, 0)]
		t.Fatalf("README.md:%d: %s failed: %v\n%s", last.line, last.command, err, outputs[step])
	}
	if *updateTour {
		if err := rewriteTour(filepath.Join(root, "README.md"), steps, outputs); err != nil {
			t.Fatal(err)
		}
		return
	}
	for i, s := range steps {
		if !s.check {
			continue
		}
		if got, want := normalise(outputs[i]), normalise(s.output); got != want {
			t.Errorf("README.md:%d: $ %s\nprints:\n%s\nthe README shows:\n%s", s.line, s.command, got, want)
		}
	}
}

// rewriteTour replaces, in the file at path, the output shown after every
// "$ " command of steps with what it printed, outputs[i] for steps[i].
func rewriteTour(path string, steps []tourStep, outputs map[int]string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(string(data), "\n")
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if !s.check {
			continue
		}
		out := strings.TrimRight(outputs[i], "\n")
		var shown []string
		if out != "" {
			shown = strings.SplitAfter(out+"\n", "\n")
			shown = shown[:len(shown)-1]
		}
		lines = slices.Replace(lines, s.outFrom, s.outTo, shown...)
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
}

// TestRewriteTour reads a small tour and rewrites its outputs: an output
// replaced by a longer one, a command continued on a second line, a
// command that printed nothing, and one whose output the tour did not show.
func TestRewriteTour(t *testing.T) {
	readme := "# x\n\n## A five-minute tour\n\n```sh\ncd /tmp\n```\n\n```\n" +
		"$ one\nold 1\n" +
		"$ two \\\n    --flag\nold 2a\nold 2b\n" +
		"$ three\nold 3\n" +
		"$ four\n" +
		"```\n\n## After\n\n```\n$ not in the tour\nkept\n```\n"
	want := "# x\n\n## A five-minute tour\n\n```sh\ncd /tmp\n```\n\n```\n" +
		"$ one\nnew 1\nnew 1b\n" +
		"$ two \\\n    --flag\nnew 2\n" +
		"$ three\n" +
		"$ four\nnew 4\n" +
		"```\n\n## After\n\n```\n$ not in the tour\nkept\n```\n"
	path := filepath.Join(t.TempDir(), "README.md")
	if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := readTour(t, path)
	if len(steps) != 5 {
		t.Fatalf("read %d steps, want 5", len(steps))
	}
	if steps[2].command != "two \\\n    --flag" || steps[2].output != "old 2a\nold 2b\n" {
		t.Fatalf("step 2: command %q, output %q", steps[2].command, steps[2].output)
	}
	outputs := map[int]string{0: "", 1: "new 1\nnew 1b\n", 2: "new 2\n", 3: "", 4: "new 4\n"}
	if err := rewriteTour(path, steps, outputs); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", got, want)
	}
}
