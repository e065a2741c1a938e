package grammar

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// earleyParser compiles grammar source src and returns a parser for it.
func earleyParser(t testing.TB, src string, opts ...ParserOption) *Parser {
	t.Helper()
	g, err := Parse("test.bnf", []byte(src))
	if err != nil {
		t.Fatalf("grammar: %v", err)
	}
	gr, err := Compile(g)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	p, err := NewParser(gr, opts...)
	if err != nil {
		t.Fatalf("NewParser: %v", err)
	}
	return p
}

// checkTree verifies that t is a complete derivation tree that respects the
// grammar graph: every node has the children its kind requires.
func checkTree(t *Tree) error {
	var err error
	t.Walk(func(u *Tree) bool {
		if err != nil {
			return false
		}
		n := u.Node
		fail := func(format string, args ...any) {
			err = fmt.Errorf("%s: %s", n, fmt.Sprintf(format, args...))
		}
		if u.Open {
			fail("open slot")
			return false
		}
		switch n.Kind {
		case KindLit:
			if u.Value != n.Lit || len(u.Children) != 0 {
				fail("literal value %q", u.Value)
			}
		case KindClass:
			if len(u.Children) != 0 || !classHas(n, u.Value) {
				fail("class value %q", u.Value)
			}
		case KindRef:
			if len(u.Children) != 1 || u.Children[0].Node != n.Children[0] {
				fail("reference child")
			}
		case KindAlt:
			if len(u.Children) != 1 || !slices.Contains(n.Children, u.Children[0].Node) {
				fail("alternative")
			}
		case KindSeq:
			if len(u.Children) != len(n.Children) {
				fail("%d children", len(u.Children))
				return false
			}
			for i, c := range u.Children {
				if c.Node != n.Children[i] {
					fail("child %d", i)
				}
			}
		case KindRepeat:
			if len(u.Children) < n.Min || (n.Max != Unbounded && len(u.Children) > n.Max) {
				fail("%d repetitions", len(u.Children))
			}
			for _, c := range u.Children {
				if c.Node != n.Children[0] {
					fail("repeated child")
				}
			}
		}
		return err == nil
	})
	return err
}

// classHas reports whether the class node n derives exactly s.
func classHas(n *Node, s string) bool {
	var r rune
	if n.Class.Bytes {
		if len(s) != 1 {
			return false
		}
		r = rune(s[0])
	} else {
		var size int
		r, size = utf8.DecodeRuneInString(s)
		if size != len(s) || (r == utf8.RuneError && size <= 1) {
			return false
		}
	}
	for _, rg := range n.set {
		if rg.Lo <= r && r <= rg.Hi {
			return true
		}
	}
	return false
}

// bruteCount counts the derivations of s from graph node n without a
// parser: it spells out the AND-OR graph of (node, state, span) goals, each
// with its alternatives (lists of subgoals that must all derive their
// span), keeps the productive goals, and counts over them. Cycles among
// productive goals mean infinitely many derivations. Slow and simple, for
// small inputs.
func bruteCount(gr *Graph, n *Node, s string) (count uint64, infinite bool) {
	b := &bruteCounter{s: s, nodes: gr.Nodes, alts: map[bruteGoal][][]bruteGoal{}}
	root := bruteGoal{n.ID, -1, 0, len(s)}
	b.explore(root)
	// Productive goals: least fixpoint.
	prod := map[bruteGoal]bool{}
	for changed := true; changed; {
		changed = false
		for g, alts := range b.alts {
			if prod[g] {
				continue
			}
			for _, alt := range alts {
				ok := true
				for _, x := range alt {
					ok = ok && prod[x]
				}
				if ok {
					prod[g] = true
					changed = true
					break
				}
			}
		}
	}
	if !prod[root] {
		return 0, false
	}
	// Keep the alternatives whose subgoals are all productive; a cycle
	// among them reachable from the root is an infinity of derivations.
	live := map[bruteGoal][][]bruteGoal{}
	for g, alts := range b.alts {
		for _, alt := range alts {
			ok := prod[g]
			for _, x := range alt {
				ok = ok && prod[x]
			}
			if ok {
				live[g] = append(live[g], alt)
			}
		}
	}
	state := map[bruteGoal]int{} // 1 in progress, 2 done
	memo := map[bruteGoal]uint64{}
	var countGoal func(g bruteGoal) uint64
	countGoal = func(g bruteGoal) uint64 {
		switch state[g] {
		case 1:
			infinite = true
			return 0
		case 2:
			return memo[g]
		}
		state[g] = 1
		var sum uint64
		for _, alt := range live[g] {
			p := uint64(1)
			for _, x := range alt {
				p = bruteMul(p, countGoal(x))
			}
			sum = bruteAdd(sum, p)
		}
		state[g] = 2
		memo[g] = sum
		return sum
	}
	c := countGoal(root)
	if infinite {
		// Counts met inside a cycle miss the derivations through it.
		c = bruteMany
	}
	return c, infinite
}

