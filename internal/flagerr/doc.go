// Package flagerr words the errors of command-line flags in one line that
// names the flag: Suggest finds the flags an unknown name may have meant,
// and Invalid says why a value is not one of its flag's type, without the
// strconv errors underneath. It knows the flags by name and type only, so
// that it serves any flag parser.
package flagerr
