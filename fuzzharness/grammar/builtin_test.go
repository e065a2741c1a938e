package grammar

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"io"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// oracleInputs returns how many inputs each built-in grammar's oracle test
// generates, with the generator's default limits: 10,000, or 1,000 with
// -short.
func oracleInputs() int {
	if testing.Short() {
		return 1000
	}
	return 10000
}

var wantBuiltins = []string{"csv", "expr", "json", "rest", "scriptsizec", "tar", "tinyc", "url", "xml"}

func TestBuiltinNames(t *testing.T) {
	if got := BuiltinNames(); !slices.Equal(got, wantBuiltins) {
		t.Fatalf("BuiltinNames() = %q, want %q", got, wantBuiltins)
	}
}

func TestBuiltinUnknown(t *testing.T) {
	g, err := Builtin("yaml")
	if err == nil {
		t.Fatalf("Builtin(\"yaml\") = %v, want an error", g)
	}
	for _, name := range append([]string{`"yaml"`}, wantBuiltins...) {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not mention %s", err, name)
		}
	}
	if _, err := BuiltinSource("../builtin.go"); err == nil {
		t.Error("BuiltinSource accepted a path outside the catalog")
	}
	defer func() {
		if recover() == nil {
			t.Error("MustBuiltin(\"yaml\") did not panic")
		}
	}()
	MustBuiltin("yaml")
}

// TestBuiltinClean checks that every built-in grammar parses, has no
// problems (not even warnings), compiles, starts with a header comment, and
// survives a round trip through String and Parse.
func TestBuiltinClean(t *testing.T) {
	for _, name := range BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			src, err := BuiltinSource(name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(src, []byte("# "+name+": ")) {
				t.Errorf("source does not start with the header comment \"# %s: ...\"", name)
			}
			g, err := Builtin(name)
			if err != nil {
				t.Fatal(err)
			}
			if want := "builtin/" + name + ".bnf"; g.Rules[0].Pos.File != want {
				t.Errorf("positions name file %q, want %q", g.Rules[0].Pos.File, want)
			}
			for _, p := range g.Problems() {
				t.Errorf("problem: %s", p)
			}
			if _, err := Compile(g); err != nil {
				t.Fatalf("Compile: %v", err)
			}
			g2, err := Parse("", []byte(g.String()))
			if err != nil {
				t.Fatalf("reparsing String(): %v", err)
			}
			if !Equal(g, g2) {
				t.Error("String() does not reparse to an equal grammar")
			}
			if g3 := MustBuiltin(name); g3 == g || !Equal(g, g3) {
				t.Error("Builtin does not return a fresh, equal grammar on every call")
			}
		})
	}
}

// TestBuiltinExprKPaths checks the k-path counts of TRIBBLE's Fig. 1 grammar
// that the paper's construction gives.
func TestBuiltinExprKPaths(t *testing.T) {
	gr := MustCompile(MustBuiltin("expr"))
	want := []uint64{39, 125, 523, 2331, 10245}
	for k, w := range want {
		if got := gr.CountKPaths(k + 1); got != w {
			t.Errorf("CountKPaths(%d) = %d, want %d", k+1, got, w)
		}
	}
	if got := gr.Grammar.Start; got != "Expr" {
		t.Errorf("start symbol %q, want Expr", got)
	}
}

// generate derives n inputs from the named grammar with the given seed and
// default limits, checks that each tree is complete and within the limits,
// and calls check on it. It stops at the tenth failure.
func generate(t *testing.T, name string, seed uint64, n int, check func(tr *Tree) error) {
	t.Helper()
	gr := MustCompile(MustBuiltin(name))
	gen := NewGenerator(gr, seed)
	failures := 0
	for i := range n {
		tr, err := gen.Generate()
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		if !tr.Complete() {
			t.Fatalf("input %d: the tree has open slots", i)
		}
		if d, s := tr.Depth(), tr.Size(); d > gen.MaxDepth || s > gen.MaxSize {
			t.Fatalf("input %d: depth %d, size %d, over the limits %d, %d", i, d, s, gen.MaxDepth, gen.MaxSize)
		}
		if err := check(tr); err != nil {
			t.Errorf("input %d %q: %v", i, tr.String(), err)
			if failures++; failures == 10 {
				t.Fatal("too many failures")
			}
		}
	}
}

