package islearn

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

//go:embed catalog.isc
var defaultCatalog []byte

// A Pattern is one entry of a catalog: an ISLa formula with placeholders
// and the relations that restrict their values.
type Pattern struct {
	Name string
	// Formula is the formula text with placeholders {name}.
	Formula string
	// Placeholders lists the placeholder names in order of first
	// appearance in the where lines and then in the formula.
	Placeholders []string
	// Where lists the relations between placeholders.
	Where []Relation
	Pos   grammar.Pos // position of the "pattern" line
}

// A Relation restricts the values of placeholders A and B: Op is "child",
// "in", "!=", "<", "sharestext", "textof", "textsof" or "notextof" (see
// the package documentation).
type Relation struct {
	A, Op, B string
}

// IsString reports whether the placeholder name stands for a string:
// "string" or "string" followed by digits.
func IsString(name string) bool {
	rest, ok := strings.CutPrefix(name, "string")
	return ok && strings.Trim(rest, "0123456789") == ""
}

var placeholderRE = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// stringsRE matches the placeholder {strings VAR}: VAR equals one of the
// texts of the strings placeholder.
var stringsRE = regexp.MustCompile(`\{strings ([A-Za-z_][A-Za-z0-9_]*)\}`)

// IsStrings reports whether the placeholder name stands for a set of
// strings: "strings".
func IsStrings(name string) bool { return name == "strings" }

// DefaultCatalog returns the patterns of the built-in catalog.
func DefaultCatalog() []*Pattern {
	ps, err := ParseCatalog("catalog.isc", defaultCatalog)
	if err != nil {
		panic("islearn: the built-in catalog is broken: " + err.Error())
	}
	return ps
}

// ParseCatalog parses a pattern catalog. The file name is used in
// positions only. Errors are returned together as a grammar.ErrorList with
// file:line:col positions.
func ParseCatalog(filename string, src []byte) ([]*Pattern, error) {
	var errs grammar.ErrorList
	var pats []*Pattern
	var cur *Pattern
	var body []string
	seen := map[string]bool{}
	pos := func(line, col, off int) grammar.Pos {
		return grammar.Pos{File: filename, Line: line, Col: col, Offset: off}
	}
	finish := func() {
		if cur == nil {
			return
		}
		for len(body) > 0 {
			last := strings.TrimSpace(body[len(body)-1])
			if last != "" && !strings.HasPrefix(last, "#") {
				break
			}
			body = body[:len(body)-1] // comments before the next pattern
		}
		cur.Formula = strings.TrimSpace(strings.Join(body, "\n"))
		if cur.Formula == "" {
			errs.Add(cur.Pos, fmt.Sprintf("pattern %s has no formula", cur.Name))
		}
		has := map[string]bool{}
		for _, p := range cur.Placeholders {
			has[p] = true
		}
		if stringsRE.MatchString(cur.Formula) && !has["strings"] {
			has["strings"] = true
			cur.Placeholders = append(cur.Placeholders, "strings")
		}
		for _, m := range placeholderRE.FindAllStringSubmatch(cur.Formula, -1) {
			if !has[m[1]] {
				has[m[1]] = true
				cur.Placeholders = append(cur.Placeholders, m[1])
			}
		}
		pats = append(pats, cur)
		cur, body = nil, nil
	}
	off := 0
	for i, line := range strings.Split(string(src), "\n") {
		lineNo, lineOff := i+1, off
		off += len(line) + 1
		trim := strings.TrimSpace(line)
		col := strings.Index(line, trim) + 1
		switch {
		case trim == "" && (cur == nil || len(body) == 0):
		case strings.HasPrefix(trim, "#") && (cur == nil || len(body) == 0):
		case strings.HasPrefix(trim, "pattern ") || trim == "pattern":
			finish()
			name := strings.TrimSpace(strings.TrimPrefix(trim, "pattern"))
			p := pos(lineNo, col, lineOff+col-1)
			switch {
			case name == "" || strings.ContainsAny(name, " \t"):
				errs.Add(p, "expected a pattern name without spaces after pattern")
			case seen[name]:
				errs.Add(p, fmt.Sprintf("pattern %s defined twice", name))
			}
			seen[name] = true
			cur = &Pattern{Name: name, Pos: p}
		case cur == nil:
			errs.Add(pos(lineNo, col, lineOff+col-1), "expected pattern NAME")
		case strings.HasPrefix(trim, "where ") && len(body) == 0:
			f := strings.Fields(strings.TrimPrefix(trim, "where "))
			p := pos(lineNo, col, lineOff+col-1)
			if len(f) != 3 {
				errs.Add(p, "expected where {a} child|in|!=|<|sharestext|textof|textsof|notextof {b}")
				continue
			}
			a, okA := placeholderName(f[0])
			b, okB := placeholderName(f[2])
			switch {
			case !okA || !okB:
				errs.Add(p, "expected placeholders {name} on both sides of the relation")
				continue
			case !slices.Contains([]string{"child", "in", "!=", "<", "sharestext", "textof", "textsof", "notextof"}, f[1]):
				errs.Add(p, fmt.Sprintf("unknown relation %q (want child, in, !=, <, sharestext, textof, textsof or notextof)", f[1]))
				continue
			case f[1] == "textof" && (!IsString(a) || IsString(b) || IsStrings(b)):
				errs.Add(p, "textof relates a {string} placeholder to a nonterminal placeholder")
				continue
			case (f[1] == "textsof" || f[1] == "notextof") && (!IsStrings(a) || IsString(b) || IsStrings(b)):
				errs.Add(p, f[1]+" relates the {strings} placeholder to a nonterminal placeholder")
				continue
			case f[1] != "textof" && f[1] != "textsof" && f[1] != "notextof" &&
				(IsString(a) || IsString(b) || IsStrings(a) || IsStrings(b)):
				errs.Add(p, fmt.Sprintf("%s relates nonterminal placeholders, not strings", f[1]))
				continue
			}
			cur.Where = append(cur.Where, Relation{a, f[1], b})
			for _, n := range []string{a, b} {
				if !slices.Contains(cur.Placeholders, n) {
					cur.Placeholders = append(cur.Placeholders, n)
				}
			}
		default:
			body = append(body, line)
		}
	}
	finish()
	for _, p := range pats {
		for _, n := range p.Placeholders {
			if IsString(n) && !hasRel(p, n, "textof") {
				errs.Add(p.Pos, fmt.Sprintf("pattern %s: string placeholder {%s} needs a where {%s} textof {...} line", p.Name, n, n))
			}
			if IsStrings(n) && !hasRel(p, n, "textsof") {
				errs.Add(p.Pos, fmt.Sprintf("pattern %s: placeholder {strings} needs a where {strings} textsof {...} line", p.Name))
			}
		}
	}
	if len(pats) == 0 && len(errs) == 0 {
		errs.Add(pos(1, 1, 0), "the catalog has no patterns")
	}
	errs.Sort()
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return pats, nil
}

func placeholderName(s string) (string, bool) {
	m := placeholderRE.FindStringSubmatch(s)
	if m == nil || m[0] != s {
		return "", false
	}
	return m[1], true
}

func hasRel(p *Pattern, n, op string) bool {
	for _, r := range p.Where {
		if r.Op == op && r.A == n {
			return true
		}
	}
	return false
}
