package changes

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// A FileChange is what a diff changes in one file, in terms of the lines of
// its new version.
type FileChange struct {
	// Path is the file's path in the new version, as the diff names it
	// (without git's "b/" prefix).
	Path string
	// OldPath is the file's path in the old version ("" for a new file).
	OldPath string
	// Added holds the new-version line numbers (from 1) of added or changed
	// lines, increasing.
	Added []int
	// Deleted holds, for every run of deleted lines, the number of the last
	// new-version line before it (0 if the run is at the start of the file),
	// increasing. Lines were deleted between line d and line d+1.
	Deleted []int
}

// ParseDiff reads a unified diff, as written by git diff or diff -u, and
// returns the changes of the files that exist in the new version, in the
// order of the diff. name is used in error messages, which have the form
// name:line: message. Lines outside file headers and hunks (git's extended
// headers, "Binary files differ", mail text) are ignored.
func ParseDiff(name string, data []byte) ([]FileChange, error) {
	p := diffParser{name: name}
	return p.parse(data)
}

type diffParser struct {
	name  string
	line  int
	files []FileChange
	cur   *FileChange // nil when the current file does not exist in the new version
	next  int         // the first new-version line after the file's last hunk
	git   bool        // inside a git diff: paths carry a/ and b/ prefixes
}

func (p *diffParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

func (p *diffParser) parse(data []byte) ([]FileChange, error) {
	lines := bytes.Split(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	inFile := false // a ---/+++ header was read
	for i := 0; i < len(lines); i++ {
		p.line = i + 1
		l := string(bytes.TrimSuffix(lines[i], []byte("\r")))
		switch {
		case strings.HasPrefix(l, "diff --git "):
			p.git, inFile, p.cur = true, false, nil
		case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && bytes.HasPrefix(lines[i+1], []byte("+++ ")):
			oldPath, err := p.path(l[4:], "a/")
			if err != nil {
				return nil, err
			}
			p.line++
			i++
			newPath, err := p.path(strings.TrimSuffix(string(lines[i][4:]), "\r"), "b/")
			if err != nil {
				return nil, err
			}
			inFile = true
			p.cur, p.next = nil, 1
			if newPath == "/dev/null" {
				continue // the file is deleted
			}
			if oldPath == "/dev/null" {
				oldPath = ""
			}
			p.files = append(p.files, FileChange{Path: newPath, OldPath: oldPath})
			p.cur = &p.files[len(p.files)-1]
		case strings.HasPrefix(l, "@@ "):
			if !inFile {
				return nil, p.errorf("hunk before a file header (--- and +++ lines)")
			}
			n, err := p.hunk(lines, i)
			if err != nil {
				return nil, err
			}
			i += n
		}
	}
	return p.files, nil
}

// path decodes a file name of a ---/+++ line: it drops a trailing tab and
// what follows (a time stamp), unquotes a quoted name, and in git diffs drops
// the prefix.
func (p *diffParser) path(s, prefix string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		end := closingQuote(s)
		if end < 0 {
			return "", p.errorf("unterminated quoted file name %.40q", s)
		}
		u, err := strconv.Unquote(s[:end+1])
		if err != nil {
			return "", p.errorf("bad quoted file name %.40q", s)
		}
		s = u
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	} else {
		s = strings.TrimRight(s, " ")
	}
	if s != "/dev/null" && p.git {
		s = strings.TrimPrefix(s, prefix)
	}
	if s == "" {
		return "", p.errorf("empty file name")
	}
	return s, nil
}

// closingQuote returns the index of the quote that ends the quoted string
// at the start of s, or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// hunk reads the hunk whose header is lines[at] and returns how many body
// lines it has.
func (p *diffParser) hunk(lines [][]byte, at int) (int, error) {
	header := string(lines[at])
	oldStart, oldCount, newStart, newCount, ok := parseHunkHeader(header)
	if !ok {
		return 0, p.errorf("malformed hunk header %.60q: want @@ -l,s +l,s @@", header)
	}
	_ = oldStart
	line := newStart // the next new-version line
	if newCount == 0 {
		line = newStart + 1 // "+l,0": the hunk follows line l
	}
	if line < p.next {
		return 0, p.errorf("hunk starts at line %d, within or before the previous hunk (which ends before line %d)", line, p.next)
	}
	lastDeleted := -1
	n := 0
	for oldCount > 0 || newCount > 0 {
		n++
		if at+n >= len(lines) {
			p.line = at + n
			return 0, p.errorf("hunk ends early: %d old and %d new lines missing", oldCount, newCount)
		}
		p.line = at + n + 1
		l := bytes.TrimSuffix(lines[at+n], []byte("\r"))
		kind := byte(' ') // an empty line is an empty context line
		if len(l) > 0 {
			kind = l[0]
		}
		switch kind {
		case ' ':
			if oldCount == 0 || newCount == 0 {
				return 0, p.errorf("hunk has more context lines than its header counts")
			}
			oldCount--
			newCount--
			line++
		case '+':
			if newCount == 0 {
				return 0, p.errorf("hunk adds more lines than its header counts")
			}
			newCount--
			if p.cur != nil {
				p.cur.Added = append(p.cur.Added, line)
			}
			line++
		case '-':
			if oldCount == 0 {
				return 0, p.errorf("hunk deletes more lines than its header counts")
			}
			oldCount--
			if p.cur != nil && lastDeleted != line-1 {
				lastDeleted = line - 1
				p.cur.Deleted = append(p.cur.Deleted, line-1)
			}
		case '\\':
			// "\ No newline at end of file"
		default:
			return 0, p.errorf("unexpected line in hunk: %.40q", l)
		}
	}
	p.next = line
	// A trailing "\ No newline at end of file" belongs to the hunk.
	if at+n+1 < len(lines) && bytes.HasPrefix(lines[at+n+1], []byte(`\`)) {
		n++
	}
	return n, nil
}

// parseHunkHeader parses "@@ -a,b +c,d @@ text"; a missing count is 1.
func parseHunkHeader(h string) (oldStart, oldCount, newStart, newCount int, ok bool) {
	rest, found := strings.CutPrefix(h, "@@ -")
	if !found {
		return
	}
	end := strings.Index(rest, " @@")
	if end < 0 {
		return
	}
	ranges := strings.Fields(rest[:end])
	if len(ranges) != 2 || !strings.HasPrefix(ranges[1], "+") {
		return
	}
	var ok1, ok2 bool
	oldStart, oldCount, ok1 = parseRange(ranges[0])
	newStart, newCount, ok2 = parseRange(ranges[1][1:])
	// A non-empty range starts at line 1 or later.
	ok = ok1 && ok2 && (oldCount == 0 || oldStart > 0) && (newCount == 0 || newStart > 0)
	return oldStart, oldCount, newStart, newCount, ok
}

func parseRange(s string) (start, count int, ok bool) {
	a, b, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 || start > 1<<30 {
		return 0, 0, false
	}
	count = 1
	if hasCount {
		count, err = strconv.Atoi(b)
		if err != nil || count < 0 || count > 1<<30 {
			return 0, 0, false
		}
	}
	return start, count, true
}
