package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/coverage/internal/meta"
)

// Identifiers that instrumented code declares. Source files must not use any
// identifier starting with reservedPrefix.
const (
	reservedPrefix = "_kfuzz"
	counterVar     = "_kfuzzcov"
	atomicName     = "_kfuzzatomic"
	rtName         = "_kfuzzrt"
	unsafeName     = "_kfuzzunsafe"
	stdType        = "_kfuzzstdpkg"
	stdVar         = "_kfuzzpkg"
	stdHead        = "_kfuzzstdlist"
	stdLink        = "_kfuzzlink"
	// registryFile is the base name of the file added to every
	// instrumented package.
	registryFile = "zz_kfuzzcover_registry.go"
)

// srcFile is one file of a package to instrument.
type srcFile struct {
	path string // absolute path on disk
	src  []byte
}

// instrumented is the result of rewriting one package.
type instrumented struct {
	meta     meta.Package
	files    [][]byte // rewritten sources, parallel to the input files
	registry []byte   // the source of the file that registers the counters
}

// pkgInstrumenter holds the state shared by the files of one package.
type pkgInstrumenter struct {
	meta     meta.Package
	fset     *token.FileSet
	litNames map[*ast.FuncLit]string  // names of package-level closures
	decl     map[*ast.FuncDecl]string // names of init functions
	short    []string                 // names without the package path, per function
	litCount []int                    // closures numbered so far, per function
	seen     map[blockKey]bool        // block extents already used
}

type blockKey struct {
	file       string
	start, end meta.Pos
}

// instrumentPackage rewrites the files of the package with the given import
// path. The files must be given in the order the go command compiles them
// (GoFiles, then CgoFiles) so that init functions are numbered as the
// compiler numbers them. The rewritten code registers its counters with the
// package rtPath: by importing it or, if std is set (a standard-library
// package, which cannot import it), through rtPath's list of standard
// packages.
func instrumentPackage(importPath string, files []srcFile, mode coverage.Mode, rtPath string, std bool) (*instrumented, error) {
	if !mode.Valid() {
		return nil, fmt.Errorf("coverage: unknown mode %q (want hits, set, count or atomic)", mode)
	}
	p := &pkgInstrumenter{
		meta: meta.Package{Path: importPath, Mode: string(mode)},
		fset: token.NewFileSet(),
		seen: make(map[blockKey]bool),
	}
	asts := make([]*ast.File, len(files))
	var errs scanner.ErrorList
	for i, f := range files {
		af, err := parser.ParseFile(p.fset, f.path, f.src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			if list, ok := err.(scanner.ErrorList); ok {
				errs = append(errs, list...)
				continue
			}
			return nil, err
		}
		asts[i] = af
		errs = append(errs, reservedIdents(p.fset, af)...)
	}
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	if len(asts) == 0 {
		return nil, fmt.Errorf("coverage: package %s has no Go files", importPath)
	}
	name := asts[0].Name.Name
	for i, af := range asts[1:] {
		if af.Name.Name != name {
			return nil, fmt.Errorf("coverage: %s: package %s; expected package %s", files[i+1].path, af.Name.Name, name)
		}
	}
	p.nameInits(asts)
	p.litNames = packageLitNames(asts)

	out := &instrumented{files: make([][]byte, len(files))}
	for i, af := range asts {
		r := &fileRewriter{
			p:    p,
			path: files[i].path,
			src:  files[i].src,
			tf:   p.fset.File(af.Pos()),
			mode: mode,
		}
		src, err := r.rewrite(af)
		if err != nil {
			return nil, err
		}
		out.files[i] = src
	}
	out.meta = p.meta
	if std {
		out.registry = stdRegistrySource(name, rtPath, &p.meta)
	} else {
		out.registry = registrySource(name, rtPath, &p.meta)
	}
	return out, nil
}

// reservedIdents reports identifiers that would clash with those of the
// instrumentation.
func reservedIdents(fset *token.FileSet, f *ast.File) scanner.ErrorList {
	var errs scanner.ErrorList
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, reservedPrefix) {
			errs.Add(fset.Position(id.Pos()), fmt.Sprintf("identifier %s is reserved for kfuzz coverage instrumentation", id.Name))
		}
		return true
	})
	return errs
}

