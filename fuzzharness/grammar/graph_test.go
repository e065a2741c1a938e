package grammar

import (
	"fmt"
	"strings"
	"testing"
)

// exprSrc is the expression grammar of TRIBBLE's Fig. 1.
const exprSrc = `
<Expr> ::= <AddExpr> ;
<AddExpr> ::= <MultExpr> | <AddExpr> ("+" | "-") <MultExpr> ;
<MultExpr> ::= <UnaryExpr> | <MultExpr> ("*" | "/" | "%") <UnaryExpr> ;
<UnaryExpr> ::= <Identifier> | "+" <UnaryExpr> | "-" <UnaryExpr> | "++" <UnaryExpr> | "--" <UnaryExpr>
	| "(" <AddExpr> ")" | <DecDigits> ;
<DecDigits> ::= <DecDigit>+ ;
<DecDigit> ::= "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" ;
<Identifier> ::= "x" | "y" | "z" ;
`

func mustGraph(t testing.TB, src string, opts ...CompileOption) *Graph {
	t.Helper()
	g, err := Parse("test.bnf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	gr, err := Compile(g, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return gr
}

func TestGraphShape(t *testing.T) {
	gr := mustGraph(t, exprSrc)
	if gr.Root.Kind != KindRef || gr.Root.Name != "AddExpr" || gr.Root.ID != 0 {
		t.Fatalf("root = %v, want the reference <AddExpr>#0", gr.Root)
	}
	// A reference's child is the right-hand side of its rule, shared.
	for _, n := range gr.Nodes {
		if n.Kind == KindRef && n.Children[0] != gr.RHS(n.Name) {
			t.Errorf("%v: child %v is not the right-hand side of <%s>", n, n.Children[0], n.Name)
		}
		if gr.Nodes[n.ID] != n {
			t.Errorf("node %v is not at its ID", n)
		}
	}
	add := gr.RHS("AddExpr")
	if add.Kind != KindAlt || len(add.Children) != 2 || add.Children[1].Kind != KindSeq {
		t.Fatalf("<AddExpr> right-hand side = %v with %d children", add, len(add.Children))
	}
	if op := add.Children[1].Children[1]; op.Kind != KindAlt || len(op.Children) != 2 {
		t.Errorf("the group (\"+\" | \"-\") became %v", op)
	}
	if d := gr.RHS("DecDigits"); d.Kind != KindRepeat || d.Min != 1 || d.Max != Unbounded {
		t.Errorf("<DecDigits> right-hand side = %v", d)
	}
	// Minimal derivations: "x" or a digit: AddExpr, MultExpr, UnaryExpr, Identifier.
	if gr.Root.MinDepth != 4 || gr.Root.MinLen != 1 {
		t.Errorf("root MinDepth, MinLen = %d, %d; want 4, 1", gr.Root.MinDepth, gr.Root.MinLen)
	}
	if s := Shortest(gr.Root); s.String() != "x" || s.Size() != gr.Root.MinSize || s.Depth() != 4 {
		t.Errorf("Shortest = %q (size %d, depth %d), want \"x\" of size MinSize %d", s, s.Size(), s.Depth(), gr.Root.MinSize)
	}
}

func TestKPathCountsExpr(t *testing.T) {
	// TRIBBLE section 3.2 and NOTES.md.
	want := []uint64{39, 125, 523, 2331, 10245}
	gr := mustGraph(t, exprSrc)
	for k, w := range want {
		if got := gr.CountKPaths(k + 1); got != w {
			t.Errorf("CountKPaths(%d) = %d, want %d", k+1, got, w)
		}
	}
	pt, err := gr.PathTable(5)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range want {
		if got := pt.Count(k + 1); uint64(got) != w {
			t.Errorf("PathTable.Count(%d) = %d, want %d", k+1, got, w)
		}
	}
	// IDs round-trip through paths.
	for id := range pt.Len() {
		if got, ok := pt.ID(pt.Path(id)); !ok || got != id {
			t.Fatalf("ID(Path(%d)) = %d, %v", id, got, ok)
		}
	}
}

func TestKPathsByNonterminal(t *testing.T) {
	gr := mustGraph(t, exprSrc, WithIdentity(ByNonterminal))
	// 6 nonterminals referenced (AddExpr, MultExpr, UnaryExpr, Identifier,
	// DecDigits, DecDigit) plus 24 literal occurrences.
	if got := gr.CountKPaths(1); got != 30 {
		t.Errorf("1-paths by nonterminal = %d, want 30", got)
	}
	// Distinct successors: AddExpr 4, MultExpr 5, UnaryExpr 10, DecDigits 1,
	// DecDigit 10, Identifier 3.
	if got := gr.CountKPaths(2); got != 33 {
		t.Errorf("2-paths by nonterminal = %d, want 33", got)
	}
}

func TestTreeKPathsAndCoverage(t *testing.T) {
	gr := mustGraph(t, exprSrc)
	pt, err := gr.PathTable(2)
	if err != nil {
		t.Fatal(err)
	}
	// Build the tree of "x+42" by following the grammar by hand.
	tree := buildExprTree(t, gr)
	if tree.String() != "x+42" {
		t.Fatalf("tree derives %q", tree)
	}
	covered, total := pt.Coverage(2, tree)
	if covered != 12 || total != 125 {
		t.Errorf("pathcov_2(x+42) = %d/%d, want 12/125", covered, total)
	}
	// 1-paths: AddExpr0 AddExpr5 MultExpr2 MultExpr7 UnaryExpr8 Identifier
	// "x" "+" DecDigits DecDigit "4" "2" (both UnaryExpr are one node).
	if c, tot := pt.Coverage(1, tree); c != 12 || tot != 39 {
		t.Errorf("pathcov_1(x+42) = %d/%d, want 12/39", c, tot)
	}
}

// buildExprTree derives "x+42" in the expression grammar by choosing
// alternatives and repetition counts explicitly.
func buildExprTree(t *testing.T, gr *Graph) *Tree {
	t.Helper()
	// choose fills open slots in pre-order: for an alternation the next
	// choice is the index of the alternative, for a quantifier the count, for
	// a class the character.
	choices := []int{
		1,    // AddExpr: AddExpr op MultExpr
		0,    // AddExpr: MultExpr
		0,    // MultExpr: UnaryExpr
		0,    // UnaryExpr: Identifier
		0,    // Identifier: "x"
		0,    // op: "+"
		0,    // MultExpr: UnaryExpr
		6,    // UnaryExpr: DecDigits
		2,    // DecDigit+: 2 repetitions
		4, 2, // "4", "2"
	}
	root := NewOpen(gr.Root)
	var fill func(s *Tree)
	fill = func(s *Tree) {
		n := s.Node
		s.Open = false
		switch n.Kind {
		case KindLit:
			s.Value = n.Lit
		case KindRef, KindSeq:
			for _, c := range n.Children {
				s.Children = append(s.Children, NewOpen(c))
			}
		case KindAlt:
			s.Children = []*Tree{NewOpen(n.Children[choices[0]])}
			choices = choices[1:]
		case KindRepeat:
			for range choices[0] {
				s.Children = append(s.Children, NewOpen(n.Children[0]))
			}
			choices = choices[1:]
		}
		for _, c := range s.Children {
			fill(c)
		}
	}
	fill(root)
	return root
}

func TestGeneratorBoundsAndDeterminism(t *testing.T) {
	gr := mustGraph(t, exprSrc)
	for _, lim := range []struct{ depth, size int }{{4, 1000}, {6, 30}, {12, 60}, {24, 2000}} {
		g1, g2 := NewGenerator(gr, 7), NewGenerator(gr, 7)
		g1.MaxDepth, g1.MaxSize = lim.depth, lim.size
		g2.MaxDepth, g2.MaxSize = lim.depth, lim.size
		distinct := map[string]bool{}
		for i := range 500 {
			a, err := g1.Generate()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := g2.Generate()
			if !a.Equal(b) {
				t.Fatalf("limits %v, input %d: same seed gave %q and %q", lim, i, a, b)
			}
			if !a.Complete() || a.Depth() > lim.depth || a.Size() > lim.size {
				t.Fatalf("limits %v: tree %q has depth %d, size %d, complete %v", lim, a, a.Depth(), a.Size(), a.Complete())
			}
			distinct[a.String()] = true
		}
		if lim.depth > 4 && len(distinct) < 50 {
			t.Errorf("limits %v: only %d distinct inputs of 500", lim, len(distinct))
		}
	}
	g := NewGenerator(gr, 1)
	g.MaxDepth = 3
	if _, err := g.Generate(); err == nil || !strings.Contains(err.Error(), "depth") {
		t.Errorf("depth 3 below the minimum 4: err = %v", err)
	}
	g.MaxDepth, g.MaxSize = 10, 5
	if _, err := g.Generate(); err == nil || !strings.Contains(err.Error(), "size") {
		t.Errorf("size 5 below the minimum: err = %v", err)
	}
}

func TestKPathTreesExpr(t *testing.T) {
	gr := mustGraph(t, exprSrc)
	for k := 1; k <= 5; k++ {
		for _, close := range []struct {
			name string
			fn   CloseFunc
		}{{"terse", CloseTerse}, {"random", NewGenerator(gr, 3).Complete}} {
			forest, err := gr.KPathTrees(k, close.fn)
			if err != nil {
				t.Fatalf("k=%d %s: %v", k, close.name, err)
			}
			pt, _ := gr.PathTable(k)
			if c, tot := pt.Coverage(k, forest...); c != tot {
				t.Errorf("k=%d %s: forest of %d covers %d/%d", k, close.name, len(forest), c, tot)
			}
			for _, tr := range forest {
				if !tr.Complete() {
					t.Fatalf("k=%d: incomplete tree %q", k, tr)
				}
			}
			t.Logf("k=%d %s: %d inputs", k, close.name, len(forest))
		}
	}
}

func TestTreeCloneEqualFormat(t *testing.T) {
	gr := mustGraph(t, exprSrc)
	tree := buildExprTree(t, gr)
	c := tree.Clone()
	if !c.Equal(tree) {
		t.Fatal("clone differs")
	}
	c.Children[0].Children[0] = NewOpen(c.Children[0].Children[0].Node)
	if c.Equal(tree) || tree.String() != "x+42" {
		t.Fatal("changing the clone changed the original, or Equal missed it")
	}
	out := tree.Outline()
	for _, want := range []string{`<AddExpr>#0  "x+42"`, `  <MultExpr>`, `"4"#`, `"+"#`} {
		if !strings.Contains(out, want) {
			t.Errorf("outline lacks %q:\n%s", want, out)
		}
	}
}

func TestClassMembers(t *testing.T) {
	gr := mustGraph(t, `<s> ::= [a-c\u00e9] [^\x00-\x7f\u0100-\U0010ffff] [\x00\xfe-\xff] ;`)
	var classes []*Node
	for _, n := range gr.Nodes {
		if n.Kind == KindClass {
			classes = append(classes, n)
		}
	}
	want := []int{4, 0x80, 3}
	for i, n := range classes {
		if n.ClassLen() != want[i] {
			t.Errorf("%v: ClassLen = %d, want %d", n, n.ClassLen(), want[i])
		}
		for j := range n.ClassLen() {
			if got := n.ClassIndex(n.ClassMember(j)); got != j {
				t.Fatalf("%v: ClassIndex(ClassMember(%d) = %q) = %d", n, j, n.ClassMember(j), got)
			}
		}
	}
	if got := classes[0].ClassMember(3); got != "é" {
		t.Errorf("member 3 of [a-cé] = %q", got)
	}
	if got := classes[2].ClassMember(2); got != "\xff" {
		t.Errorf("member 2 of the byte class = %q", got)
	}
	for _, s := range []string{"d", "", "ab", "\xff"} {
		if classes[0].ClassIndex(s) != -1 {
			t.Errorf("ClassIndex(%q) in [a-cé] is not -1", s)
		}
	}
}

func TestSymbolString(t *testing.T) {
	gr := mustGraph(t, exprSrc)
	for _, s := range gr.Symbols {
		if s.String() != s.Nodes[0].String() {
			t.Errorf("by occurrence: symbol %d prints %q, want %q", s.ID, s, s.Nodes[0])
		}
	}
	gn := mustGraph(t, exprSrc, WithIdentity(ByNonterminal))
	for _, s := range gn.Symbols {
		if s.Nodes[0].Kind == KindRef && s.String() != s.Label() {
			t.Errorf("by nonterminal: symbol %d prints %q, want %q", s.ID, s, s.Label())
		}
	}
}

// TestMinimaFixpoint compares the minima of Knuth's algorithm with a plain
// fixpoint iteration, on the built-in grammars and on a grammar whose
// cheapest derivations run against the node order (which takes the
// iteration one pass per rule, so that Compile falls back to Knuth's
// algorithm).
func TestMinimaFixpoint(t *testing.T) {
	var grammars []*Grammar
	for _, name := range BuiltinNames() {
		g, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		grammars = append(grammars, g)
	}
	var src strings.Builder
	src.WriteString("<r0> ::= \"z\" | <r1> ;\n")
	for i := 1; i < 50; i++ {
		fmt.Fprintf(&src, "<r%d> ::= <r%d> <r%d> \"q\" | \"a\" <r%d> ;\n", i, i+1, i+1, i-1)
	}
	src.WriteString("<r50> ::= \"a\" <r49> ;\n")
	back, err := Parse("back.bnf", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	grammars = append(grammars, back)
	for _, g := range grammars {
		gr, err := Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		m := newMinGraph(gr)
		if _, _, _, ok := m.byPasses(4); g == back && ok {
			t.Errorf("back.bnf: 4 passes find the minima; the test needs a grammar that takes more")
		}
		nn := len(gr.Nodes)
		depth, size, length := make([]int, nn), make([]int, nn), make([]int, nn)
		for i := range nn {
			depth[i], size[i], length[i] = inf, inf, inf
		}
		for changed := true; changed; {
			changed = false
			for i := range int32(nn) {
				d, s, l := minDepthOf(m, i, depth), minSizeOf(m, i, size), minLenOf(m, i, length)
				if d < depth[i] || s < size[i] || l < length[i] {
					depth[i], size[i], length[i] = min(d, depth[i]), min(s, size[i]), min(l, length[i])
					changed = true
				}
			}
		}
		kd, ks, kl := m.knuth(minDepthOf), m.knuth(minSizeOf), m.knuth(minLenOf)
		for i, n := range gr.Nodes {
			want := [3]int{depth[i], size[i], length[i]}
			if got := [3]int{kd[i], ks[i], kl[i]}; got != want {
				t.Errorf("%s: Knuth's depth/size/len %v, fixpoint %v", n, got, want)
			}
			if got := [3]int{n.MinDepth, n.MinSize, n.MinLen}; got != want {
				t.Errorf("%s: Compile's depth/size/len %v, fixpoint %v", n, got, want)
			}
		}
	}
}
