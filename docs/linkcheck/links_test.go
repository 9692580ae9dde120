package linkcheck

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the repository's root, seen from this package's folder.
const root = "../.."

var (
	// inlineLink matches [text](target) and ![alt](target), with an
	// optional title after the target.
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// refLink matches a reference definition, [label]: target.
	refLink = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	// codeSpan matches inline code, whose brackets are not links.
	codeSpan = regexp.MustCompile("`+[^`\n]*`+")
)

// links returns the targets of the links of a Markdown text, leaving out
// fenced code blocks and inline code, with the line of each.
func links(text string) (targets []string, lines []int) {
	fence := ""
	for n, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence == "" && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			fence = trimmed[:3]
			continue
		}
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue // an indented code block, or a continuation that holds no link of ours
		}
		line = codeSpan.ReplaceAllString(line, "")
		for _, re := range []*regexp.Regexp{inlineLink, refLink} {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				targets = append(targets, m[1])
				lines = append(lines, n+1)
			}
		}
	}
	return targets, lines
}

// relative reports whether target is a link into the repository: not a
// URL with a scheme, not an anchor of the page itself.
func relative(target string) bool {
	if strings.HasPrefix(target, "#") {
		return false
	}
	u, err := url.Parse(target)
	return err != nil || u.Scheme == ""
}

// TestLinks checks that every relative link of README.md and docs/*.md
// leads to a file or folder of the repository.
func TestLinks(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{filepath.Join(root, "README.md")}, docs...)
	if len(files) < 10 {
		t.Fatalf("found %d Markdown files in README.md and docs/, want the README and the docs", len(files))
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, file)
		targets, lines := links(string(text))
		for i, target := range targets {
			if !relative(target) {
				continue
			}
			checked++
			path, _, _ := strings.Cut(target, "#")
			if p, err := url.PathUnescape(path); err == nil {
				path = p
			}
			full, err := filepath.Abs(filepath.Join(filepath.Dir(file), filepath.FromSlash(path)))
			if err != nil {
				t.Fatal(err)
			}
			if full != abs && !strings.HasPrefix(full, abs+string(filepath.Separator)) {
				t.Errorf("%s:%d: link %q leads out of the repository", name, lines[i], target)
				continue
			}
			if _, err := os.Stat(full); err != nil {
				t.Errorf("%s:%d: link %q leads to no file of the repository", name, lines[i], target)
			}
		}
	}
	if checked == 0 {
		t.Error("no relative link found: is the link pattern still right?")
	}
}

// sharedFolder is the folder beside a working checkout that a user's clone
// does not have, as a relative path.
var sharedFolder = filepath.Join("..", "sha"+"red")

// TestNoSharedFolder checks that no Markdown file of the repository refers
// to sharedFolder: a clone has nothing beside it.
func TestNoSharedFolder(t *testing.T) {
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".md") {
			return nil
		}
		found++
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		name, _ := filepath.Rel(root, path)
		for n, line := range strings.Split(string(text), "\n") {
			if strings.Contains(line, sharedFolder) {
				t.Errorf("%s:%d: refers to %s, which a clone does not have: %s", name, n+1, sharedFolder, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 10 {
		t.Errorf("found %d Markdown files in the repository, want more", found)
	}
}

// TestLinkPatterns checks what the test counts as a link, and what not.
func TestLinkPatterns(t *testing.T) {
	text := "See [the CLI](docs/CLI.md) and ![a tree](docs/tree.png \"title\").\n" +
		"[ref]: PERFORMANCE.md#speed\n" +
		"Code `x[f](y)` is no link, nor is [a site](https://example.com) relative.\n" +
		"```go\nx := [heart.NumFeatures](float64)\n```\n" +
		"    [indented](no.md)\n" +
		"[anchor](#two-commands) <[angle](<docs/IR.md>)>\n"
	targets, lines := links(text)
	want := []string{"docs/CLI.md", "docs/tree.png", "PERFORMANCE.md#speed", "https://example.com", "#two-commands", "docs/IR.md"}
	if !slices.Equal(targets, want) {
		t.Errorf("links = %q, want %q", targets, want)
	}
	if !slices.Equal(lines, []int{1, 1, 2, 3, 8, 8}) {
		t.Errorf("lines = %v", lines)
	}
	for _, tc := range []struct {
		target string
		want   bool
	}{
		{"docs/CLI.md", true},
		{"../testdata/xgboost/README.md", true},
		{"https://example.com", false},
		{"mailto:x@example.com", false},
		{"#two-commands", false},
	} {
		if got := relative(tc.target); got != tc.want {
			t.Errorf("relative(%q) = %v, want %v", tc.target, got, tc.want)
		}
	}
}
