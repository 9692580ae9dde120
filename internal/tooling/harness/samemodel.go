package harness

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/treegen/treegen/ir"
)

// SameModel checks, before any row is run, that the package p was
// generated from the model m read from the file path: its ModelSHA256 must
// be m's hash (ir.Hash). A package without the constant is not refused.
// The error names both models and the command that regenerates p; when
// the package came from a file of the same name, it adds that a package
// generated from the first rounds of a model is checked against the same
// rounds.
func (p *Package) SameModel(m *ir.Model, path string) error {
	if p.ModelSHA256 == "" {
		return nil
	}
	hash, err := ir.Hash(m)
	if err != nil {
		return err
	}
	if hash == p.ModelSHA256 {
		return nil
	}
	from, hint := "another model", ""
	if p.Source != "" {
		from = p.Source
		if p.Source == filepath.Base(path) {
			hint = " (a package generated with --iterations N is checked with the same --iterations N)"
		}
	}
	return errors.New(fmt.Sprintf("package %s in %s was generated from %s (model sha256 %.12s...), not from %s (sha256 %.12s...): check it against the model it came from, or regenerate it with: treegen gen --model %s --out %s",
		p.Name, p.Dir, from, p.ModelSHA256, path, hash, path, p.Dir) + hint)
}