// A bruteGoal is: graph node id derives s[i:j] (state -1), or the
// elements state.. of a concatenation do, or a quantifier that has made
// state-1<<20 repetitions (capped at Min when unbounded) completes.
type bruteGoal struct{ id, state, i, j int }

type bruteCounter struct {
	s     string
	nodes []*Node
	alts  map[bruteGoal][][]bruteGoal
}

const bruteMany = 1 << 62

func bruteMul(a, b uint64) uint64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > bruteMany/b {
		return bruteMany
	}
	return a * b
}

func bruteAdd(a, b uint64) uint64 { return min(a+b, bruteMany) }

// explore builds the alternatives of every goal reachable from root.
func (b *bruteCounter) explore(root bruteGoal) {
	queue := []bruteGoal{root}
	b.alts[root] = nil
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		alts := b.goalAlts(g)
		b.alts[g] = alts
		for _, alt := range alts {
			for _, x := range alt {
				if _, ok := b.alts[x]; !ok {
					b.alts[x] = nil
					queue = append(queue, x)
				}
			}
		}
	}
}

// goalAlts returns the alternatives of goal g.
func (b *bruteCounter) goalAlts(g bruteGoal) [][]bruteGoal {
	n := b.nodes[g.id]
	var alts [][]bruteGoal
	// derive adds the alternative: c derives s[i:m], and then the goals in
	// rest (if any).
	derive := func(c *Node, i, m int, rest ...bruteGoal) {
		switch c.Kind {
		case KindLit:
			if b.s[i:m] == c.Lit {
				alts = append(alts, rest)
			}
		case KindClass:
			if i < m && classHas(c, b.s[i:m]) {
				alts = append(alts, rest)
			}
		default:
			alts = append(alts, append([]bruteGoal{{c.ID, -1, i, m}}, rest...))
		}
	}
	switch {
	case g.state == -1:
		switch n.Kind {
		case KindRef:
			derive(n.Children[0], g.i, g.j)
		case KindAlt:
			for _, c := range n.Children {
				derive(c, g.i, g.j)
			}
		case KindSeq:
			alts = append(alts, []bruteGoal{{n.ID, 0, g.i, g.j}})
		case KindRepeat:
			alts = append(alts, []bruteGoal{{n.ID, 1 << 20, g.i, g.j}})
		default:
			derive(n, g.i, g.j)
		}
	case n.Kind == KindSeq:
		k := g.state
		if k == len(n.Children) {
			if g.i == g.j {
				alts = append(alts, nil)
			}
			break
		}
		for m := g.i; m <= g.j; m++ {
			derive(n.Children[k], g.i, m, bruteGoal{n.ID, k + 1, m, g.j})
		}
	default: // a quantifier after c repetitions
		c := g.state - 1<<20
		if c >= n.Min && g.i == g.j {
			alts = append(alts, nil)
		}
		if n.Max != Unbounded && c >= n.Max {
			break
		}
		next := c + 1
		if n.Max == Unbounded {
			next = min(next, n.Min)
		}
		for m := g.i; m <= g.j; m++ {
			derive(n.Children[0], g.i, m, bruteGoal{n.ID, next + 1<<20, m, g.j})
		}
	}
	return alts
}

