// Package linkcheck holds no code: its test checks that the relative links
// of README.md and docs/*.md lead to files of the repository, and that no
// Markdown file of the repository points to the folder of shared material
// beside the checkout, which a clone does not have.
package linkcheck