// nameInits numbers the init functions of the package like the compiler:
// init.0, init.1, ... in file order.
func (p *pkgInstrumenter) nameInits(files []*ast.File) {
	p.decl = make(map[*ast.FuncDecl]string)
	n := 0
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" && fd.Body != nil {
				p.decl[fd] = "init." + strconv.Itoa(n)
				n++
			}
		}
	}
}

// funcDeclName returns the name of a function or method the way the runtime
// spells it, without the package path: FuncName, and init.0, init.1, ... for
// the init functions of the package.
func (p *pkgInstrumenter) funcDeclName(d *ast.FuncDecl) string {
	if s, ok := p.decl[d]; ok {
		return s
	}
	return FuncName(d)
}

// FuncName returns the name of a declared function or method the way the
// runtime spells it, without the package path: F, T.M, (*T).M, G[...],
// (*G[...]).M. (Init functions are init.0, init.1, ... in the order of the
// package's files; FuncName says init.)
func FuncName(d *ast.FuncDecl) string {
	name := d.Name.Name
	if d.Recv == nil || len(d.Recv.List) == 0 {
		if d.Type.TypeParams != nil && len(d.Type.TypeParams.List) > 0 {
			name += "[...]"
		}
		return name
	}
	t := unparen(d.Recv.List[0].Type)
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star = true
		t = unparen(s.X)
	}
	generic := false
	switch x := t.(type) {
	case *ast.IndexExpr:
		t, generic = x.X, true
	case *ast.IndexListExpr:
		t, generic = x.X, true
	}
	recv := "?"
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	if generic {
		recv += "[...]"
	}
	if star {
		recv = "(*" + recv + ")"
	}
	return recv + "." + name
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// fileRewriter inserts the counters into one file. It splits function
// bodies into basic blocks the way go tool cover does, so that the blocks
// (and so the profiles) agree with go test -coverprofile.
type fileRewriter struct {
	p     *pkgInstrumenter
	path  string
	src   []byte
	tf    *token.File
	mode  coverage.Mode
	edits []edit
	stack []int // enclosing functions, innermost last
	err   error
}

// An edit inserts text before the byte at off.
type edit struct {
	off       int
	text      string
	directive bool // text is a line directive; no column fix-up needed
}

func (r *fileRewriter) insert(off int, text string) {
	r.edits = append(r.edits, edit{off: off, text: text})
}

func (r *fileRewriter) offset(p token.Pos) int {
	return r.tf.Offset(p)
}

// rewrite instruments f and returns the new source.
func (r *fileRewriter) rewrite(f *ast.File) ([]byte, error) {
	userDirectives := hasLineDirectives(f)
	pkgOff := r.offset(f.Package)
	if !userDirectives || !directiveBefore(f, f.Package) {
		// Name the original file in compiler messages and stack traces.
		r.edits = append(r.edits, edit{off: pkgOff, text: r.lineDirective(pkgOff), directive: true})
	}
	if r.mode == coverage.ModeAtomic {
		r.insert(r.offset(f.Name.End()), fmt.Sprintf("; import %s %q", atomicName, "sync/atomic"))
	}
	ast.Walk(r, f)
	if r.err != nil {
		return nil, r.err
	}
	out := r.apply(!userDirectives)
	if r.mode == coverage.ModeAtomic {
		out = append(out, "\n\nvar _ = "+atomicName+".AddUint32\n"...)
	}
	return out, nil
}

// hasLineDirectives reports whether f contains line directives of its own.
func hasLineDirectives(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//line ") || strings.HasPrefix(c.Text, "/*line ") {
				return true
			}
		}
	}
	return false
}

// directiveBefore reports whether a line directive precedes pos.
func directiveBefore(f *ast.File, pos token.Pos) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if c.Pos() < pos && (strings.HasPrefix(c.Text, "//line ") || strings.HasPrefix(c.Text, "/*line ")) {
				return true
			}
		}
	}
	return false
}

