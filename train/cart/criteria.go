package cart

// Criteria returns the criteria Options.Criterion takes, the default
// first: a fresh slice, which the caller may change.
func Criteria() []Criterion { return []Criterion{Gini, Entropy, MSE} }