// refsNamed returns the subtrees of t that expand the nonterminal name, in
// pre-order, not looking inside them.
func refsNamed(t *Tree, name string) []*Tree {
	var out []*Tree
	t.Walk(func(u *Tree) bool {
		if u.Node.Kind == KindRef && u.Node.Name == name {
			out = append(out, u)
			return false
		}
		return true
	})
	return out
}

// symbolicChildren returns the nearest symbolic descendants of t: the
// elements of the alternative its rule took.
func symbolicChildren(t *Tree) []*Tree {
	var out []*Tree
	var walk func(u *Tree)
	walk = func(u *Tree) {
		for _, c := range u.Children {
			if c.Node.Symbolic() {
				out = append(out, c)
			} else {
				walk(c)
			}
		}
	}
	walk(t)
	return out
}

func TestBuiltinJSON(t *testing.T) {
	t.Parallel()
	objects := 0
	generate(t, "json", 1, oracleInputs(), func(tr *Tree) error {
		if len(refsNamed(tr, "object")) > 0 {
			objects++
		}
		if !json.Valid(tr.Bytes()) {
			return errors.New("encoding/json.Valid rejects it")
		}
		// Decode it too, keeping numbers as text: RFC 8259 sets no limit
		// on their range, so 1e400 is valid but overflows a float64.
		d := json.NewDecoder(bytes.NewReader(tr.Bytes()))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return fmt.Errorf("encoding/json: %v", err)
		}
		if err := d.Decode(&v); err != io.EOF {
			return fmt.Errorf("encoding/json: after the value: %v", err)
		}
		return nil
	})
	if objects == 0 {
		t.Error("no input holds an object")
	}
}

// csvField returns the value encoding/csv reads for a <field> or
// <lone-field> subtree: quoted fields lose their quotes, "" becomes ", and
// encoding/csv turns every CRLF into LF.
func csvField(f *Tree) string {
	s := f.String()
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	s = strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	return strings.ReplaceAll(s, "\r\n", "\n")
}

func TestBuiltinCSV(t *testing.T) {
	t.Parallel()
	generate(t, "csv", 2, oracleInputs(), func(tr *Tree) error {
		var want [][]string
		for _, rec := range refsNamed(tr, "record") {
			var fields []string
			rec.Walk(func(u *Tree) bool {
				if u != rec && u.Node.Kind == KindRef && (u.Node.Name == "field" || u.Node.Name == "lone-field") {
					fields = append(fields, csvField(u))
					return false
				}
				return true
			})
			want = append(want, fields)
		}
		r := csv.NewReader(bytes.NewReader(tr.Bytes()))
		r.FieldsPerRecord = -1 // the grammar cannot fix the field count
		got, err := r.ReadAll()
		if err != nil {
			return fmt.Errorf("encoding/csv: %v", err)
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			return fmt.Errorf("encoding/csv read %q, the tree says %q", got, want)
		}
		return nil
	})
}

