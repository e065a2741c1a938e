package isla_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// parseCases map constraints, core and simplified, to the core ISLa that
// Parse translates them to, as String prints it.
var parseCases = []struct{ src, core string }{
	// core ISLa prints as it is written
	{`forall <xml-tree> tree="<{<id> opid}[ <xml-attribute>]><inner-xml-tree></{<id> clid}>" in start: (= opid clid)`,
		`forall <xml-tree> tree="<{<id> opid}[ <xml-attribute>]><inner-xml-tree></{<id> clid}>" in start: (= opid clid)`},
	{`exists int n: (= n "1")`, `exists int n: (= n "1")`},
	{`const doc: <xml-tree>; forall <id> i in doc: (= i "a")`, `const doc: <xml-tree>; forall <id> i in doc: (= i "a")`},
	{`forall <a> x in start: inside(x, start)`, `forall <a> x in start: inside(x, start)`},
	{`(str.in_re "ab" ((_ re.loop 1 3) (re.range "a" "z")))`, `(str.in_re "ab" ((_ re.loop 1 3) (re.range "a" "z")))`},
	{`(let ((y 3) (z 4)) (< y z))`, `(let ((y 3) (z 4)) (< y z))`},
	{`(re.allchar)`, `re.allchar`},
	{`true and false`, `true and false`},

	// omitted "in start"
	{`forall <a> x: (= x "1")`, `forall <a> x in start: (= x "1")`},
	// infix, prefix and S-expression terms
	{`forall <a> x: (str.len(x) <= 100 or x = "a" str.++ "b")`, `forall <a> x in start: ((<= (str.len x) 100) or (= x (str.++ "a" "b")))`},
	{`1 + 2 * 3 - 4 = 3`, `(= (- (+ 1 (* 2 3)) 4) 3)`},
	{`"a" str.++ "b" = "ab"`, `(= (str.++ "a" "b") "ab")`},
	{`("a" = "b")`, `(= "a" "b")`},
	{`(str.prefixof (str.++ "a" "b") "c")`, `(str.prefixof (str.++ "a" "b") "c")`},
	{`- 5 < 7 div 2 mod 3`, `(< (- 5) (mod (div 7 2) 3))`},
	{`str.in_re("a", re.loop(re.allchar, 1, 2))`, `(str.in_re "a" (re.loop re.allchar 1 2))`},
	// omitted variable names: the nonterminal stands for the variable
	{`exists <assgn>: <assgn> = "x := y"`, `exists <assgn> assgn in start: (= assgn "x := y")`},
	{`forall <id>="{<LETTER> l}": l = "a"`, `forall <id> id="{<LETTER> l}" in start: (= l "a")`},
	// free nonterminals: a universal quantifier, pushed in past parts that do
	// not mention it
	{`<id> = "a" and true`, `forall <id> id in start: (= id "a") and true`},
	{`true or str.len(<id>) > 1 or <id> = "b"`, `true or forall <id> id in start: ((> (str.len id) 1) or (= id "b"))`},
	{`exists <a> x: inside(x, <b>)`, `forall <b> b in start: exists <a> x in start: inside(x, b)`},
	{`forall <a> x: inside(x, <b>)`, `forall <a> x in start: forall <b> b in start: inside(x, b)`},
	{`forall <a> x in <b>: true`, `forall <b> b in start: forall <a> x in b: true`},
	// XPath child axis: a guarded quantifier right inside the binder
	{`forall <a> x: x.<b> = "1"`,
		`forall <a> x in start: forall <b> b in x: (nth_child(1, b, x) implies (= b "1"))`},
	{`exists <a> x: x.<b>[2] = "1"`,
		`exists <a> x in start: exists <b> b in x: (nth_child(2, b, x) and (= b "1"))`},
	{`forall <a> x: (x.<b> = "1" or x.<b> = "2")`,
		`forall <a> x in start: forall <b> b in x: (nth_child(1, b, x) implies (= b "1") or (= b "2"))`},
	// XPath descendant axis: a universal quantifier pushed in
	{`forall <a> x: (true and x..<c> = "2")`,
		`forall <a> x in start: (true and forall <c> c in x: (= c "2"))`},
	{`exists <a> x: (inside(x, start) and x..<c> = "2")`,
		`exists <a> x in start: (inside(x, start) and forall <c> c in x: (= c "2"))`},
	// paper: Listing 1 and the tar checksum
	{`<xml-tree>.<xml-open-tag>.<id> = <xml-tree>.<xml-close-tag>.<id>`,
		`forall <xml-tree> xml_tree in start: forall <xml-open-tag> xml_open_tag in xml_tree: (nth_child(1, xml_open_tag, xml_tree) implies forall <id> id in xml_open_tag: (nth_child(1, id, xml_open_tag) implies forall <xml-close-tag> xml_close_tag in xml_tree: (nth_child(1, xml_close_tag, xml_tree) implies forall <id> id_1 in xml_close_tag: (nth_child(1, id_1, xml_close_tag) implies (= id id_1)))))`},
	{`tar_checksum(<header>, <header>.<checksum>)`,
		`forall <header> header in start: forall <checksum> checksum in header: (nth_child(1, checksum, header) implies tar_checksum(header, checksum))`},
	// quantifiers bind tighter than connectives
	{`forall <a> x: x = "1" and <b> = "2"`, `forall <a> x in start: (= x "1") and forall <b> b in start: (= b "2")`},
	// connectives: not, and, or, xor, implies, iff from the tightest
	{`not 1 = 2 and 3 = 4 or 5 = 6`, `not (= 1 2) and (= 3 4) or (= 5 6)`},
	{`true implies false implies true`, `true implies false implies true`},
	{`true implies (false implies true)`, `true implies (false implies true)`},
	{`true iff false xor true`, `true iff false xor true`},
	{`(true or false) and true`, `(true or false) and true`},
	{`not (true and false)`, `not (true and false)`},
	{`not (not true)`, `not (not true)`},
	{`not not true`, `not not true`},
	{`(not (= 1 2))`, `(not (= 1 2))`},
	// strings: escapes
	{`"" = "a\"b\\c\n\t\u{41}\x41\u0041"`, `(= "" "a\"b\\c\n\tAAA")`},
	{`"" = "\xff\u{dcff}\u{2ffff}\x00"`, `(= "" "\u{dcff}\u{dcff}\u{2ffff}\u{0}")`},
	{`"é" = "\xc3\xa9"`, `(= "é" "é")`},
	// match expressions with escapes and literal '<'
	{`forall <a> x="\\{\\[<b>\\<c>]": true`, `forall <a> x="\\{\\[<b>\\<c>]" in start: true`},
	{`forall <a> x="<{<b> y}": true`, `forall <a> x="<{<b> y}" in start: true`},
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		c, err := isla.Parse("t.isla", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got := c.String(); got != tc.core {
			t.Errorf("%s\n got %s\nwant %s", tc.src, c, tc.core)
		}
		roundTrip(t, c)
	}
}

