package latent

// Losses returns the losses Options.Loss takes, in the order errors list
// them: a fresh slice, which the caller may change.
func Losses() []Loss { return []Loss{SquaredError, Logistic, Softmax} }

// Splits returns the splitting functions Options.Split takes, the default
// first: a fresh slice, which the caller may change.
func Splits() []Split { return []Split{Linear, LinearElu} }

// Optimizers returns the optimizers Options.Optimizer takes, the default
// first: a fresh slice, which the caller may change.
func Optimizers() []Optimizer { return []Optimizer{QHAdamOptimizer, AdamOptimizer} }