// pctDecode decodes every %XX of s, as net/url does for hosts, paths and
// fragments.
func pctDecode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			b.WriteByte(unhexDigit(s[i+1])<<4 | unhexDigit(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhexDigit(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	panic(fmt.Sprintf("not a hex digit: %q", c))
}

// part returns the text of the first subtree expanding name, and whether
// there is one.
func part(tr *Tree, name string) (string, bool) {
	if rs := refsNamed(tr, name); len(rs) > 0 {
		return rs[0].String(), true
	}
	return "", false
}

func TestBuiltinURL(t *testing.T) {
	t.Parallel()
	forms := map[string]int{}
	generate(t, "url", 3, oracleInputs(), func(tr *Tree) error {
		u, err := url.Parse(tr.String())
		if err != nil {
			return err
		}
		scheme, _ := part(tr, "scheme")
		if want := strings.ToLower(scheme); u.Scheme != want {
			return fmt.Errorf("Scheme %q, want %q", u.Scheme, want)
		}
		host, _ := part(tr, "host")
		wantHost := pctDecode(host)
		if port, ok := part(tr, "port"); ok {
			wantHost += ":" + port
		}
		if u.Host != wantHost {
			return fmt.Errorf("Host %q, want %q", u.Host, wantHost)
		}
		query, hasQuery := part(tr, "query")
		if u.RawQuery != query || (query == "" && hasQuery != u.ForceQuery) {
			return fmt.Errorf("RawQuery %q (ForceQuery %v), want %q", u.RawQuery, u.ForceQuery, query)
		}
		fragment, _ := part(tr, "fragment")
		if want := pctDecode(fragment); u.Fragment != want {
			return fmt.Errorf("Fragment %q, want %q", u.Fragment, want)
		}
		if path, ok := part(tr, "path-rootless"); ok {
			forms["rootless"]++
			if u.Opaque != path {
				return fmt.Errorf("Opaque %q, want %q", u.Opaque, path)
			}
			return nil
		}
		var path string
		for _, name := range []string{"path-abempty", "path-absolute", "path-empty"} {
			if p, ok := part(tr, name); ok {
				forms[name]++
				path = p
			}
		}
		if want := pctDecode(path); u.Path != want {
			return fmt.Errorf("Path %q, want %q", u.Path, want)
		}
		return nil
	})
	// Every form of hier-part and host must have been exercised.
	for _, f := range []string{"rootless", "path-abempty", "path-absolute", "path-empty"} {
		if forms[f] == 0 {
			t.Errorf("no URL with %s", f)
		}
	}
}

func TestBuiltinURLHosts(t *testing.T) {
	t.Parallel()
	kinds := map[string]int{}
	generate(t, "url", 4, oracleInputs(), func(tr *Tree) error {
		for _, k := range []string{"IP-literal", "IPv4address", "reg-name", "host-pct-encoded", "userinfo"} {
			if len(refsNamed(tr, k)) > 0 {
				kinds[k]++
			}
		}
		_, err := url.Parse(tr.String())
		return err
	})
	for _, k := range []string{"IP-literal", "IPv4address", "reg-name", "host-pct-encoded", "userinfo"} {
		if kinds[k] == 0 {
			t.Errorf("no URL with %s", k)
		}
	}
}

func TestBuiltinXML(t *testing.T) {
	t.Parallel()
	generate(t, "xml", 5, oracleInputs(), func(tr *Tree) error {
		wantStart := len(refsNamed(tr, "xml-open-tag")) + len(refsNamed(tr, "xml-open-close-tag"))
		wantEnd := len(refsNamed(tr, "xml-close-tag")) + len(refsNamed(tr, "xml-open-close-tag"))
		wantAttr := 0
		tr.Walk(func(u *Tree) bool {
			// Count the attribute alternatives that hold an id, not the
			// ones that join two lists.
			if u.Node.Kind == KindRef && u.Node.Name == "xml-attribute" {
				if cs := symbolicChildren(u); cs[0].Node.Kind == KindRef && cs[0].Node.Name == "id" {
					wantAttr++
				}
			}
			return true
		})
		d := xml.NewDecoder(bytes.NewReader(tr.Bytes()))
		start, end, attr := 0, 0, 0
		for {
			tok, err := d.RawToken()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("encoding/xml: %v", err)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				start++
				attr += len(tok.Attr)
			case xml.EndElement:
				end++
			}
		}
		if start != wantStart || end != wantEnd || attr != wantAttr {
			return fmt.Errorf("read %d start, %d end elements and %d attributes, the tree has %d, %d, %d",
				start, end, attr, wantStart, wantEnd, wantAttr)
		}
		return nil
	})
}

// TestBuiltinExpr parses every input with go/parser after mapping it to Go
// syntax (tokens separated by spaces, "++" and "--" as two unary operators,
// numbers without leading zeros, which Go would read as octal), and checks
// that Go's syntax tree has the same structure as the derivation tree:
// the same operators, precedence and associativity.
func TestBuiltinExpr(t *testing.T) {
	t.Parallel()
	generate(t, "expr", 6, oracleInputs(), func(tr *Tree) error {
		var toks []string
		want := exprShape(tr, &toks)
		src := strings.Join(toks, " ")
		e, err := parser.ParseExpr(src)
		if err != nil {
			return fmt.Errorf("go/parser on %q: %v", src, err)
		}
		if got := goShape(e); got != want {
			return fmt.Errorf("go/parser reads %s, the tree says %s", got, want)
		}
		return nil
	})
}

// exprShape returns the fully parenthesized prefix form of an expr
// derivation tree and appends its Go tokens to toks.
func exprShape(t *Tree, toks *[]string) string {
	if t.Node.Kind != KindRef {
		panic("exprShape: not a nonterminal: " + t.Node.String())
	}
	switch t.Node.Name {
	case "DecDigits":
		s := strings.TrimLeft(t.String(), "0")
		if s == "" {
			s = "0"
		}
		*toks = append(*toks, s)
		return s
	case "Identifier":
		*toks = append(*toks, t.String())
		return t.String()
	}
	cs := symbolicChildren(t)
	switch {
	case len(cs) == 1: // Expr, or a unit alternative
		return exprShape(cs[0], toks)
	case len(cs) == 2: // unary operator
		op := cs[0].Value
		ops := []string{op}
		if op == "++" || op == "--" {
			ops = []string{op[:1], op[:1]}
		}
		*toks = append(*toks, ops...)
		s := exprShape(cs[1], toks)
		for range ops {
			s = "(" + op[:1] + " " + s + ")"
		}
		return s
	case cs[0].Node.Kind == KindLit: // "(" AddExpr ")"
		*toks = append(*toks, "(")
		s := exprShape(cs[1], toks)
		*toks = append(*toks, ")")
		return s
	default: // binary operator
		l := exprShape(cs[0], toks)
		*toks = append(*toks, cs[1].Value)
		r := exprShape(cs[2], toks)
		return "(" + cs[1].Value + " " + l + " " + r + ")"
	}
}

// goShape returns the fully parenthesized prefix form of a Go expression.
func goShape(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BinaryExpr:
		return "(" + e.Op.String() + " " + goShape(e.X) + " " + goShape(e.Y) + ")"
	case *ast.UnaryExpr:
		return "(" + e.Op.String() + " " + goShape(e.X) + ")"
	case *ast.ParenExpr:
		return goShape(e.X)
	case *ast.BasicLit:
		return e.Value
	case *ast.Ident:
		return e.Name
	}
	return fmt.Sprintf("<%T>", e)
}

