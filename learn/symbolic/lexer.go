package symbolic

import (
	"context"
	"fmt"
	"go/constant"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// DefaultLexerLoopBound is the loop bound of the lexer's analysis, one more
// than the parser's: a lexer reading keywords of five letters (while) runs
// its loop five times and checks a sixth.
const DefaultLexerLoopBound = DefaultLoopBound + 1

// Lexer describes a parser's lexing stage (STALAGMITE's section 2.5): a
// tokenization function the parser calls for the next token, which leaves
// the token's identifier where the parser reads it.
//
// The lexer is analysed once, in isolation, through Harness; every token
// identifier it returns becomes a nonterminal whose alternatives are the
// token instances mined (white space included). Then the parser is analysed
// with calls of Func replaced by a proxy that makes the next token's
// identifier symbolic: the parser's reads of Token are the accesses that
// consume tokens, so a token belongs to the function that branched on it,
// not to the call of Func that read it one token ahead.
type Lexer struct {
	// Func is the tokenization function: a package-level function or a
	// method (named without its type, as "nextSym").
	Func string
	// Token is where Func leaves the token's identifier, an integer below
	// 256: a field of Func's receiver, or a package-level variable.
	Token string
	// Harness runs Func once on its only parameter (a string or []byte) and
	// returns the token's identifier first and, last, whether the whole input
	// was that one token: a bool true or a nil error.
	Harness string
	// LoopBound is the loop bound of the lexer's analysis
	// (0: DefaultLexerLoopBound).
	LoopBound int
}

// lexing is a lexer resolved in the program, during the parser's analysis.
type lexing struct {
	fn     *ssa.Function
	field  int         // the token's field in fn's receiver, or -1
	global *ssa.Global // or the token's variable
	ids    byteSet     // the token identifiers the lexer returns
	names  map[int]string
}

// tokenSym is the token identifier the proxy stored: reading it is an access
// to token pos of the input.
type tokenSym struct{ pos int }

func (e *executor) resolveLexer(pkg *ssa.Package, lx *Lexer) (*lexing, error) {
	var fn *ssa.Function
	for f := range ssautil.AllFunctions(e.prog) {
		if f.Pkg == pkg && f.Name() == lx.Func && f.Parent() == nil && len(f.Blocks) > 0 {
			if fn != nil {
				return nil, fmt.Errorf("symbolic: %s names two functions of %s (%s, %s)", lx.Func, pkg.Pkg.Path(), fn, f)
			}
			fn = f
		}
	}
	if fn == nil {
		return nil, fmt.Errorf("symbolic: package %s has no lexer function %s", pkg.Pkg.Path(), lx.Func)
	}
	l := &lexing{fn: fn, field: -1, names: map[int]string{}}
	var tokType types.Type
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if ok {
			for i := 0; i < st.NumFields(); i++ {
				if st.Field(i).Name() == lx.Token {
					l.field, tokType = i, st.Field(i).Type()
				}
			}
		}
		if l.field < 0 || fn.Signature.Recv().Type().Underlying() == t.Underlying() {
			return nil, fmt.Errorf("symbolic: the lexer %s needs a pointer receiver with a field %s", lx.Func, lx.Token)
		}
	} else {
		g, ok := pkg.Members[lx.Token].(*ssa.Global)
		if !ok {
			return nil, fmt.Errorf("symbolic: package %s has no variable %s for the token", pkg.Pkg.Path(), lx.Token)
		}
		l.global, tokType = g, g.Type().(*types.Pointer).Elem()
	}
	if b, ok := tokType.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return nil, fmt.Errorf("symbolic: the token %s is a %s; want an integer", lx.Token, tokType)
	}
	// Name the identifiers by the package's constants of the token's type.
	for _, m := range pkg.Members {
		c, ok := m.(*ssa.NamedConst)
		if !ok || !types.Identical(c.Type(), tokType) || c.Value.Value.Kind() != constant.Int {
			continue
		}
		if v, ok := constant.Int64Val(c.Value.Value); ok && v >= 0 && v < 256 {
			if old, dup := l.names[int(v)]; !dup || c.Name() < old {
				l.names[int(v)] = c.Name()
			}
		}
	}
	return l, nil
}

