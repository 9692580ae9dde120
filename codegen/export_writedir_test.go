package codegen

// SetWriteHook makes WriteDir call f before each step that changes the file
// system (an error from f fails the step) and returns the function that
// removes it: tests kill the process, or inject a failure, at every step.
func SetWriteHook(f func(step string) error) (restore func()) {
	old := writeHook
	writeHook = f
	return func() { writeHook = old }
}

// SetInPlaceOnly makes WriteDir write in place even where it could exchange
// the directories, and returns the function that restores it.
func SetInPlaceOnly(on bool) (restore func()) {
	old := inPlaceOnly
	inPlaceOnly = on
	return func() { inPlaceOnly = old }
}

// GuardPrefix is guardPrefix, for tests.
const GuardPrefix = guardPrefix