func TestBuiltinTinyC(t *testing.T) {
	t.Parallel()
	generate(t, "tinyc", 7, oracleInputs(), func(tr *Tree) error {
		return parseTinyC(tr.String(), false)
	})
}

func TestBuiltinScriptsizeC(t *testing.T) {
	t.Parallel()
	decls := 0
	generate(t, "scriptsizec", 8, oracleInputs(), func(tr *Tree) error {
		decls += len(refsNamed(tr, "declaration"))
		return parseTinyC(tr.String(), true)
	})
	if decls == 0 {
		t.Error("no declarations generated")
	}
}

// parseTinyC parses src as a Tiny-C program the way Marc Feeley's tinyc.c
// does: a lexer that reads runs of letters as one word (a keyword or a
// one-letter variable) and a recursive-descent parser that binds a dangling
// else to the nearest if. With declarations, it parses Scriptsize-C: a
// non-empty sequence of statements and declarations ("int x;", "int x =
// e;"), which blocks may hold too.
func parseTinyC(src string, declarations bool) error {
	toks, err := lexTinyC(src, declarations)
	if err != nil {
		return err
	}
	p := &tinyCParser{toks: toks, decl: declarations}
	if declarations {
		for {
			p.blockItem()
			if p.err != nil || p.peek() == "" {
				break
			}
		}
	} else {
		p.statement()
	}
	if p.err == nil && p.peek() != "" {
		p.fail("end of program")
	}
	return p.err
}

