package data

// Values returns the values Set takes, for the completion of a command
// line flag: "zero" and "missing".
func (a *Absent) Values() []string {
	return []string{AbsentZero.String(), AbsentMissing.String()}
}

// Values returns the values Set takes, for the completion of a command
// line flag: "auto", "1" and "0".
func (b *IndexBase) Values() []string {
	return []string{IndexAuto.String(), IndexOne.String(), IndexZero.String()}
}
