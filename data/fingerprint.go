package data

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"path/filepath"
	"strconv"
)

// Fingerprint describes d for a model's provenance: "rows", "features",
// "sha256" (of the little-endian float64 bits of X, then of Y, then, when
// Labels is set, of every label as its little-endian uint64 length and its
// bytes) and, when d came from a file, "source" (the file's base name).
// Trainers record it so that a model names the exact data it was trained
// on. A data set with numeric targets hashes as it did before Labels
// existed; one with text labels hashes its labels too, so that files that
// differ only in the names of their classes differ in their fingerprints.
func (d *Dataset) Fingerprint() map[string]string {
	h := sha256.New()
	buf := make([]byte, 0, 8*1024)
	add := func(v float64) {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		if len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	for _, v := range d.X {
		add(v)
	}
	for _, v := range d.XC { // as float64: the same hash as expanded
		add(d.xcKind.decode(v))
	}
	for _, v := range d.Y {
		add(v)
	}
	if d.Labels != nil {
		for _, l := range d.Labels {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(len(l)))
			buf = append(buf, l...)
			if len(buf) >= cap(buf)/2 {
				h.Write(buf)
				buf = buf[:0]
			}
		}
	}
	h.Write(buf)
	fp := map[string]string{
		"rows":     strconv.Itoa(d.Rows),
		"features": strconv.Itoa(d.Cols),
		"sha256":   hex.EncodeToString(h.Sum(nil)),
	}
	if d.Source != "" {
		fp["source"] = filepath.Base(d.Source)
	}
	return fp
}