// mineTokens analyses the lexer in isolation through its harness and returns
// the token grammar: one mined grammar per token identifier.
func (e *executor) mineTokens(ctx context.Context, pkg *ssa.Package, lx *Lexer, l *lexing) (map[int]*mined, error) {
	h := pkg.Func(lx.Harness)
	if h == nil {
		return nil, fmt.Errorf("symbolic: package %s has no lexer harness %s", pkg.Pkg.Path(), lx.Harness)
	}
	if h.Signature.Results().Len() < 2 {
		return nil, fmt.Errorf("symbolic: the lexer harness %s must return the token and whether it is the whole input", lx.Harness)
	}
	cfg := e.cfg
	cfg.Entry = lx.Harness
	cfg.LoopBound = lx.LoopBound
	if cfg.LoopBound <= 0 {
		cfg.LoopBound = DefaultLexerLoopBound
	}
	cfg.Lexer = nil
	sub := &executor{
		cfg: cfg, prog: e.prog, local: e.local, loops: e.loops, unsupp: e.unsupp,
		tokens: map[int]*mined{}, tokenNames: l.names, mined: newMined(),
	}
	err := sub.mineEntry(ctx, pkg, h)
	e.stats.add(sub.stats)
	if err != nil {
		return nil, err
	}
	if len(sub.tokens) == 0 {
		return nil, fmt.Errorf("symbolic: the lexer harness %s returned no concrete token identifier", lx.Harness)
	}
	for id := range sub.tokens {
		l.ids.add(id)
		if _, ok := l.names[id]; !ok {
			l.names[id] = fmt.Sprintf("token%d", id)
		}
	}
	return sub.tokens, nil
}

// recordToken adds an accepting path of the lexer's harness to the grammar of
// the token it returned.
func (e *executor) recordToken(s *state, tree *tnode, live map[int]bool) bool {
	t, ok := s.result.(tuple)
	if !ok || len(t) == 0 {
		return false
	}
	id, ok := t[0].(int64)
	if !ok || id < 0 || id >= 256 {
		e.unsupported(e.entry.Pos(), "a token identifier that is not a constant below 256")
		return false
	}
	m := e.tokens[int(id)]
	name := e.tokenNames[int(id)]
	if name == "" {
		name = fmt.Sprintf("token%d", id)
	}
	if m == nil {
		m = newMined()
		m.prefix = name + "-"
		m.taken[name] = true
		e.tokens[int(id)] = m
	}
	return m.addTree(tree, name, live)
}

// proxy replaces a call of the lexer: the token identifier becomes the next
// symbolic token of the input.
func (e *executor) proxy(s *state, f *frame, args []value) outcome {
	l := e.lexer
	pos := s.lenLo
	s.lenLo++
	if s.lenLo > s.lenHi {
		return rejected
	}
	s.restrict(pos, l.ids)
	var at pointer
	if l.global != nil {
		at, _ = e.val(s, f, l.global).(pointer)
	} else {
		p, ok := args[0].(pointer)
		if !ok {
			if _, isNil := args[0].(nilValue); isNil {
				return rejected
			}
			e.unsupported(l.fn.Pos(), "a lexer called on an untracked receiver")
			return terminated
		}
		at = pointer{cell: p.cell, path: appendPath(p.path, l.field)}
	}
	if !s.store(at, tokenSym{pos: pos}) {
		e.unsupported(l.fn.Pos(), "the token's variable is untracked")
		return terminated
	}
	return running
}

// tokenNames returns the names of the tokens' nonterminals, by identifier.
func tokenNames(tokens map[int]*mined, names map[int]string) []string {
	ids := make([]int, 0, len(tokens))
	for id := range tokens {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = names[id]
	}
	return out
}

// tokenRules returns the token grammar's rules: each token's nonterminal,
// named after its constant, and the nonterminals of its instances, prefixed
// with it.
func tokenRules(tokens map[int]*mined, names map[int]string) []*grammar.Rule {
	ids := make([]int, 0, len(tokens))
	for id := range tokens {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var rules []*grammar.Rule
	for _, id := range ids {
		m := tokens[id]
		m.finish()
		m.simplify(map[string]bool{names[id]: true})
		rules = append(rules, m.grammar(names[id]).Rules[1:]...)
	}
	return rules
}