func lexTinyC(src string, declarations bool) ([]string, error) {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		j := i + 1
		switch {
		case c == ' ' || c == '\n' || c == '\t':
			i = j
			continue
		case strings.IndexByte("{}()+-<;=", c) >= 0:
		case '0' <= c && c <= '9':
			for j < len(src) && '0' <= src[j] && src[j] <= '9' {
				j++
			}
		case 'a' <= c && c <= 'z':
			for j < len(src) && 'a' <= src[j] && src[j] <= 'z' {
				j++
			}
			w := src[i:j]
			switch {
			case len(w) == 1, w == "if", w == "else", w == "while", w == "do", declarations && w == "int":
			default:
				return nil, fmt.Errorf("offset %d: unknown word %q", i, w)
			}
		default:
			return nil, fmt.Errorf("offset %d: unexpected character %q", i, c)
		}
		toks = append(toks, src[i:j])
		i = j
	}
	return toks, nil
}

type tinyCParser struct {
	toks []string
	pos  int
	decl bool
	err  error
}

func (p *tinyCParser) peek() string {
	if p.err != nil || p.pos >= len(p.toks) {
		return ""
	}
	return p.toks[p.pos]
}

func (p *tinyCParser) fail(want string) {
	if p.err == nil {
		p.err = fmt.Errorf("token %d %q: expected %s", p.pos, p.peek(), want)
	}
}

func (p *tinyCParser) expect(tok string) {
	if p.peek() != tok {
		p.fail(fmt.Sprintf("%q", tok))
		return
	}
	p.pos++
}

func isTinyCID(tok string) bool { return len(tok) == 1 && 'a' <= tok[0] && tok[0] <= 'z' }

func (p *tinyCParser) blockItem() {
	if p.decl && p.peek() == "int" {
		p.pos++
		if !isTinyCID(p.peek()) {
			p.fail("a variable")
			return
		}
		p.pos++
		if p.peek() == "=" {
			p.pos++
			p.expr()
		}
		p.expect(";")
		return
	}
	p.statement()
}

func (p *tinyCParser) statement() {
	switch p.peek() {
	case "if":
		p.pos++
		p.parenExpr()
		p.statement()
		if p.peek() == "else" {
			p.pos++
			p.statement()
		}
	case "while":
		p.pos++
		p.parenExpr()
		p.statement()
	case "do":
		p.pos++
		p.statement()
		p.expect("while")
		p.parenExpr()
		p.expect(";")
	case "{":
		p.pos++
		for p.err == nil && p.peek() != "}" {
			if p.peek() == "" {
				p.fail(`"}"`)
				return
			}
			p.blockItem()
		}
		p.expect("}")
	case ";":
		p.pos++
	default:
		p.expr()
		p.expect(";")
	}
}

func (p *tinyCParser) parenExpr() {
	p.expect("(")
	p.expr()
	p.expect(")")
}

func (p *tinyCParser) expr() {
	if isTinyCID(p.peek()) && p.pos+1 < len(p.toks) && p.toks[p.pos+1] == "=" {
		p.pos += 2
		p.expr()
		return
	}
	p.sum()
	if p.peek() == "<" {
		p.pos++
		p.sum()
	}
}