// lineDirective returns a /*line*/ comment giving the original position of
// the byte at off.
func (r *fileRewriter) lineDirective(off int) string {
	pos := r.tf.PositionFor(r.tf.Pos(off), false)
	return fmt.Sprintf("/*line %s:%d:%d*/", r.path, pos.Line, pos.Column)
}

// apply returns the source with the edits made. If fixColumns is set, a line
// directive after each insertion restores the original columns, so that
// every position the compiler reports is exactly that of the original.
func (r *fileRewriter) apply(fixColumns bool) []byte {
	sort.SliceStable(r.edits, func(i, j int) bool { return r.edits[i].off < r.edits[j].off })
	var b bytes.Buffer
	b.Grow(len(r.src) + len(r.edits)*(24+len(r.path)))
	last := 0
	for i := 0; i < len(r.edits); {
		off := r.edits[i].off
		b.Write(r.src[last:off])
		plain := false
		for ; i < len(r.edits) && r.edits[i].off == off; i++ {
			b.WriteString(r.edits[i].text)
			plain = plain || !r.edits[i].directive
		}
		if plain && fixColumns {
			b.WriteString(r.lineDirective(off))
		}
		last = off
	}
	b.Write(r.src[last:])
	return b.Bytes()
}

// Visit implements ast.Visitor. It follows the traversal of go tool cover.
func (r *fileRewriter) Visit(node ast.Node) ast.Visitor {
	if r.err != nil {
		return nil
	}
	switch n := node.(type) {
	case *ast.BlockStmt:
		if len(n.List) > 0 {
			switch n.List[0].(type) {
			case *ast.CaseClause:
				for _, s := range n.List {
					if c, ok := s.(*ast.CaseClause); ok {
						r.addCounters(c.Colon+1, c.Colon+1, c.End(), c.Body, false)
					}
				}
				return r
			case *ast.CommClause:
				for _, s := range n.List {
					if c, ok := s.(*ast.CommClause); ok {
						r.addCounters(c.Colon+1, c.Colon+1, c.End(), c.Body, false)
					}
				}
				return r
			}
		}
		r.addCounters(n.Lbrace, n.Lbrace+1, n.Rbrace+1, n.List, true)
	case *ast.IfStmt:
		r.visitIf(n)
		return nil
	case *ast.SelectStmt:
		if n.Body == nil || len(n.Body.List) == 0 {
			return nil // an empty select has no block to count
		}
	case *ast.SwitchStmt:
		if n.Body == nil || len(n.Body.List) == 0 {
			walkIf(r, n.Init)
			walkIf(r, n.Tag)
			return nil
		}
	case *ast.TypeSwitchStmt:
		if n.Body == nil || len(n.Body.List) == 0 {
			walkIf(r, n.Init)
			walkIf(r, n.Assign)
			return nil
		}
	case *ast.FuncDecl:
		if n.Name.Name == "_" || n.Body == nil {
			return nil // cannot run
		}
		r.enter(r.p.funcDeclName(n), n)
		ast.Walk(r, n.Body)
		r.leave()
		return nil
	case *ast.FuncLit:
		r.enter(r.litName(n), n)
		ast.Walk(r, n.Body)
		r.leave()
		return nil
	}
	return r
}

// walkIf walks n unless it is nil (an absent optional part of a statement).
func walkIf(v ast.Visitor, n ast.Node) {
	if n != nil {
		ast.Walk(v, n)
	}
}

