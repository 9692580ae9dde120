package cart

import (
	"flag"
	"fmt"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/optflag"
)

// RegisterFlags defines the flags of "treegen train cart" on fs, bound to
// the fields of o: --criterion, --max-depth, --min-samples-split,
// --min-samples-leaf and --min-impurity-decrease. It first fills in the
// defaults of the fields left at zero, so that every flag's default is
// explicit.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	if o.Criterion == "" {
		o.Criterion = Gini
	}
	if o.MinSamplesSplit == 0 {
		o.MinSamplesSplit = 2
	}
	if o.MinSamplesLeaf == 0 {
		o.MinSamplesLeaf = 1
	}
	s := optflag.New(fs)
	s.Enum((*string)(&o.Criterion), "criterion", "split criterion: gini, entropy (classification) or mse (regression)", optflag.Strings(Criteria()))
	s.Int(&o.MaxDepth, "max-depth", fmt.Sprintf("maximum depth, 1 to %d (0: unlimited)", ir.MaxDepth))
	s.Int(&o.MinSamplesSplit, "min-samples-split", "minimum rows in a node to split it")
	s.Int(&o.MinSamplesLeaf, "min-samples-leaf", "minimum rows in each child of a split")
	s.Float(&o.MinImpurityDecrease, "min-impurity-decrease", "minimum weighted impurity decrease of a split")
}

// Validate refuses the option values a command line may not give, naming
// the flag: it reads every field as RegisterFlags defines it, so a zero
// that Train would read as its default is refused where the flag's help
// gives 0 no meaning ("--min-samples-split must be at least 2, got 0").
func (o *Options) Validate() error {
	return optflag.First(
		optflag.OneOf("criterion", o.Criterion, Criteria()...),
		optflag.Between("max-depth", o.MaxDepth, 0, ir.MaxDepth),
		optflag.AtLeast("min-samples-split", o.MinSamplesSplit, 2),
		optflag.AtLeast("min-samples-leaf", o.MinSamplesLeaf, 1),
		optflag.NonNegative("min-impurity-decrease", o.MinImpurityDecrease),
	)
}