func (p *tinyCParser) sum() {
	p.term()
	for p.peek() == "+" || p.peek() == "-" {
		p.pos++
		p.term()
	}
}

func (p *tinyCParser) term() {
	switch tok := p.peek(); {
	case tok == "(":
		p.parenExpr()
	case isTinyCID(tok) || tok != "" && '0' <= tok[0] && tok[0] <= '9':
		p.pos++
	default:
		p.fail("a variable, a number or '('")
	}
}

func TestParseTinyCRejects(t *testing.T) {
	// The test parser must be able to fail, or the tests above prove
	// nothing.
	for _, src := range []string{
		"", "dox=1;", "if (a) elseb;", "{;", "a=;", "int a;", "x<y<z;", "ab;", "do ; while (a)",
		"if (a) ; else ; else ;", "(a;",
	} {
		if parseTinyC(src, false) == nil {
			t.Errorf("Tiny-C parser accepts %q", src)
		}
	}
	for _, src := range []string{"", "inta;", "int a = ;", "int 1;", "{int a}"} {
		if parseTinyC(src, true) == nil {
			t.Errorf("Scriptsize-C parser accepts %q", src)
		}
	}
	for _, src := range []string{"do a=1; while (a<2);", "if (a) if (b) ; else ;", "{a=b=c+1-(2);{}}"} {
		if err := parseTinyC(src, false); err != nil {
			t.Errorf("Tiny-C parser rejects %q: %v", src, err)
		}
	}
	if err := parseTinyC("int a = 1; { int b; b = a; } ;", true); err != nil {
		t.Errorf("Scriptsize-C parser rejects a valid program: %v", err)
	}
}

// TestBuiltinDeterministic checks that the same seed gives the same inputs
// and that another seed gives other ones: 200 inputs a grammar, 50 with
// -short.
func TestBuiltinDeterministic(t *testing.T) {
	t.Parallel()
	inputs := 200
	if testing.Short() {
		inputs = 50
	}
	for _, name := range BuiltinNames() {
		gr := MustCompile(MustBuiltin(name))
		a, b, c := NewGenerator(gr, 42), NewGenerator(MustCompile(MustBuiltin(name)), 42), NewGenerator(gr, 43)
		differ := false
		for i := range inputs {
			ta, err := a.Generate()
			if err != nil {
				t.Fatal(err)
			}
			tb, _ := b.Generate()
			tc, _ := c.Generate()
			if ta.String() != tb.String() || ta.Outline() != tb.Outline() {
				t.Fatalf("%s: input %d differs between two generators seeded 42: %q and %q", name, i, ta, tb)
			}
			differ = differ || ta.String() != tc.String()
		}
		if !differ {
			t.Errorf("%s: seeds 42 and 43 give the same %d inputs", name, inputs)
		}
	}
}

// TestBuiltinTightLimits generates from every grammar under small limits
// and checks that the trees respect them.
func TestBuiltinTightLimits(t *testing.T) {
	for _, name := range BuiltinNames() {
		gr := MustCompile(MustBuiltin(name))
		gen := NewGenerator(gr, 9)
		gen.MaxDepth = gr.Root.MinDepth + 4
		gen.MaxSize = 4*gr.Root.MinSize + 50
		gen.MaxRepeat = 2
		for i := range 1000 {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatalf("%s: input %d: %v", name, i, err)
			}
			// Root is a rule's right-hand side, so the tree lacks the start
			// symbol's own reference.
			if d, s := tr.Depth(), tr.Size(); d > gen.MaxDepth || s > gen.MaxSize {
				t.Fatalf("%s: input %d: depth %d, size %d, over the limits %d, %d", name, i, d, s, gen.MaxDepth, gen.MaxSize)
			}
		}
	}
}