// visitIf walks an if statement. An else branch gets a block of its own,
// made explicit by wrapping it in braces, so that the evaluation of an
// "else if" condition is counted.
func (r *fileRewriter) visitIf(n *ast.IfStmt) {
	walkIf(r, n.Init)
	ast.Walk(r, n.Cond)
	ast.Walk(r, n.Body)
	if n.Else == nil {
		return
	}
	elseOff := r.findElse(r.offset(n.Body.End()))
	if elseOff < 0 {
		r.err = fmt.Errorf("coverage: %s: cannot find else", r.tf.Position(n.Body.End()))
		return
	}
	r.insert(elseOff+4, "{")
	r.insert(r.offset(n.Else.End()), "}")
	// The new block starts right after else. go tool cover puts its
	// counter one byte later, which breaks code with a comment there; put
	// it right after the inserted brace instead.
	lbrace := r.tf.Pos(elseOff + 4)
	switch e := n.Else.(type) {
	case *ast.IfStmt:
		r.addCountersAt(elseOff+4, lbrace, lbrace+1, e.End()+1, []ast.Stmt{e}, true)
		ast.Walk(r, e)
	case *ast.BlockStmt:
		r.addCountersAt(elseOff+4, lbrace, lbrace+1, e.Rbrace+1, e.List, true)
		for _, s := range e.List {
			ast.Walk(r, s)
		}
	}
}

// findElse returns the offset of the keyword else at or after off, skipping
// white space and comments, or -1.
func (r *fileRewriter) findElse(off int) int {
	s := r.src
	for i := off; i < len(s); {
		switch {
		case bytes.HasPrefix(s[i:], []byte("else")):
			return i
		case bytes.HasPrefix(s[i:], []byte("//")):
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case bytes.HasPrefix(s[i:], []byte("/*")):
			end := bytes.Index(s[i+2:], []byte("*/"))
			if end < 0 {
				return -1
			}
			i += 2 + end + 2
		default:
			i++
		}
	}
	return -1
}

// litName names a function literal like the compiler: F.func1, F.func2 for
// closures directly in F, F.func1.1 for one inside F.func1, and
// init.funcN for closures in package-level variable declarations.
func (r *fileRewriter) litName(n *ast.FuncLit) string {
	if len(r.stack) == 0 {
		if s, ok := r.p.litNames[n]; ok {
			return s
		}
		return "init.func?"
	}
	outer := r.stack[len(r.stack)-1]
	r.p.litCount[outer]++
	k := strconv.Itoa(r.p.litCount[outer])
	name := r.p.short[outer]
	if len(r.stack) == 1 && !r.p.meta.Funcs[outer].Closure {
		return name + ".func" + k
	}
	return name + "." + k
}

// enter starts a function.
func (r *fileRewriter) enter(name string, n ast.Node) {
	fpos := r.p.fset.Position(n.Pos())
	file := r.p.meta.Path + "/" + filepath.Base(fpos.Filename)
	fi := -1
	for i, f := range r.p.meta.Files {
		if f == file {
			fi = i
			break
		}
	}
	if fi < 0 {
		fi = len(r.p.meta.Files)
		r.p.meta.Files = append(r.p.meta.Files, file)
	}
	_, isLit := n.(*ast.FuncLit)
	r.p.meta.Funcs = append(r.p.meta.Funcs, meta.Func{
		Name:    r.p.meta.Path + "." + name,
		File:    fi,
		Start:   r.position(n.Pos()),
		End:     r.position(n.End()),
		Entry:   -1,
		Closure: isLit,
	})
	r.p.short = append(r.p.short, name)
	r.p.litCount = append(r.p.litCount, 0)
	r.stack = append(r.stack, len(r.p.meta.Funcs)-1)
}

func (r *fileRewriter) leave() {
	r.stack = r.stack[:len(r.stack)-1]
}

// position returns the line and column of p as go tool cover records them
// (honouring line directives).
func (r *fileRewriter) position(p token.Pos) meta.Pos {
	pos := r.p.fset.Position(p)
	return meta.Pos{Line: pos.Line, Col: pos.Column}
}

// addCounters splits the statement list of one block into basic blocks and
// puts a counter at the start of each. pos is where the first basic block
// starts, insertPos where its counter goes and blockEnd where the block
// ends; extendToClosingBrace says whether the last basic block runs to
// blockEnd even after its last statement. Nested blocks are left to the
// walk.
func (r *fileRewriter) addCounters(pos, insertPos, blockEnd token.Pos, list []ast.Stmt, extendToClosingBrace bool) {
	r.addCountersAt(-1, pos, insertPos, blockEnd, list, extendToClosingBrace)
}