// roundTrip checks that the printed constraint parses back to an equal one,
// and prints the same.
func roundTrip(t *testing.T, c *isla.Constraint) {
	t.Helper()
	s := c.String()
	d, err := isla.Parse("printed", []byte(s))
	if err != nil {
		t.Errorf("printed form does not parse: %v\n%s", err, s)
		return
	}
	if !isla.Equal(c, d) {
		t.Errorf("printed form parses to a different constraint:\n%s\n%s", s, d)
	}
	if d.String() != s {
		t.Errorf("printing is not stable:\n%s\n%s", s, d)
	}
}

func TestParseTestdataRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.isla")
	if len(files) == 0 {
		t.Fatal("no constraints in testdata")
	}
	for _, f := range files {
		roundTrip(t, loadConstraint(t, filepath.Base(f)))
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, err string }{
		{`forall <a> x: y = "1"`, `e.isla:1:15: undefined variable y`},
		{`forall <a> x in : true`, `e.isla:1:17: expected a variable or a nonterminal, found ':'`},
		{`(= x`, `e.isla:1:5: expected an argument or ')', found end of input`},
		{`x = "abc`, `e.isla:1:5: string literal not terminated`},
		{`forall <a> x="{<b}": true`, `e.isla:1:16: expected a nonterminal <type> in binder {<type> name}`},
		{`forall <a> x="{<b> y": true`, `e.isla:1:21: expected '}' in binder`},
		{`forall <a> x="[<b>": true`, `e.isla:1:15: optional [...] of a match expression not closed`},
		{`forall <a> x="[{<b> y}]": true`, `cannot occur inside an optional`},
		{`forall <a> x="": true`, `empty match expression`},
		{"true and\n  ", `e.isla:2:3: expected a term, found end of input`},
		{`foo(`, `e.isla:1:5: expected a variable, a nonterminal, a string or a number, found end of input`},
		{`forall <a> and: true`, `keyword and cannot be a variable name`},
		{`forall int: true`, `expected a variable name`},
		{`x = "\q"`, `unknown escape sequence 'q'`},
		{`x = "\u{30000}"`, `beyond the largest SMT-LIB character`},
		{`str.len x = 1`, `expected '(' after str.len`},
		{`x.<a> = "1"`, `undefined variable x`},
		{`exists int n: n.<a> = "1"`, `n is a number, not a tree`},
		{`forall <a> x in n: true`, `undefined variable n`},
		{`true false`, `expected 'and', 'or', 'xor', 'implies', 'iff' or end of input, found keyword false`},
		{`const s <a>; true`, `expected ':'`},
		{`x.<a>[0] = "1"`, `position 0 out of range`},
		{`(_ re.loop 1) = x`, `expected`},
		{"x = 1 $", `unexpected '$'`},
		{strings.Repeat("(", 2000) + "true" + strings.Repeat(")", 2000), `nested too deeply`},
	} {
		_, err := isla.Parse("e.isla", []byte(tc.src))
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.src, tc.err)
			continue
		}
		if !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s:\n got %v\nwant %s", tc.src, err, tc.err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add(tc.src)
	}
	files, _ := filepath.Glob("testdata/*.isla")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	f.Fuzz(func(t *testing.T, src string) {
		c, err := isla.Parse("fuzz", []byte(src))
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		roundTrip(t, c)
	})
}
