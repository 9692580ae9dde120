package codegen

import (
	"strconv"
	"strings"

	"github.com/treegen/treegen/codegen/quickscorer"
	"github.com/treegen/treegen/codegen/walk"
)

// LargePackage is the size of generated source, in bytes, from which
// [PackagePlan.Advice] says what can make a package smaller.
const LargePackage = 1_000_000

// tableBackends are the backends that hold trees in tables of thresholds
// and leaves rather than in code, in the order Advice suggests them.
var tableBackends = []string{walk.Name, quickscorer.Name}

// SourceSize returns the size of the source of files, in bytes.
func SourceSize(files []File) int {
	size := 0
	for _, f := range files {
		size += len(f.Data)
	}
	return size
}

// ByteSize writes n bytes in decimal units, rounded to a tenth below 10
// and to a unit above: "812 B", "5.3 kB", "14 MB".
func ByteSize(n int) string {
	if n < 1000 {
		return strconv.Itoa(n) + " B"
	}
	v := float64(n)
	units := []string{"kB", "MB", "GB", "TB", "PB"}
	for _, unit := range units {
		v /= 1000
		switch {
		case v < 9.95:
			return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
		case v < 999.5:
			return strconv.FormatFloat(v, 'f', 0, 64) + " " + unit
		}
	}
	return strconv.FormatFloat(v/1000, 'f', 1, 64) + " EB" // an int holds at most 9.2 EB
}

// Advice says, for a package of size bytes of source planned by p, what
// makes it that large and what can make it smaller: another backend that
// holds the trees in tables and compiles the model, or fewer trees. It is
// "" for a package smaller than [LargePackage]. (In treegen's
// measurements, 200 trees of depth 8 made 3.3 MB of ifelse source that
// built in 12 s into a 5.1 MB binary, and 3.8 MB of walk tables that built
// in 4.5 s into 2.9 MB.)
func (p *PackagePlan) Advice(size int) string {
	if size < LargePackage {
		return ""
	}
	fewer := "fewer trees make it smaller (--iterations N keeps the first N rounds of a boosted model)"
	name := p.Backend.Name()
	var others []string
	for _, t := range tableBackends {
		if t == name {
			return "the tables of " + name + "; " + fewer
		}
		if b, err := LookupBackend(t); err == nil && p.Check(b) == nil {
			others = append(others, t)
		}
	}
	if len(others) == 0 {
		return "the code of " + name + " for every node of every tree, and no backend that holds trees in tables compiles this model; " + fewer
	}
	return "the code of " + name + " for every node of every tree; --backend " + strings.Join(others, " or --backend ") +
		" also compiles this model, holding the trees in tables, which usually builds faster into a smaller binary (treegen bench --backends " +
		name + "," + strings.Join(others, ",") + " compares their speed, build time and source size)"
}
