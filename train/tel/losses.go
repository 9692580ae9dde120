package tel

// Losses returns the losses Options.Loss takes, in the order errors list
// them: a fresh slice, which the caller may change.
func Losses() []Loss { return []Loss{Softmax, Logistic, SquaredError} }
