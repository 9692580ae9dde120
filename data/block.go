package data

// Block is a block of consecutive rows of a data file, as a [Stream]
// delivers them: the features of Rows rows, row-major like [Dataset].X,
// and their targets when the stream reads a target column.
type Block struct {
	X    []float64 // Rows*Cols features, row-major; NaN marks a missing value
	Rows int

	// Y holds the target of every row when the stream reads a target
	// column, nil otherwise: the number the cell holds, or NaN when the
	// cell is text (a class label), which YText then holds.
	Y []float64
	// YText holds, when some target cell of the block is text rather than
	// a number, the text of every such cell (trimmed) at its row, and ""
	// at the rows whose target is a number; it is nil when every target
	// of the block is a number.
	YText []string

	// Line is the 1-based line of the first row in a text file, or the
	// 1-based number of the first row in a Parquet file.
	Line int

	// Out and Scores are the caller's: a [Stream] leaves them alone and
	// keeps them with the block, so that the buffers of results computed
	// by [Stream].Prepare are reused from block to block.
	Out    []byte
	Scores []float64

	// What Read takes from a block of a text file: the compact values of
	// X in kind, when coded (Options.Compact), with which kinds hold
	// every value of it; and the bytes of the file the block was parsed
	// from.
	xc                       []uint32
	kind                     compactKind
	fitsDecimal, fitsFloat32 bool
	coded                    bool
	inBytes                  int
}