// addCountersAt is addCounters with the first counter inserted at byte
// offset off instead of at insertPos, unless off is negative.
func (r *fileRewriter) addCountersAt(off int, pos, insertPos, blockEnd token.Pos, list []ast.Stmt, extendToClosingBrace bool) {
	if off < 0 {
		off = r.offset(insertPos)
	}
	if len(list) == 0 {
		// An empty block still runs; count it.
		r.insert(off, r.newCounter(insertPos, blockEnd, 0))
		return
	}
	list = append([]ast.Stmt(nil), list...)
	for {
		last := 0
		end := blockEnd
		for ; last < len(list); last++ {
			s := list[last]
			end = statementBoundary(s)
			if !endsBasicBlock(s) {
				continue
			}
			// A label may be the target of a goto and so start a block
			// of its own: split "L: stmt" into "L:" and "stmt", unless
			// stmt is a loop, switch or select that the label belongs to.
			if l, ok := s.(*ast.LabeledStmt); ok && !isControl(l.Stmt) {
				end = l.Pos()
				list = append(list, nil)
				copy(list[last+2:], list[last+1:])
				list[last+1] = l.Stmt
			}
			last++
			extendToClosingBrace = false
			break
		}
		if extendToClosingBrace {
			end = blockEnd
		}
		if pos != end { // blocks can abut, leaving nothing to count
			r.insert(off, r.newCounter(pos, end, last))
		}
		list = list[last:]
		if len(list) == 0 {
			return
		}
		pos = list[0].Pos()
		insertPos = pos
		off = r.offset(pos)
	}
}

// newCounter records a block and returns the statement that counts it.
func (r *fileRewriter) newCounter(start, end token.Pos, numStmt int) string {
	sp, ep := r.position(start), r.position(end)
	// Blocks must have distinct extents; nudge duplicates like go tool
	// cover does (they arise from line directives without columns).
	key := blockKey{file: r.p.fset.Position(start).Filename, start: sp, end: ep}
	for r.p.seen[key] {
		key.end.Col++
	}
	r.p.seen[key] = true
	if numStmt > 1<<16-1 {
		numStmt = 1<<16 - 1
	}
	fn := -1
	if len(r.stack) > 0 {
		fn = r.stack[len(r.stack)-1]
	}
	idx := len(r.p.meta.Blocks)
	r.p.meta.Blocks = append(r.p.meta.Blocks, meta.Block{Func: fn, Start: key.start, End: key.end, Stmts: numStmt})
	entry := false
	if fn >= 0 && r.p.meta.Funcs[fn].Entry < 0 {
		r.p.meta.Funcs[fn].Entry = idx
		entry = true
	}
	switch r.mode {
	case coverage.ModeHits:
		if !entry {
			return fmt.Sprintf("%s[%d] = 1;", counterVar, idx)
		}
	case coverage.ModeSet:
		return fmt.Sprintf("%s[%d] = 1;", counterVar, idx)
	case coverage.ModeAtomic:
		return fmt.Sprintf("%s.AddUint32(&%s[%d], 1);", atomicName, counterVar, idx)
	}
	return fmt.Sprintf("%s[%d]++;", counterVar, idx)
}

// statementBoundary returns where the basic block that s belongs to ends
// when s is its last statement.
func statementBoundary(s ast.Stmt) token.Pos {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return s.Lbrace
	case *ast.IfStmt:
		return firstLitOr(s.Body.Lbrace, s.Init, s.Cond)
	case *ast.ForStmt:
		return firstLitOr(s.Body.Lbrace, s.Init, s.Cond, s.Post)
	case *ast.LabeledStmt:
		return statementBoundary(s.Stmt)
	case *ast.RangeStmt:
		return firstLitOr(s.Body.Lbrace, s.X)
	case *ast.SwitchStmt:
		return firstLitOr(s.Body.Lbrace, s.Init, s.Tag)
	case *ast.SelectStmt:
		return s.Body.Lbrace
	case *ast.TypeSwitchStmt:
		return firstLitOr(s.Body.Lbrace, s.Init)
	}
	// A function literal inside an ordinary statement ends the block at
	// its body, which is a block of its own.
	return firstLitOr(s.End(), s)
}

