package data

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Limits on the dense matrix built from a LibSVM file, whose size is not
// bounded by the size of the file: at most maxFeatures columns, and at most
// max(minCellBudget, cellsPerPair × the INDEX:VALUE pairs of the file)
// cells, so that it takes memory in proportion to the file's content.
const (
	maxFeatures   = 1 << 20
	minCellBudget = 1 << 24 // 128 MiB of float64
	cellsPerPair  = 64
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
		maxLine, maxCol int
		// Where the highest index first is, for the error of a matrix too
		// large.
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
				return nil, errorf(in.name, lr.n, start+off, "label %s %s", quoteCell(tok), notANumber(tok))
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
			case k == maxFeatures && maxLine == 0:
				maxLine, maxCol = lr.n, start+off
			}
			if k > top {
				top, topLine, topCol = k, lr.n, start+off
			}
			prev = k
			v, st := parseNumber(vs)
			switch st {
			case cellBad:
				return nil, errorf(in.name, lr.n, start+c+1+off, "value %s of index %d %s", quoteCell(vs), k, notANumber(vs))
			case cellRange:
				return nil, errorf(in.name, lr.n, start+c+1+off, "value %s of index %d is out of range", quoteCell(vs), k)
			}
			idx = append(idx, int32(k))
			val = append(val, v)
		}
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
	if base == 0 && maxLine > 0 {
		msg := "index %d exceeds the limit of %d features in a 0-based file"
		if opts.IndexBase == IndexAuto {
			msg += fmt.Sprintf(" (0-based since line %d has index 0)", zeroLine)
		}
		return nil, errorf(in.name, maxLine, maxCol, msg, maxFeatures, maxFeatures)
	}
	ncols := max(opts.NumFeatures, top+1-base)
	if budget := max(minCellBudget, cellsPerPair*len(idx)); ncols > 0 && rows > budget/ncols {
		msg := fmt.Sprintf("a dense matrix of %d rows × %d columns = %d cells, more than the limit of max(%d, %d × %d INDEX:VALUE pairs) = %d cells: the file is too sparse to be read densely",
			rows, ncols, int64(rows)*int64(ncols), minCellBudget, cellsPerPair, len(idx), budget)
		if ncols > top+1-base {
			return nil, errorf(in.name, 0, 0, "NumFeatures %d makes %s", opts.NumFeatures, msg)
		}
		return nil, errorf(in.name, topLine, topCol, "index %d makes %s", top, msg)
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
