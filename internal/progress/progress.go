package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// New returns the functions that report the steps of a task of total
// steps on w: update takes the 1-based step and the line that describes
// it, done ends the report. On a terminal, update redraws a bar with the
// latest line (see Bar); elsewhere it writes the line of every every-th
// step. done clears the bar and writes the last step's line, unless it was
// written. With quiet, neither writes anything.
func New(w io.Writer, total, every int, quiet bool) (update func(step int, line string), done func()) {
	if quiet {
		return func(int, string) {}, func() {}
	}
	every = max(every, 1)
	last, lastStep := "", 0
	if !IsTerminal(w) {
		return func(step int, line string) {
				last, lastStep = line, step
				if step%every == 0 {
					fmt.Fprintln(w, line)
				}
			}, func() {
				if last != "" && lastStep%every != 0 {
					fmt.Fprintln(w, last)
				}
			}
	}
	bar := &Bar{W: w, Total: total}
	return func(step int, line string) {
			last = line
			bar.Draw(step, line)
		}, func() {
			bar.Clear()
			if last != "" {
				fmt.Fprintln(w, last)
			}
		}
}

// Bar is a progress bar on one terminal line, "[=====>    ] 12/100
// description", redrawn in place at most ten times a second. (A library
// would do, but every module the command imports lands in the go.mod of
// each module that runs it with go tool.)
type Bar struct {
	W     io.Writer
	Total int
	drawn time.Time // when the line was last drawn
	width int       // of the line last drawn, for Clear
}

const (
	barWidth   = 20
	lineWidth  = 120 // the description is cut to fit a common terminal
	redrawRate = 100 * time.Millisecond
)

// Draw shows step of Total with the description, unless the line was
// drawn less than a tenth of a second ago (the last step is always drawn).
func (b *Bar) Draw(step int, desc string) {
	now := time.Now()
	if step < b.Total && now.Sub(b.drawn) < redrawRate {
		return
	}
	b.drawn = now
	filled := 0
	if b.Total > 0 {
		filled = min(barWidth, max(0, step*barWidth/b.Total))
	}
	bar := strings.Repeat("=", filled)
	if filled < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-filled-1)
	}
	line := fmt.Sprintf("[%s] %d/%d %s", bar, step, b.Total, desc)
	if r := []rune(line); len(r) > lineWidth {
		line = string(r[:lineWidth])
	}
	fmt.Fprintf(b.W, "\r%s\x1b[K", line)
	b.width = len(line)
}

// Clear erases the line, if one is drawn.
func (b *Bar) Clear() {
	if b.width > 0 {
		fmt.Fprint(b.W, "\r\x1b[K")
		b.width = 0
	}
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Duration formats d rounded to the millisecond, and a positive d that
// rounds to zero as "<1ms" rather than "0s".
func Duration(d time.Duration) string {
	if d > 0 && d < time.Millisecond/2 {
		return "<1ms"
	}
	return d.Round(time.Millisecond).String()
}
