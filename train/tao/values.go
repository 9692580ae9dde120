package tao

// Kinds returns the models Options.Kind takes, in the order errors list
// them: a fresh slice, which the caller may change.
func Kinds() []Kind { return []Kind{ST, AST, Softmax} }

// Inits returns the initialisations Options.Init takes, in the order
// errors list them: a fresh slice, which the caller may change.
func Inits() []Init { return []Init{Median, KMeans} }