func ExampleBuiltin() {
	g, err := Builtin("expr")
	if err != nil {
		fmt.Println(err)
		return
	}
	gr := MustCompile(g)
	fmt.Println("start:", g.Start, "rules:", len(g.Rules))
	for k := 1; k <= 3; k++ {
		fmt.Printf("%d-paths: %d\n", k, gr.CountKPaths(k))
	}
	fmt.Println(Shortest(gr.Root))
	// Output:
	// start: Expr rules: 7
	// 1-paths: 39
	// 2-paths: 125
	// 3-paths: 523
	// x
}

func ExampleBuiltinNames() {
	fmt.Println(BuiltinNames())
	// Output:
	// [csv expr json rest scriptsizec tar tinyc url xml]
}

// derivations counts the derivations of s from a grammar graph node by
// dynamic programming over spans. It fails on a cycle that derives the
// same span again (which only grammars with nullable cycles have), where
// the count would be infinite. Counts saturate at 1<<32.
type derivations struct {
	s        string
	memo     map[int64]uint64
	inflight map[int64]bool
	cycle    bool
}

const manyDerivations = 1 << 32

func countDerivations(n *Node, s string) (count uint64, cyclic bool) {
	d := &derivations{s: s, memo: map[int64]uint64{}, inflight: map[int64]bool{}}
	return d.node(n, 0, len(s)), d.cycle
}

func satMulAdd(acc, a, b uint64) uint64 {
	return min(acc+min(a*b, manyDerivations), manyDerivations)
}

// memoized computes f for node n, its state slot (0 for the node itself,
// 1+k for element k of a concatenation, 1+c for a quantifier after c
// repetitions) and span i..j, detecting re-entry.
func (d *derivations) memoized(n *Node, slot, i, j int, f func() uint64) uint64 {
	if slot > 0xFF || j >= 1<<20 {
		panic("countDerivations: grammar or input too large")
	}
	key := (int64(n.ID)<<8|int64(slot))<<40 | int64(i)<<20 | int64(j)
	if v, ok := d.memo[key]; ok {
		return v
	}
	if d.inflight[key] {
		d.cycle = true
		return 0
	}
	d.inflight[key] = true
	v := f()
	delete(d.inflight, key)
	d.memo[key] = v
	return v
}

// node counts the derivations of s[i:j] from n.
func (d *derivations) node(n *Node, i, j int) uint64 {
	if n.MinLen > j-i {
		return 0
	}
	switch n.Kind {
	case KindLit:
		if d.s[i:j] == n.Lit {
			return 1
		}
		return 0
	case KindClass:
		if i == j {
			return 0
		}
		var r rune
		if n.Class.Bytes {
			if j-i != 1 {
				return 0
			}
			r = rune(d.s[i])
		} else {
			var size int
			r, size = utf8.DecodeRuneInString(d.s[i:j])
			if size != j-i || r == utf8.RuneError && size == 1 {
				return 0
			}
		}
		for _, rg := range n.set {
			if rg.Lo <= r && r <= rg.Hi {
				return 1
			}
		}
		return 0
	}
	return d.memoized(n, 0, i, j, func() uint64 {
		switch n.Kind {
		case KindRef:
			return d.node(n.Children[0], i, j)
		case KindAlt:
			var sum uint64
			for _, c := range n.Children {
				sum = satMulAdd(sum, 1, d.node(c, i, j))
			}
			return sum
		case KindSeq:
			return d.seq(n, 0, i, j)
		default: // KindRepeat
			return d.repeat(n, 0, i, j)
		}
	})
}

