package evalpeers

import (
	"fmt"
	"sort"
	"strings"
)

// A Fault is a seeded fault: a statement inserted into the evaluation's copy
// of a subject that panics (or, while fuzzing, records its ID) when the
// input has a particular shape. The examples themselves are never changed.
type Fault struct {
	// ID numbers the fault, from 1; panics say "kfuzz seeded fault ID".
	ID int
	// Subject names the subject, and File the file of its copy that the
	// fault is inserted into.
	Subject, File string
	// Anchor is a line of File (without its indentation) that occurs
	// exactly once; the fault is inserted after it, or before it if
	// Before is set.
	Anchor string
	Before bool
	// Cond is a Go boolean expression over the variables in scope at the
	// anchor; the fault fires when it holds.
	Cond string
	// Trigger is an input that reaches the fault, and Shape says in words
	// which inputs do.
	Trigger, Shape string
}

// FaultPanic is the prefix of the panic value of a seeded fault.
const FaultPanic = "kfuzz seeded fault "

// FaultsEnv names the environment variable that turns the seeded faults
// from panics into records: each fault that fires appends "ID unixnano" to
// the file it names, once per process, and execution goes on, so that one
// fuzzing run detects any number of faults with the time of each.
const FaultsEnv = "KFUZZ_EVAL_FAULTS"

// Faults are the seeded faults, eight per subject.
var Faults = []Fault{
	{1, "calc", "calc.go", "text := p.src[start:p.pos]", false, "len(text) >= 6 && text[0] == '7'",
		"700000", "a number of six or more digits that starts with 7"},
	{2, "calc", "calc.go", "case c == '(':", false, `strings.HasPrefix(p.src[p.pos:], "((((")`,
		"((((1))))", "four parentheses opened in a row"},
	{3, "calc", "calc.go", "func divide(x, y int64) (int64, error) {", false, "y == 7 && x > 100",
		"101/7", "a division of a value above 100 by 7"},
	{4, "calc", "calc.go", "func remainder(x, y int64) (int64, error) {", false, "x != 0 && x == -y",
		"5%-5", "a remainder of a value by its negation"},
	{5, "calc", "calc.go", "if v, ok := e.X.(*Var); ok && env != nil {", false, `v.Name == "y" && e.Op == "--"`,
		"--y", "a decrement of the variable y"},
	{6, "calc", "calc.go", "s.budget -= grow", false, "size(factor) >= 5",
		"(1+2+3)*(x+y)", "a product of a parenthesised sum and a factor of five or more nodes, multiplied out"},
	{7, "calc", "calc.go", "v, err := EvalExpr(&Binary{Op: op, X: a, Y: b}, nil)", false, "err == nil && v == 1000 && op == '*'",
		"10*100", "a product of two numbers folded to 1000"},
	{8, "calc", "calc.go", "if isNum(y, 0) && safe(x) {", false, "func() bool { _, ok := x.(*Unary); return ok }()",
		"-x*0", "a signed operand times 0"},

	{9, "scriptc", "parse.go", "return &Int{Value: n}, nil", true, "n >= 1000 && n%1000 == 999",
		"1999;", "a constant of at least 1000 that ends in 999"},
	{10, "scriptc", "parse.go", "return &While{Cond: cond, Body: body}, nil", true, "func() bool { _, ok := body.(*DoWhile); return ok }()",
		"while (a) do ; while (b);", "a do-while loop as the body of a while loop"},
	{11, "scriptc", "parse.go", "return s, nil", true, "func() bool { _, ok := s.Else.(*If); return ok }()",
		"if (a) ; else if (b) ;", "an else branch that is an if statement"},
	{12, "scriptc", "parse.go", "return &Assign{Var: v, X: x}, nil", true, "func() bool { a, ok := x.(*Assign); return ok && a.Var.Name == v.Name }()",
		"a = a = 1;", "an assignment whose value assigns the same variable"},
	{13, "scriptc", "parse.go", `return d, p.expect(";")`, true, "func() bool { b, ok := d.Init.(*Binary); return ok && b.Op == '<' }()",
		"int a = b < c;", "a declaration initialised with a comparison"},
	{14, "scriptc", "scriptc.go", "case '-':", false, "x-y == -1 && x >= 10",
		"10 - 11;", "a subtraction, run, of a value of at least 10 from one more"},
	{15, "scriptc", "scriptc.go", "top[s.Name] = v", false, "len(r.scopes) >= 3",
		"{{int a;}}", "a declaration, run, two blocks deep"},
	{16, "scriptc", "scriptc.go", "if _, ok := r.scopes[i][v.Name]; ok {", false, "i == 0 && len(r.scopes) >= 3",
		"int a;{{a;}}", "a global variable used, run, two blocks deep"},

	{17, "json", "scanner.go", "func stateBeginValue(s *scanner, c byte) int {", false, "c == '[' && len(s.parseState) == 3",
		"[[[[]]]]", "an array nested four deep"},
	{18, "json", "scanner.go", "func stateBeginValue(s *scanner, c byte) int {", false,
		"c == '{' && len(s.parseState) >= 2 && s.parseState[len(s.parseState)-1] == parseObjectValue && s.parseState[len(s.parseState)-2] == parseArrayValue",
		`[{"a":{}}]`, "an object as a member value of an object in an array"},
	{19, "json", "scanner.go", "func stateInStringEscU123(s *scanner, c byte) int {", false,
		"(c == 'f' || c == 'F') && len(s.parseState) == 1 && s.parseState[0] == parseObjectKey",
		`{"\u00ff":1}`, `a \u escape ending in f in a key of a top-level object`},
	{20, "json", "scanner.go", "func stateE0(s *scanner, c byte) int {", false,
		"c == '9' && len(s.parseState) > 0 && s.parseState[len(s.parseState)-1] == parseArrayValue",
		"[1e99]", "an array element whose exponent has a 9 after its first digit"},
	{21, "json", "scanner.go", "func stateDot0(s *scanner, c byte) int {", false,
		"c == 'E' && len(s.parseState) > 0 && s.parseState[len(s.parseState)-1] == parseObjectValue",
		`{"a":1.5E3}`, "a member value with a fraction and an upper-case exponent"},
	{22, "json", "scanner.go", "ps := s.parseState[n-1]", false, "ps == parseObjectValue && c == ',' && n >= 2",
		`[{"a":1,"b":2}]`, "a second member of a nested object"},
	{23, "json", "scanner.go", "func stateNul(s *scanner, c byte) int {", false,
		"len(s.parseState) == 2 && s.parseState[0] == parseObjectValue && s.parseState[1] == parseArrayValue",
		`{"a":[null]}`, "null in an array that is a member value of a top-level object"},
	{24, "json", "scanner.go", "func stateBeginStringOrEmpty(s *scanner, c byte) int {", false, "c == '}' && len(s.parseState) >= 3",
		"[[{}]]", "an empty object nested three deep"},

	{25, "csv", "reader.go", `case rn == '"':`, false, "len(r.fieldIndexes) >= 3",
		`a,b,c,"x""y"`, "an escaped quote in the fourth or a later field"},
	{26, "csv", "reader.go", "r.recordBuffer = append(r.recordBuffer, line...)", false, "len(r.fieldIndexes) == 1",
		"a,\"b\nc\"", "a quoted field spanning lines as the second field"},
	{27, "csv", "reader.go", "str := string(r.recordBuffer) // Convert to string once to batch allocations", false, "len(r.fieldIndexes) >= 4 && len(str) == 0",
		",,,", "a record of four or more empty fields"},
	{28, "csv", "reader.go", "if len(dst) != r.FieldsPerRecord && err == nil {", false, "len(dst) == r.FieldsPerRecord+2",
		"a\nb,c,d", "a record with two fields more than the first"},
	{29, "csv", "reader.go", "if r.Comment != 0 && nextRune(line) == r.Comment {", false, "r.numLine >= 3",
		"a\nb\n#c", "a comment line on the third line or later (Comment set)"},
	{30, "csv", "reader.go", "case rn == r.Comma:", false, "fieldPos.col == 1 && len(r.recordBuffer) == 0 && recLine >= 2",
		"a\n\"\",b", "an empty quoted first field of a later record"},
	{31, "csv", "reader.go", "pos.col += i", false, "i >= 3",
		"a,   b", "three or more leading spaces of a field (TrimLeadingSpace set)"},
	{32, "csv", "reader.go", "err = &ParseError{StartLine: recLine, Line: r.numLine, Column: col, Err: ErrBareQuote}", false, "col >= 4 && recLine >= 2",
		"a\nbcd\"e", "a bare quote at column 4 or later of a later record"},
}

