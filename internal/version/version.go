// Package version holds treegen's version, written into generated files and
// model provenance.
package version

// Version is the treegen release. Generated code records it in its header.
const Version = "0.1.0"
