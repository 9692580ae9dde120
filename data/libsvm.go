package data

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Limits on the dense matrix built from a LibSVM file, whose size is not
// bounded by the size of the file.
const (
	maxFeatures = 1 << 20
	maxCells    = 1 << 28
)

func readLibSVM(in *input, opts Options) (*Dataset, error) {
	if opts.NumFeatures < 0 {
		return nil, errorf(in.name, 0, 0, "NumFeatures is negative (%d)", opts.NumFeatures)
	}
	if opts.NumFeatures > maxFeatures {
		return nil, errorf(in.name, 0, 0, "NumFeatures %d exceeds the limit of %d features", opts.NumFeatures, maxFeatures)
	}
	maxIndex := maxFeatures // the highest index allowed
	if opts.IndexBase == IndexZero {
		maxIndex--
	}
	var (
		y       []float64
		rowEnd  []int     // rowEnd[r] is the end of row r's entries in idx and val
		idx     []int32   // feature index of each entry, as written
		val     []float64 // value of each entry
		top     = -1      // highest index seen
		lr      = &lineReader{br: in.br}
		sawLine bool // a line was read
		rows    int
		// Where the first index 0 and the first index maxFeatures are, for
		// the errors of a file that turns out 0-based or 1-based.
		zeroLine        int
		topLine, topCol int
	)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		sawLine = true
		off := 1 // converts 0-based offsets in line to 1-based columns
		if lr.n == 1 {
			off += in.bom
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		pos := 0
		tok, start := nextToken(line, &pos)
		if tok == nil {
			continue
		}
		if opts.DropTarget {
			if bytes.IndexByte(tok, ':') >= 0 {
				pos = start // no label: the token is the first pair
			}
		} else {
			label, st := parseNumber(tok)
			switch {
			case st == cellBad:
				return nil, errorf(in.name, lr.n, start+off, "label %s is not a number", quoteCell(tok))
			case st == cellRange:
				return nil, errorf(in.name, lr.n, start+off, "label %s is out of range", quoteCell(tok))
			case math.IsNaN(label):
				return nil, errorf(in.name, lr.n, start+off, "missing label %s", quoteCell(tok))
			}
			y = append(y, label)
		}
		prev := -1
		for {
			tok, start := nextToken(line, &pos)
			if tok == nil {
				break
			}
			c := bytes.IndexByte(tok, ':')
			if c <= 0 || c == len(tok)-1 {
				return nil, errorf(in.name, lr.n, start+off, "expected INDEX:VALUE, got %s", quoteCell(tok))
			}
			is, vs := tok[:c], tok[c+1:]
			if string(is) == "qid" {
				continue
			}
			k, err := strconv.Atoi(string(is))
			switch {
			case err != nil && err.(*strconv.NumError).Err == strconv.ErrRange && k > 0:
				return nil, errorf(in.name, lr.n, start+off, "index %s exceeds the limit of %d features", is, maxFeatures)
			case err != nil:
				return nil, errorf(in.name, lr.n, start+off, "bad index %s in %s", quoteCell(is), quoteCell(tok))
			case k == 0 && opts.IndexBase == IndexOne:
				return nil, errorf(in.name, lr.n, start+off, "index 0 in a 1-based file: indices start at 1")
			case k < 0:
				return nil, errorf(in.name, lr.n, start+off, "index %d is out of range: indices start at %s", k, indexStart(opts.IndexBase))
			case k > maxIndex:
				return nil, errorf(in.name, lr.n, start+off, "index %d exceeds the limit of %d features", k, maxFeatures)
			case k <= prev:
				return nil, errorf(in.name, lr.n, start+off, "index %d follows index %d: indices must be strictly increasing", k, prev)
			}
			switch {
			case k == 0 && zeroLine == 0:
				zeroLine = lr.n
			case k == maxFeatures && topLine == 0:
				topLine, topCol = lr.n, start+off
			}
			prev = k
			v, st := parseNumber(vs)
			switch st {
			case cellBad:
				return nil, errorf(in.name, lr.n, start+c+1+off, "value %s of index %d is not a number", quoteCell(vs), k)
			case cellRange:
				return nil, errorf(in.name, lr.n, start+c+1+off, "value %s of index %d is out of range", quoteCell(vs), k)
			}
			idx = append(idx, int32(k))
			val = append(val, v)
		}
		top = max(top, prev)
		rows++
		rowEnd = append(rowEnd, len(idx))
	}
	if lr.err != nil {
		return nil, in.readErr(lr.err)
	}
	if !sawLine {
		return nil, errorf(in.name, 0, 0, "empty file")
	}
	if rows == 0 {
		return nil, errorf(in.name, 0, 0, "no data rows")
	}
	base := 1
	if opts.IndexBase == IndexZero || (opts.IndexBase == IndexAuto && zeroLine > 0) {
		base = 0
	}
	if base == 0 && topLine > 0 {
		msg := "index %d exceeds the limit of %d features in a 0-based file"
		if opts.IndexBase == IndexAuto {
			msg += fmt.Sprintf(" (0-based since line %d has index 0)", zeroLine)
		}
		return nil, errorf(in.name, topLine, topCol, msg, maxFeatures, maxFeatures)
	}
	ncols := max(opts.NumFeatures, top+1-base)
	if ncols > 0 && rows > maxCells/ncols {
		return nil, errorf(in.name, 0, 0, "%d rows of %d features exceed the limit of %d cells", rows, ncols, maxCells)
	}
	x := make([]float64, rows*ncols)
	if opts.Absent == AbsentMissing {
		nan := math.NaN()
		for i := range x {
			x[i] = nan
		}
	}
	begin := 0
	for r, end := range rowEnd {
		row := x[r*ncols : (r+1)*ncols]
		for e := begin; e < end; e++ {
			row[int(idx[e])-base] = val[e]
		}
		begin = end
	}
	features := make([]string, ncols)
	for i := range features {
		features[i] = "f" + strconv.Itoa(i+base)
	}
	return &Dataset{Features: features, X: x, Y: y, Rows: rows, Cols: ncols}, nil
}

// indexStart says where the indices of a LibSVM file start.
func indexStart(b IndexBase) string {
	switch b {
	case IndexOne:
		return "1"
	case IndexZero:
		return "0"
	}
	return "0 or 1"
}