// FaultsOf returns the faults of the subject.
func FaultsOf(subject string) []Fault {
	var out []Fault
	for _, f := range Faults {
		if f.Subject == subject {
			out = append(out, f)
		}
	}
	return out
}

// Mutate inserts the faults into src, the text of the file name of a
// subject copy: each after (or before) the one line that is its anchor,
// indented like it. Faults of other files are ignored. An anchor that is
// missing or not unique is an error naming the fault.
func Mutate(name string, src []byte, faults []Fault) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	insert := map[int][]string{} // line index -> statements before it
	var errs []string
	for _, f := range faults {
		if f.File != name {
			continue
		}
		at := -1
		for i, l := range lines {
			if strings.TrimSpace(l) == f.Anchor {
				if at >= 0 {
					errs = append(errs, fmt.Sprintf("%s: fault %d: anchor %q occurs more than once (lines %d and %d)", name, f.ID, f.Anchor, at+1, i+1))
				}
				at = i
			}
		}
		if at < 0 {
			errs = append(errs, fmt.Sprintf("%s: fault %d: anchor %q not found", name, f.ID, f.Anchor))
			continue
		}
		indent := lines[at][:len(lines[at])-len(strings.TrimLeft(lines[at], " \t"))]
		pos := at + 1
		if f.Before {
			pos = at
		} else if strings.HasSuffix(strings.TrimSpace(lines[at]), "{") || strings.HasSuffix(strings.TrimSpace(lines[at]), ":") {
			indent += "\t"
		}
		stmt := fmt.Sprintf("%sif %s { kfuzzFault(%d) }\n", indent, f.Cond, f.ID)
		insert[pos] = append(insert[pos], stmt)
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	var b strings.Builder
	for i, l := range lines {
		for _, s := range insert[i] {
			b.WriteString(s)
		}
		b.WriteString(l)
	}
	for _, s := range insert[len(lines)] {
		b.WriteString(s)
	}
	return []byte(b.String()), nil
}

// faultFile is the file added to a mutated subject: kfuzzFault panics, or
// records the fault when FaultsEnv names a file.
const faultFile = `package %s

import (
	"fmt"
	"os"
	"sync"
	"time"
)

var kfuzzFaultSeen sync.Map

func kfuzzFault(id int) {
	path := os.Getenv(%q)
	if path == "" {
		panic(fmt.Sprintf("%s%%d", id))
	}
	if _, seen := kfuzzFaultSeen.LoadOrStore(id, true); seen {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(f, "%%d %%d\n", id, time.Now().UnixNano())
	f.Close()
}
`
