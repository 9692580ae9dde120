// Package direxchange replaces a directory as a whole: it exchanges two
// directories in one step, so that a reader sees the old one or the new
// one and never a mix, and locks a directory against another process that
// replaces it at the same time.
//
// The exchange is Linux's renameat2 with RENAME_EXCHANGE (Linux 3.15, and
// a file system that has it). Elsewhere [Exchange] answers
// [errors.ErrUnsupported] and [CanReplace] false, and a caller writes the
// directory's files one by one instead; macOS's renamex_np with
// RENAME_SWAP would do, and is left for later.
//
// The package depends on no other package of the module: codegen.WriteDir
// is what builds the new directory and calls it.
package direxchange
