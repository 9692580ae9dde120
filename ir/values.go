package ir

// Links returns the links a Model takes, in the order errors list them: a
// fresh slice, which the caller may change.
func Links() []Link { return []Link{Identity, Sigmoid, Softmax, Exp} }

// Precisions returns the precisions, the default first: a fresh slice,
// which the caller may change.
func Precisions() []Precision { return []Precision{Float64, Float32} }

// Values returns the values Set takes, for the completion of a command
// line flag: the names of Precisions.
func (p *Precision) Values() []string {
	var names []string
	for _, v := range Precisions() {
		names = append(names, string(v))
	}
	return names
}