// firstLitOr returns the position of the body of the first function literal
// in nodes, or def if there is none.
func firstLitOr(def token.Pos, nodes ...ast.Node) token.Pos {
	for _, n := range nodes {
		if p := firstLit(n); p.IsValid() {
			return p
		}
	}
	return def
}

// firstLit returns the position of the body of the first function literal in
// n, or token.NoPos.
func firstLit(n ast.Node) token.Pos {
	if n == nil {
		return token.NoPos
	}
	found := token.NoPos
	ast.Inspect(n, func(x ast.Node) bool {
		if found.IsValid() {
			return false
		}
		if l, ok := x.(*ast.FuncLit); ok {
			found = l.Body.Lbrace
			return false
		}
		return true
	})
	return found
}

// endsBasicBlock reports whether s ends a basic block: it changes the flow
// of control, may be jumped to, or holds a function literal.
func endsBasicBlock(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.BlockStmt, *ast.BranchStmt, *ast.ForStmt, *ast.IfStmt, *ast.LabeledStmt,
		*ast.RangeStmt, *ast.SwitchStmt, *ast.SelectStmt, *ast.TypeSwitchStmt:
		return true
	case *ast.ExprStmt:
		// A call of panic changes the flow. Without type information a
		// local function called panic is taken for the builtin, as go
		// tool cover does.
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" && len(call.Args) == 1 {
				return true
			}
		}
	}
	return firstLit(s).IsValid()
}

// isControl reports whether s is a statement that a label preceding it
// belongs to (as the target of break or continue).
func isControl(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.SelectStmt, *ast.TypeSwitchStmt:
		return true
	}
	return false
}

// registrySource returns the source of the file that declares the counters
// of a package and registers them with package rt.
func registrySource(pkgName, rtPath string, m *meta.Package) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by kfuzz coverage. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\n", pkgName)
	fmt.Fprintf(&b, "import %s %q\n\n", rtName, rtPath)
	fmt.Fprintf(&b, "var %s [%d]uint32\n\n", counterVar, len(m.Blocks))
	fmt.Fprintf(&b, "var _ = %s.Register(%d, %q, %s[:], %q)\n", rtName, meta.Format, m.Path, counterVar, m.Encode())
	return b.Bytes()
}

// stdRegistrySource returns the source of the file that declares the
// counters of a standard-library package and links the package into the
// list of standard packages that package rtPath reads (see rt.StdList). It
// imports nothing but unsafe, so it adds no dependency to the package.
//
// The package's description is a statically initialized variable of a type
// laid out like rt.StdPackage; linking it in stores two pointers, so it
// works at any point of initialization without allocating.
func stdRegistrySource(pkgName, rtPath string, m *meta.Package) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by kfuzz coverage. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\n", pkgName)
	fmt.Fprintf(&b, "import %s \"unsafe\"\n\n", unsafeName)
	fmt.Fprintf(&b, "var %s [%d]uint32\n\n", counterVar, len(m.Blocks))
	b.WriteString("// " + stdType + " is laid out like rt.StdPackage.\n")
	fmt.Fprintf(&b, "type %s struct {\n\tFormat   int\n\tNext     %s.Pointer\n\tPath     string\n\tCounters []uint32\n\tMeta     string\n}\n\n", stdType, unsafeName)
	fmt.Fprintf(&b, "var %s = %s{Format: %d, Path: %q, Counters: %s[:], Meta: %q}\n\n", stdVar, stdType, meta.Format, m.Path, counterVar, m.Encode())
	fmt.Fprintf(&b, "//go:linkname %s %s.stdList\n", stdHead, rtPath)
	fmt.Fprintf(&b, "var %s %s.Pointer\n\n", stdHead, unsafeName)
	fmt.Fprintf(&b, "func %s() bool {\n\t%s.Next = %s\n\t%s = %s.Pointer(&%s)\n\treturn true\n}\n\n", stdLink, stdVar, stdHead, stdHead, unsafeName, stdVar)
	fmt.Fprintf(&b, "var _ = %s()\n", stdLink)
	return b.Bytes()
}