func TestEarleyCounts(t *testing.T) {
	const inf = math.MaxUint64
	tests := []struct {
		grammar string
		input   string
		count   uint64 // 0: rejected
	}{
		{`<s> ::= "a" ;`, "a", 1},
		{`<s> ::= "a" ;`, "", 0},
		{`<s> ::= "a" ;`, "aa", 0},
		{`<s> ::= "" ;`, "", 1},
		{`<s> ::= "a" | "a" ;`, "a", 2},
		{`<s> ::= <s> <s> | "a" ;`, "a", 1},
		{`<s> ::= <s> <s> | "a" ;`, "aaaa", 5},         // Catalan(3)
		{`<s> ::= <s> <s> | "a" ;`, "aaaaaaaaa", 1430}, // Catalan(8)
		{`<s> ::= <s> | "a" ;`, "a", inf},
		{`<s> ::= <s> <s> | "a" | "" ;`, "", inf},
		{`<s> ::= <a> <a> ; <a> ::= "" | "x" ;`, "x", 2},
		{`<s> ::= <a> <a> ; <a> ::= "" | "x" ;`, "", 1},
		{`<s> ::= "a"{2,4} ;`, "a", 0},
		{`<s> ::= "a"{2,4} ;`, "aa", 1},
		{`<s> ::= "a"{2,4} ;`, "aaaa", 1},
		{`<s> ::= "a"{2,4} ;`, "aaaaa", 0},
		{`<s> ::= "a"{3} ;`, "aaa", 1},
		{`<s> ::= "a"{3,} ;`, "aaaaaa", 1},
		{`<s> ::= "a"{3,} ;`, "aa", 0},
		{`<s> ::= ("a" | "aa")* ;`, "aaaaa", 8}, // Fibonacci
		{`<s> ::= "ab"{9,} ;`, strings.Repeat("ab", 8), 0},
		{`<s> ::= "ab"{9,} ;`, strings.Repeat("ab", 9), 1},
		{`<s> ::= "ab"{9,} ;`, strings.Repeat("ab", 30), 1},
		{`<s> ::= "a"{20,22} ;`, strings.Repeat("a", 21), 1},
		{`<s> ::= "a"{20,22} ;`, strings.Repeat("a", 23), 0},
		{`<s> ::= ("a" | "aa"){0,100} ;`, strings.Repeat("a", 6), 13},               // Fibonacci
		{`<s> ::= ("a" | "aa"){0,30} "b" ;`, strings.Repeat("a", 25) + "b", 121393}, // Fibonacci(26)
		{`<s> ::= ("a" | "aa"){0,2} ;`, "aaa", 2},
		{`<s> ::= ""* ;`, "", inf},
		{`<s> ::= ("" | "a")+ ;`, "aa", inf},
		{`<s> ::= ""{0,3} ;`, "", 4},
		{`<s> ::= "a"? "a"? ;`, "a", 2},
		{`<s> ::= "a"? "a"? ;`, "", 1},
		{`<l> ::= "x" <l> | "" ;`, "xxxxxxx", 1},
		{`<l> ::= <l> "x" | "" ;`, "xxxxxxx", 1},
		{`<e> ::= <e> "+" <e> | "1" ;`, "1+1+1+1", 5},
		{`<s> ::= [α-ω]+ ;`, "αβγ", 1},
		{`<s> ::= [α-ω]+ ;`, "αβ\xb3", 0},
		{`<s> ::= [^a] ;`, "é", 1},
		{`<s> ::= [^a] ;`, "\xc3", 0},
		{`<s> ::= [^a] ;`, "\xed\xa0\x80", 0}, // an encoded surrogate is not UTF-8
		{`<s> ::= [\x80-\xff] ;`, "\xc3", 1},
		{`<s> ::= [\x80-\xff]* ;`, "é", 1},
		{`<s> ::= [^\x00\x80] ;`, "\xff", 1},
		{`<s> ::= [^\x00] ;`, "\xff", 0}, // a rune class: invalid UTF-8 never matches
		{`<s> ::= "\xff\x00" ;`, "\xff\x00", 1},
		{`<s> ::= <a> ; <a> ::= <b> ; <b> ::= <c> ; <c> ::= "z" ;`, "z", 1},
		{`<s> ::= <a> | <b> ; <a> ::= "x" <b>? ; <b> ::= "x"+ ;`, "xxx", 2},
	}
	for _, tc := range tests {
		p := earleyParser(t, tc.grammar)
		f, err := p.Parse([]byte(tc.input))
		if tc.count == 0 {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%s on %q: got %v, want a syntax error", tc.grammar, tc.input, err)
			}
			if err := p.Recognize([]byte(tc.input)); !errors.As(err, &se) {
				t.Errorf("%s on %q: Recognize: got %v, want a syntax error", tc.grammar, tc.input, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s on %q: %v", tc.grammar, tc.input, err)
			continue
		}
		if err := p.Recognize([]byte(tc.input)); err != nil {
			t.Errorf("%s on %q: Recognize: %v", tc.grammar, tc.input, err)
		}
		if got := countOf(f); got != tc.count {
			t.Errorf("%s on %q: Count() = %d, want %d", tc.grammar, tc.input, got, tc.count)
		}
		if got, want := f.Infinite(), tc.count == inf; got != want {
			t.Errorf("%s on %q: Infinite() = %v", tc.grammar, tc.input, got)
		}
		if got, want := f.Ambiguous(), tc.count > 1; got != want {
			t.Errorf("%s on %q: Ambiguous() = %v", tc.grammar, tc.input, got)
		}
		tr := f.Tree()
		if tr.String() != tc.input {
			t.Errorf("%s on %q: Tree derives %q", tc.grammar, tc.input, tr.String())
		}
		if err := checkTree(tr); err != nil {
			t.Errorf("%s on %q: Tree: %v", tc.grammar, tc.input, err)
		}
		if bc, binf := bruteCount(p.Graph(), p.Start(), tc.input); binf != (tc.count == inf) || (!binf && bc != tc.count) {
			t.Errorf("%s on %q: the brute-force count is %d (infinite %v); the table is wrong", tc.grammar, tc.input, bc, binf)
		}
	}
}

// TestEarleySaturation checks that Count saturates on a finite but huge
// number of parses without calling it infinite.
func TestEarleySaturation(t *testing.T) {
	p := earleyParser(t, `<s> ::= <s> <s> | "a" ;`)
	f, err := p.Parse([]byte(strings.Repeat("a", 40)))
	if err != nil {
		t.Fatal(err)
	}
	if n, exact := f.Count(); n != math.MaxUint64 || exact || f.Infinite() || !f.Ambiguous() {
		t.Errorf("Catalan(39) parses: Count() = %d, %v, Infinite() = %v", n, exact, f.Infinite())
	}
	// Catalan(35) = 3,116,285,494,907,301,262 still fits: exact.
	f, err = p.Parse([]byte(strings.Repeat("a", 36)))
	if err != nil {
		t.Fatal(err)
	}
	if n, exact := f.Count(); n != 3116285494907301262 || !exact {
		t.Errorf("Catalan(35) parses: Count() = %d, %v", n, exact)
	}
	if got := len(f.Trees(7)); got != 7 {
		t.Errorf("Trees(7) returned %d trees", got)
	}
}

func TestEarleyTreeValues(t *testing.T) {
	p := earleyParser(t, `<s> ::= <w> ("," <w>)* ; <w> ::= [^,]+ ;`)
	f, err := p.Parse([]byte("héllo,\xe2\x82\xac,x"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	f.Tree().Walk(func(u *Tree) bool {
		if u.Node.Kind == KindClass || u.Node.Kind == KindLit {
			got = append(got, u.Value)
		}
		return true
	})
	want := []string{"h", "é", "l", "l", "o", ",", "€", ",", "x"}
	if !slices.Equal(got, want) {
		t.Errorf("leaf values %q, want %q", got, want)
	}
}

// TestEarleyTreeShape pins the tree of a small input: the graph nodes of
// references, alternatives, concatenations and quantifiers, as Generate
// builds them.
func TestEarleyTreeShape(t *testing.T) {
	p := earleyParser(t, `<s> ::= <d>+ ("." <d>*)? | "-" ; <d> ::= [0-9] ;`)
	f, err := p.Parse([]byte("12."))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := f.Tree().Format(&b, true); err != nil {
		t.Fatal(err)
	}
	want := `alt#0
  seq#1
    repeat+#2
      <d>#3  "1"
        "1"#4
      <d>#3  "2"
        "2"#4
    repeat?#5
      seq#6
        "."#7
        repeat*#8
`
	if b.String() != want {
		t.Errorf("tree:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestEarleyParseFrom(t *testing.T) {
	gr := MustCompile(MustBuiltin("json"))
	p, err := NewParser(gr, ParseFrom("number"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Parse([]byte("-12.5e3"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Tree().Node != gr.RHS("number") || p.Start() != gr.RHS("number") {
		t.Errorf("root %s, want the right-hand side of <number>", f.Tree().Node)
	}
	if _, err := p.Parse([]byte("[1]")); err == nil {
		t.Error("ParseFrom(number) accepts an array")
	}
	if _, err := NewParser(gr, ParseFrom("nosuch")); err == nil || !strings.Contains(err.Error(), "<nosuch>") {
		t.Errorf("NewParser(ParseFrom(nosuch)) = %v, want an error naming <nosuch>", err)
	}
}

// TestEarleyLargeQuantifiers checks quantifiers with large counts: they
// parse when the expanded grammar stays within bounds, and NewParser
// refuses grammars that would not.
func TestEarleyLargeQuantifiers(t *testing.T) {
	p := earleyParser(t, `<s> ::= "ab"{0,65536} ;`)
	for _, n := range []int{0, 1, 1000, 65536} {
		if err := p.Recognize([]byte(strings.Repeat("ab", n))); err != nil {
			t.Errorf("%d repetitions: %v", n, err)
		}
	}
	if err := p.Recognize([]byte(strings.Repeat("ab", 65537))); err == nil {
		t.Error("65537 repetitions accepted")
	}
	g, err := Parse("big.bnf", []byte(`<s> ::= "abcdefghijklmnopqrstuvwxyz"{0,65536} "ABCDEFGHIJKLMNOPQRSTUVWXYZ"{0,65536} "0123456789"{0,65536} ;`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewParser(MustCompile(g)); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("NewParser of a huge expansion: %v, want a too-large error", err)
	}
}

func TestEarleySyntaxErrors(t *testing.T) {
	p := earleyParser(t, `
<json> ::= <ws> <value> <ws> ;
<value> ::= "true" | "null" | <num> | "[" <ws> (<value> <ws> ("," <ws> <value> <ws>)*)? "]" ;
<num> ::= [0-9]+ ;
<ws> ::= [ \n]* ;
`)
	tests := []struct {
		input     string
		off       int
		line, col int
		found     string
		expected  []string
	}{
		{"", 0, 1, 1, "EOF", []string{`"["`, `"null"`, `"true"`, `[ \n]`, `[0-9]`}},
		{"tru", 3, 1, 4, "EOF", []string{`"true"`}},
		{"trux", 3, 1, 4, `'x'`, []string{`"true"`}},
		{"[1 2]", 3, 1, 4, `'2'`, []string{`","`, `"]"`, `[ \n]`}},
		{"[1,\n\n  ]", 7, 3, 3, `']'`, []string{`"["`, `"null"`, `"true"`, `[ \n]`, `[0-9]`}},
		{"[1]x", 3, 1, 4, `'x'`, []string{`[ \n]`}},
		{"12é", 2, 1, 3, `'é'`, []string{`[ \n]`, `[0-9]`}},
		{"1\xff", 1, 1, 2, `"\xff"`, []string{`[ \n]`, `[0-9]`}},
		{"[\n1\n", 4, 3, 1, "EOF", []string{`","`, `"]"`, `[ \n]`}},
	}
	for _, tc := range tests {
		_, err := p.Parse([]byte(tc.input))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want a *SyntaxError", tc.input, err)
			continue
		}
		if se.Offset != tc.off || se.Line != tc.line || se.Col != tc.col || se.Found != tc.found || !slices.Equal(se.Expected, tc.expected) {
			t.Errorf("%q: got offset %d %d:%d found %s expected %q\nwant offset %d %d:%d found %s expected %q",
				tc.input, se.Offset, se.Line, se.Col, se.Found, se.Expected, tc.off, tc.line, tc.col, tc.found, tc.expected)
		}
		err2 := p.Recognize([]byte(tc.input))
		if err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%q: Recognize error %v, Parse error %v", tc.input, err2, err)
		}
	}
	_, err := p.Parse([]byte("[1 2]"))
	if want := `1:4: unexpected '2', expected one of ",", "]", [ \n]`; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
	_, err = p.Parse([]byte("tru"))
	if want := `1:4: unexpected EOF, expected "true"`; err.Error() != want {
		t.Errorf("Error() = %q, want %q", err.Error(), want)
	}
}

func TestEarleyItemLimit(t *testing.T) {
	p := earleyParser(t, `<s> ::= <s> <s> | "a" ;`, MaxItems(10000))
	in := []byte(strings.Repeat("a", 200))
	_, err := p.Parse(in)
	if !errors.Is(err, ErrItemLimit) {
		t.Fatalf("Parse of a highly ambiguous input: %v, want ErrItemLimit", err)
	}
	if !strings.Contains(err.Error(), "10000") || !strings.Contains(err.Error(), "MaxItems") {
		t.Errorf("error %q does not name the limit and the option that raises it", err)
	}
	var le *ItemLimitError
	if !errors.As(err, &le) || le.Limit != 10000 || le.Len != 200 || le.Offset <= 0 || le.Offset > 200 {
		t.Errorf("error %#v: want an ItemLimitError with the limit, offset and length", err)
	}
	if err := p.Recognize(in); !errors.Is(err, ErrItemLimit) {
		t.Errorf("Recognize: %v, want ErrItemLimit", err)
	}
	// Within the limit the same parser works.
	f, err := p.Parse(in[:12])
	if err != nil {
		t.Fatal(err)
	}
	if countOf(f) != 58786 { // Catalan(11)
		t.Errorf("Count() = %d, want 58786", countOf(f))
	}
}

// TestEarleyLinear checks that the forest of unambiguous inputs grows
// linearly, for left recursion, right recursion (Leo's optimization) and
// nesting.
func TestEarleyLinear(t *testing.T) {
	tests := []struct {
		grammar string
		input   func(n int) string
	}{
		{`<l> ::= "x" <l> | "" ;`, func(n int) string { return strings.Repeat("x", n) }},
		{`<l> ::= "x" "," <l> | "x" ;`, func(n int) string { return strings.Repeat("x,", n) + "x" }},
		{`<l> ::= <l> "x" | "" ;`, func(n int) string { return strings.Repeat("x", n) }},
		{`<l> ::= "x"* ;`, func(n int) string { return strings.Repeat("x", n) }},
		{`<a> ::= "(" <a> ")" | "" ;`, func(n int) string { return strings.Repeat("(", n) + strings.Repeat(")", n) }},
		{`<s> ::= <a> ; <a> ::= "y" <b> | "" ; <b> ::= "z" <a> ;`, func(n int) string { return strings.Repeat("yz", n) }},
		// One byte of lookahead does not tell where the recursion ends:
		// without Leo's optimization every "ab" completes all the <l> so far.
		{`<s> ::= <l> "ac" ; <l> ::= "ab" <l> | "" ;`, func(n int) string { return strings.Repeat("ab", n) + "ac" }},
		{`<s> ::= <l> "ac" ; <l> ::= "a" <m> | "" ; <m> ::= "b" <l> ;`, func(n int) string { return strings.Repeat("ab", n) + "ac" }},
		{`<s> ::= <l> "ac" ; <l> ::= ("ab" | "ad" <l> "ae") <l> | "" ;`, func(n int) string { return strings.Repeat("abadabaeab", n) + "ac" }},
		// A bounded quantifier is a long chain of right-recursive helpers.
		{`<s> ::= "ab"{0,30000} "ac" ;`, func(n int) string { return strings.Repeat("ab", n) + "ac" }},
	}
	for _, tc := range tests {
		p := earleyParser(t, tc.grammar)
		var perByte []float64
		for _, n := range []int{100, 1000, 10000} {
			in := tc.input(n)
			f, err := p.Parse([]byte(in))
			if err != nil {
				t.Fatalf("%s: %v", tc.grammar, err)
			}
			if countOf(f) != 1 {
				t.Fatalf("%s: Count() = %d", tc.grammar, countOf(f))
			}
			tr := f.Tree()
			if tr.String() != in {
				t.Fatalf("%s: tree derives another input", tc.grammar)
			}
			if err := checkTree(tr); err != nil {
				t.Fatalf("%s: %v", tc.grammar, err)
			}
			perByte = append(perByte, float64(f.Size())/float64(len(in)))
		}
		if perByte[2] > 1.1*perByte[0]+1 {
			t.Errorf("%s: forest size per byte grows: %.2f", tc.grammar, perByte)
		}
	}
}

func TestEarleyTrees(t *testing.T) {
	p := earleyParser(t, `<e> ::= <e> "+" <e> | <e> "*" <e> | [0-9] ;`)
	f, err := p.Parse([]byte("1+2*3+4"))
	if err != nil {
		t.Fatal(err)
	}
	if countOf(f) != 5 {
		t.Fatalf("Count() = %d, want 5", countOf(f))
	}
	trees := f.Trees(100)
	if len(trees) != 5 {
		t.Fatalf("Trees(100) returned %d trees, want 5", len(trees))
	}
	if !trees[0].Equal(f.Tree()) {
		t.Error("Trees()[0] is not Tree()")
	}
	for i, a := range trees {
		if a.String() != "1+2*3+4" {
			t.Errorf("tree %d derives %q", i, a.String())
		}
		if err := checkTree(a); err != nil {
			t.Errorf("tree %d: %v", i, err)
		}
		for _, b := range trees[:i] {
			if a.Equal(b) {
				t.Errorf("tree %d is a duplicate", i)
			}
		}
	}
	if got := len(f.Trees(3)); got != 3 {
		t.Errorf("Trees(3) returned %d trees", got)
	}
	// The trees share no nodes: changing one leaves the others alone.
	trees[1].Children = nil
	if trees[2].String() != "1+2*3+4" {
		t.Error("trees share nodes")
	}

	// A cyclic forest has infinitely many trees; Trees returns finite ones.
	p = earleyParser(t, `<s> ::= <s> | "a" | <s> "" ;`)
	f, err = p.Parse([]byte("a"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Infinite() {
		t.Error("Infinite() = false for a cyclic forest")
	}
	trees = f.Trees(10)
	if len(trees) == 0 || len(trees) > 10 {
		t.Fatalf("Trees(10) on a cyclic forest returned %d trees", len(trees))
	}
	for i, a := range trees {
		if a.String() != "a" || checkTree(a) != nil {
			t.Errorf("tree %d is wrong: %s", i, a.Outline())
		}
		for _, b := range trees[:i] {
			if a.Equal(b) {
				t.Errorf("tree %d is a duplicate", i)
			}
		}
	}
}

func TestEarleyConcurrent(t *testing.T) {
	gr := MustCompile(MustBuiltin("json"))
	p, err := NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := gr.PathTable(3)
	if err != nil {
		t.Fatal(err)
	}
	in := benchJSON(2000, 3)
	f0, err := p.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	want := f0.Tree()
	// A forest no goroutine has read yet: Tree, Count, Trees and
	// ForestPaths at once, which expand it (in part or whole) or not.
	f1, err := p.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok := true
			switch w {
			case 0:
				ok = f1.Tree().Equal(want)
			case 1:
				ok = countOf(f1) == 1
			case 2:
				trees := f1.Trees(2)
				ok = len(trees) == 1 && trees[0].Equal(want)
			default:
				ok = pt.ForestPaths(f1).equal(pt.Paths(want))
			}
			if !ok {
				t.Errorf("goroutine %d: a first read of a shared forest differs", w)
			}
		}()
	}
	wg.Wait()
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				f, err := p.Parse(in)
				if err != nil {
					t.Error(err)
					return
				}
				if !f.Tree().Equal(want) || countOf(f) != 1 {
					t.Error("concurrent parse differs")
				}
				if err := p.Recognize(in); err != nil {
					t.Error(err)
				}
				if err := p.Recognize(in[:len(in)/2]); err == nil {
					t.Error("Recognize accepts half a document")
				}
			}
			// One forest read by several goroutines.
			if countOf(f0) != 1 || !pt.ForestPaths(f0).equal(pt.Paths(want)) {
				t.Error("concurrent forest reads differ")
			}
		}()
	}
	wg.Wait()
}

// equal reports whether two path sets of one table are equal.
func (s PathSet) equal(t PathSet) bool { return slices.Equal(s, t) }

// TestEarleyUTF8Sequences checks the byte-range sequences that rune classes
// compile to: the encoding of every Unicode scalar value matches exactly
// one sequence if the value is in the set and none otherwise, and byte
// strings that are not UTF-8 (overlong forms, surrogates, values above
// U+10FFFF, truncated or stray bytes) match none.
func TestEarleyUTF8Sequences(t *testing.T) {
	sets := [][]Range{
		{{0, 0x10FFFF}},
		{{'a', 'z'}, {0x7F, 0x80}, {0x7FF, 0x800}, {0xD7FF, 0xD7FF}, {0xE000, 0xE000}, {0xFFFF, 0x10000}, {0x10FFFF, 0x10FFFF}},
		{{0x20, 0x21}, {0x23, 0x5B}, {0x5D, 0x10FFFF}},
		{{0x3B1, 0x3C9}, {0x4E00, 0x9FFF}, {0x1F600, 0x1F64F}},
	}
	matches := func(seq []byteRange, b []byte) bool {
		if len(seq) != len(b) {
			return false
		}
		for i, r := range seq {
			if b[i] < r.lo || b[i] > r.hi {
				return false
			}
		}
		return true
	}
	count := func(seqs [][]byteRange, b []byte) int {
		n := 0
		for _, seq := range seqs {
			if matches(seq, b) {
				n++
			}
		}
		return n
	}
	for _, set := range sets {
		set = (&Class{Ranges: set}).Set() // normalized, surrogates removed
		seqs := utf8Sequences(set)
		in := func(r rune) bool {
			for _, rg := range set {
				if rg.Lo <= r && r <= rg.Hi {
					return true
				}
			}
			return false
		}
		var buf [4]byte
		for r := rune(0); r <= utf8.MaxRune; r++ {
			if r >= 0xD800 && r <= 0xDFFF {
				continue
			}
			n := utf8.EncodeRune(buf[:], r)
			want := 0
			if in(r) {
				want = 1
			}
			if got := count(seqs, buf[:n]); got != want {
				t.Fatalf("set %v: U+%04X matches %d sequences, want %d", set, r, got, want)
			}
		}
		// Every byte string of length 1 and 2 that is not one UTF-8
		// character, and a sample of longer ones, matches nothing.
		for a := 0; a < 256; a++ {
			for b := -1; b < 256; b++ {
				s := []byte{byte(a)}
				if b >= 0 {
					s = append(s, byte(b))
				}
				if r, size := utf8.DecodeRune(s); size == len(s) && r != utf8.RuneError {
					continue
				}
				if count(seqs, s) != 0 {
					t.Fatalf("set %v: %q matches", set, s)
				}
			}
		}
		for _, s := range []string{"\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x80\x80\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff\xff\xff", "\xe2\x82"} {
			if count(seqs, []byte(s)) != 0 {
				t.Errorf("set %v: %q matches", set, s)
			}
		}
	}
}
