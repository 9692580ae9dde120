package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
}

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
			steps = append(steps, tourStep{line: n, command: cmd, check: true})
		case cur != nil:
			cur.output += line + "\n"
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
// print what the README shows (up to the times it reports).
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
	for i, s := range steps {
		if !s.check {
			continue
		}
		if got, want := normalise(outputs[i]), normalise(s.output); got != want {
			t.Errorf("README.md:%d: $ %s\nprints:\n%s\nthe README shows:\n%s", s.line, s.command, got, want)
		}
	}
}
