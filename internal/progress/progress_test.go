package progress

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestBar: the bar redraws its one line in place, at most ten times a
// second, and always draws the last step.
func TestBar(t *testing.T) {
	var b bytes.Buffer
	s := &Bar{W: &b, Total: 4}
	s.Draw(1, "round 1")
	s.Draw(2, "round 2") // too soon: skipped
	s.drawn = time.Now().Add(-time.Second)
	s.Draw(3, "round 3")
	s.Draw(4, "round 4") // the last: drawn
	s.Clear()
	s.Clear() // nothing drawn: nothing to clear
	want := "\r[=====>              ] 1/4 round 1\x1b[K" +
		"\r[===============>    ] 3/4 round 3\x1b[K" +
		"\r[====================] 4/4 round 4\x1b[K" +
		"\r\x1b[K"
	if b.String() != want {
		t.Errorf("drew %q\nwant %q", b.String(), want)
	}
}

// TestNew: off a terminal, every every-th line and then the last, and
// no bar; quiet writes nothing.
func TestNew(t *testing.T) {
	tests := []struct {
		name         string
		steps, every int
		quiet        bool
		want         string
	}{
		{"every 2 of 5", 5, 2, false, "step 2\nstep 4\nstep 5\n"},
		{"every 1", 3, 1, false, "step 1\nstep 2\nstep 3\n"},
		{"last is a multiple", 4, 2, false, "step 2\nstep 4\n"},
		{"every 0 is every 1", 2, 0, false, "step 1\nstep 2\n"},
		{"quiet", 5, 1, true, ""},
		{"no steps", 0, 1, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			update, done := New(&b, tc.steps, tc.every, tc.quiet)
			for i := 1; i <= tc.steps; i++ {
				update(i, fmt.Sprintf("step %d", i))
			}
			done()
			if b.String() != tc.want {
				t.Errorf("wrote %q, want %q", b.String(), tc.want)
			}
		})
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) || IsTerminal(&bytes.Buffer{}) {
		t.Error("a file or a buffer is a terminal")
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {time.Microsecond, "<1ms"}, {499 * time.Microsecond, "<1ms"}, {500 * time.Microsecond, "1ms"},
		{1234567 * time.Microsecond, "1.235s"}, {-time.Second, "-1s"},
	}
	for _, tc := range tests {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