// seq counts the derivations of s[i:j] from the elements k... of a
// concatenation. Of the two factors of a split, the one over the shorter
// span is counted first, and the other only if the first is not zero, so
// that a left- or right-recursive element is expanded over the whole span
// only when the rest derives the empty string (which needs a nullable
// cycle, an infinite ambiguity).
func (d *derivations) seq(n *Node, k, i, j int) uint64 {
	if k == len(n.Children) {
		if i == j {
			return 1
		}
		return 0
	}
	return d.memoized(n, 1+k, i, j, func() uint64 {
		var sum uint64
		for m := i; m <= j; m++ {
			first := func() uint64 { return d.node(n.Children[k], i, m) }
			rest := func() uint64 { return d.seq(n, k+1, m, j) }
			if m-i > j-m {
				first, rest = rest, first
			}
			if a := first(); a > 0 {
				sum = satMulAdd(sum, a, rest())
			}
		}
		return sum
	})
}

// repeat counts the derivations of s[i:j] by a quantifier that has derived
// c repetitions so far. A repetition that derives nothing would make the
// count infinite; it is reported as a cycle.
func (d *derivations) repeat(n *Node, c, i, j int) uint64 {
	if n.Max == Unbounded {
		c = min(c, n.Min)
	}
	return d.memoized(n, 1+c, i, j, func() uint64 {
		var sum uint64
		if c >= n.Min && i == j {
			sum = 1
		}
		if n.Max != Unbounded && c >= n.Max {
			return sum
		}
		if d.node(n.Children[0], i, i) > 0 {
			d.cycle = true
		}
		for m := i + 1; m <= j; m++ {
			if rest := d.repeat(n, c+1, m, j); rest > 0 {
				sum = satMulAdd(sum, d.node(n.Children[0], i, m), rest)
			}
		}
		return sum
	})
}

// TestBuiltinUnambiguous checks that generated inputs of the grammars that
// are meant to be unambiguous, json and csv, have exactly one derivation
// each (1000 inputs a grammar, 200 with -short). (TRIBBLE's expr grammar is
// not: "--1" is "--" 1 or "-" "-" 1.)
func TestBuiltinUnambiguous(t *testing.T) {
	t.Parallel()
	inputs := 1000
	if testing.Short() {
		inputs = 200
	}
	for _, name := range []string{"json", "csv"} {
		gr := MustCompile(MustBuiltin(name))
		gen := NewGenerator(gr, 10)
		gen.MaxSize = 60
		for i := range inputs {
			tr, err := gen.Generate()
			if err != nil {
				t.Fatal(err)
			}
			n, cyclic := countDerivations(gr.Root, tr.String())
			if n != 1 || cyclic {
				t.Fatalf("%s: input %d %q has %d derivations (cyclic: %v), want 1", name, i, tr, n, cyclic)
			}
		}
	}
}

// TestCountDerivations checks the derivation counter on inputs whose
// number of derivations is known.
func TestCountDerivations(t *testing.T) {
	tests := []struct {
		grammar, input string
		want           uint64
	}{
		{"expr", "1+2*3", 1},
		{"expr", "1+", 0},
		{"expr", "--1", 2}, // "--" 1 or "-" "-" 1: the grammar works on characters
		{"xml", "<a>x</b>", 1},
		{"xml", "<a>xy</b>", 2},   // <TEXT> "xy" or <TEXT> "x" <TEXT> "y"
		{"xml", "<a>xyz</b>", 5},  // the compositions of 3, split into a binary tree: 1+1+(2+1)
		{"url", "s://1.2.3.4", 2}, // an IPv4 address is a reg-name too
		{"url", "s://[::1]", 1},
		{"json", `{"a": [1, 2.5e3, "\u00e9"]}`, 1},
		{"json", `{"a" 1}`, 0},
		{"tinyc", "if (a) if (b) ; else ;", 2}, // the dangling else
	}
	for _, tt := range tests {
		gr := MustCompile(MustBuiltin(tt.grammar))
		got, cyclic := countDerivations(gr.Root, tt.input)
		if got != tt.want || cyclic {
			t.Errorf("%s: %q has %d derivations (cyclic: %v), want %d", tt.grammar, tt.input, got, cyclic, tt.want)
		}
	}
}
