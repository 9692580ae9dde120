package data

import (
	"bytes"
	"io"
	goruntime "runtime"
	"sync"
)

// chunkSize is how many bytes of a text file a chunk holds when
// [Options].ChunkBytes is 0. Tests make it small to put chunk edges
// everywhere.
var chunkSize = 1 << 20

// chunk is a run of whole records of a text file and, once parsed, its rows.
type chunk struct {
	buf    []byte // whole records: lines, or CSV records with their quoted line breaks
	line   int    // line number of buf's first line
	quoted bool   // CSV: buf holds a quote, so encoding/csv parses it
	done   chan struct{}

	block Block
	err   error // the first error in buf, or the read error that ended the file

	// Where the targets are, for the reader that keeps every cell's text:
	// the cell of every row (a slice of buf) and its line.
	tcells [][]byte
	tlines []int32
	text   bool // some target cell is not a number

	// TSV: the first line that is not blank (0 if none) and the first of
	// the blank lines that end buf (0 if buf does not end with one), for
	// the "empty line" error across chunks.
	firstData, trailBlank int

	// LibSVM: the sparse rows.
	svm svmChunk
}

// splitter cuts a text stream into chunks at record boundaries.
type splitter struct {
	src   io.Reader
	in    *input
	csv   bool // records end at line breaks outside quotes
	size  int  // bytes read into a chunk at a time
	carry []byte
	line  int
	eof   bool
}

// fill reads the next chunk into c. It returns false at the end of the
// input; a read error is set in c.err (the partial chunk is dropped: the
// error explains whatever is wrong with it), after which the splitter must
// not be used.
func (sp *splitter) fill(c *chunk) bool {
	if sp.eof && len(sp.carry) == 0 {
		return false
	}
	buf := c.buf[:0]
	if cap(buf) < sp.size+len(sp.carry) {
		buf = make([]byte, 0, sp.size+len(sp.carry))
	}
	buf = append(buf, sp.carry...)
	end := 0
	for {
		if !sp.eof {
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			n, err := readFull(sp.src, buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			switch err {
			case nil:
			case io.EOF:
				sp.eof = true
			default:
				c.buf, c.err = buf[:0], sp.in.readErr(err)
				return true
			}
		}
		if sp.eof {
			end = len(buf)
			break
		}
		if end, c.quoted = sp.boundary(buf); end > 0 {
			break
		}
	}
	if end == 0 {
		c.buf = buf
		return false
	}
	if sp.eof {
		c.quoted = sp.csv && bytes.IndexByte(buf, '"') >= 0
	}
	sp.carry = append(sp.carry[:0], buf[end:]...)
	c.buf = buf[:end]
	c.line = sp.line
	sp.line += bytes.Count(c.buf, newline)
	return true
}

var newline = []byte{'\n'}

// readFull reads into p until it is full or r fails. Unlike io.ReadFull it
// returns io.EOF at the end of the input however much it read, so that an
// io.ErrUnexpectedEOF is the reader's own (truncated gzip data).
func readFull(r io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := r.Read(p[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// boundary returns the end of the last whole record in buf (0 if there is
// none) and whether buf holds a quote. In CSV a line break inside quotes is
// part of a field: a quote toggles whether one is inside quotes, which an
// escaped quote ("") toggles twice, and which encoding/csv would report as
// an error before any line break that this takes for the wrong kind.
func (sp *splitter) boundary(buf []byte) (int, bool) {
	if !sp.csv || bytes.IndexByte(buf, '"') < 0 {
		return bytes.LastIndexByte(buf, '\n') + 1, false
	}
	in, end := false, 0
	for i, c := range buf {
		switch c {
		case '"':
			in = !in
		case '\n':
			if !in {
				end = i + 1
			}
		}
	}
	return end, true
}

// pipeline parses the chunks of a splitter on several goroutines and hands
// them back in file order.
type pipeline struct {
	sp      *splitter
	parse   func(*chunk)
	ordered chan *chunk
	jobs    chan *chunk
	free    chan *chunk
	quit    chan struct{}
	wg      sync.WaitGroup
	once    sync.Once
}

// maxThreads is how many goroutines parse; 0 means GOMAXPROCS.
var maxThreads = 0

// startPipeline starts parsing the chunks of sp with parse, on up to
// GOMAXPROCS goroutines, with first, if not nil, as the first chunk.
func startPipeline(sp *splitter, first *chunk, parse func(*chunk)) *pipeline {
	threads := maxThreads
	if threads <= 0 {
		threads = goruntime.GOMAXPROCS(0)
	}
	inFlight := 2*threads + 2
	p := &pipeline{
		sp:      sp,
		parse:   parse,
		ordered: make(chan *chunk, inFlight),
		jobs:    make(chan *chunk, inFlight),
		free:    make(chan *chunk, inFlight),
		quit:    make(chan struct{}),
	}
	for range inFlight {
		p.free <- &chunk{}
	}
	p.wg.Add(threads + 1)
	for range threads {
		go p.work()
	}
	go p.split(first)
	return p
}

func (p *pipeline) split(first *chunk) {
	defer p.wg.Done()
	defer close(p.jobs)
	defer close(p.ordered)
	if first != nil {
		<-p.free
		p.send(first)
	}
	for {
		var c *chunk
		select {
		case c = <-p.free:
		case <-p.quit:
			return
		}
		if !p.sp.fill(c) {
			return
		}
		if !p.send(c) {
			return
		}
	}
}

// send hands c to the workers (or straight to the reader when it holds a
// read error) and to the reader.
func (p *pipeline) send(c *chunk) bool {
	c.done = make(chan struct{})
	ok := c.err == nil // read before the chunk is handed over
	if ok {
		p.jobs <- c // never blocks: no more chunks than its capacity exist
	} else {
		close(c.done)
	}
	p.ordered <- c
	return ok
}

func (p *pipeline) work() {
	defer p.wg.Done()
	for c := range p.jobs {
		select {
		case <-p.quit:
		default:
			p.parse(c)
		}
		close(c.done)
	}
}

// next returns the next chunk in file order, parsed, or nil at the end.
func (p *pipeline) next() *chunk {
	c, ok := <-p.ordered
	if !ok {
		return nil
	}
	<-c.done
	return c
}

// release returns a chunk that next returned for reuse.
func (p *pipeline) release(c *chunk) {
	c.err = nil
	c.tcells, c.tlines = c.tcells[:0], c.tlines[:0]
	c.text = false
	c.firstData, c.trailBlank = 0, 0
	c.block.X, c.block.Y, c.block.YText = c.block.X[:0], c.block.Y[:0], c.block.YText[:0]
	c.block.Rows, c.block.Line = 0, 0
	c.svm.reset()
	c.block.xc, c.block.fitsDecimal, c.block.fitsFloat32, c.block.coded = c.block.xc[:0], false, false, false
	p.free <- c
}

// advance releases *cur, the chunk a reader holds, if any, and makes the
// next parsed chunk in file order the one it holds; it returns it, or nil
// after the last.
func (p *pipeline) advance(cur **chunk) *chunk {
	if *cur != nil {
		p.release(*cur)
	}
	*cur = p.next()
	return *cur
}

// stop ends the pipeline early and waits for its goroutines.
func (p *pipeline) stop() {
	p.once.Do(func() {
		close(p.quit)
		for c := range p.ordered {
			<-c.done
		}
		p.wg.Wait()
	})
}
