package symbolic

import (
	"context"
	"errors"
	"fmt"
	"go/types"
	"hash/maphash"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The paper's bounds and kfuzz's defaults for the others.
const (
	DefaultLoopBound      = 4
	DefaultRecursionBound = 3
	DefaultMaxPaths       = 200000
	DefaultMaxSteps       = 200000
	DefaultMaxLen         = 1 << 16
	DefaultMaxStates      = 200000
	DefaultSaturation     = 2000
)

// Config says what to mine and how far to explore.
type Config struct {
	// Dir is the directory the package pattern is resolved in ("" for the
	// current one).
	Dir string
	// Package is the package holding the parser, as the go command names it
	// (for example "./internal/subjects/calc").
	Package string
	// Entry is the parser's entry function, a package-level function taking
	// the input as its only parameter, a string or a []byte. The input is
	// accepted when the function returns a nil error as its last result, or
	// true when its last result is a bool.
	Entry string
	// LoopBound is the number of iterations of an input-processing loop
	// explored (the paper's 4); RecursionBound the number of activations of a
	// function from one call site on one path (the paper's 3).
	LoopBound, RecursionBound int
	// MaxPaths bounds the paths explored, MaxSteps the instructions of one
	// path, MaxLen the input length considered, MaxStates the paths waiting
	// to be explored (memory).
	MaxPaths, MaxSteps, MaxLen, MaxStates int
	// Saturation stops the exploration after that many accepting paths in a
	// row added nothing to the grammar (0: DefaultSaturation; negative: never).
	Saturation int
	// MergeCallSites makes one nonterminal of a function's calls from all
	// its call sites (the paper makes one per call site). It saturates far
	// sooner where a function parses the same language from every site (the
	// statements and expressions of a programming language), at the price of
	// over-approximating where it does not: Refine narrows that down.
	MergeCallSites bool
	// Compose explores compositionally: a path stops at the return of a
	// call when another path reached the same state there (all but the
	// input bytes the call consumed), and takes that path's accepted
	// continuations instead of exploring its own (see compose.go). A
	// continuation is then explored once per way of ending the call, not
	// once per way of reading it.
	Compose bool
	// DepthCost orders the exploration by input bytes read plus DepthCost
	// per frame of call depth (0: by input bytes alone), so that deep
	// nesting comes after inputs as long but shallower. Combinations of
	// nested calls are what compositional exploration does not cut (paths
	// that go on into calls never return to merge).
	DepthCost int
	// Lexer, if set, describes the parser's lexing stage, which is then
	// analysed on its own (see Lexer).
	Lexer *Lexer
	// Progress, if set, is called now and then during exploration.
	Progress func(Stats)
}

// Stats counts what the exploration did.
type Stats struct {
	Paths      int  // paths explored to their end
	Accepted   int  // paths on which the entry accepted its input
	Rejected   int  // paths that returned an error or panicked
	Terminated int  // paths stopped by a bound or an unsupported construct
	Forks      int  // branches on which both ways were feasible
	Truncated  bool // MaxPaths stopped the exploration
	Saturated  bool // Saturation stopped the exploration
	Dropped    int  // forked paths not explored because MaxStates were waiting
	Merged     int  // paths stopped at a call's return, where an equivalent path went on (Compose)
	Spliced    int  // accepted traces completed from a merged path and its equivalent's continuation
	Duration   time.Duration
}

// add adds the counts of t (a stage of the same mining) to st.
func (st *Stats) add(t Stats) {
	st.Paths += t.Paths
	st.Accepted += t.Accepted
	st.Rejected += t.Rejected
	st.Terminated += t.Terminated
	st.Forks += t.Forks
	st.Dropped += t.Dropped
	st.Merged += t.Merged
	st.Spliced += t.Spliced
	st.Truncated = st.Truncated || t.Truncated
}

// Unsupported is a construct the executor does not model, at a source
// position. Paths through it are stopped or its values untracked; the mined
// grammar may then lack, or over-approximate, what the code there parses.
type Unsupported struct {
	Pos  string
	What string
}

// Result is a mined grammar and how it was found.
type Result struct {
	Grammar *grammar.Grammar
	// Tokens names the nonterminals of the lexer's tokens, by identifier,
	// when Config.Lexer is set; RefineConfig.Tokens takes them.
	Tokens      []string
	Stats       Stats
	Unsupported []Unsupported
}

// Mine mines the input grammar of a recursive-descent parser from its code by
// symbolic execution (STALAGMITE): it explores the paths of the entry function
// with the input's bytes as symbols, bounding loops and recursion, records on
// every accepting path which function (and loop iteration) consumed each
// byte, and turns these parse trees into a grammar whose nonterminals are the
// parser's functions and loops.
func Mine(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Package == "" || cfg.Entry == "" {
		return nil, errors.New("symbolic: a package and an entry function are needed")
	}
	pkgs, err := packages.Load(&packages.Config{Context: ctx, Dir: cfg.Dir, Mode: packages.LoadSyntax}, cfg.Package)
	if err != nil {
		return nil, fmt.Errorf("symbolic: loading %s: %w", cfg.Package, err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("symbolic: %s", strings.Join(errs, "\n"))
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("symbolic: %s matches %d packages; name one", cfg.Package, len(pkgs))
	}
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	return MineSSA(ctx, prog, ssaPkgs[0], cfg)
}

// MineSSA is Mine on a package already built as SSA; only its code is
// executed, calls into other packages are summarised.
func MineSSA(ctx context.Context, prog *ssa.Program, pkg *ssa.Package, cfg Config) (*Result, error) {
	setDefaults(&cfg)
	fn := pkg.Func(cfg.Entry)
	if fn == nil {
		return nil, fmt.Errorf("symbolic: package %s has no function %s", pkg.Pkg.Path(), cfg.Entry)
	}
	start := time.Now()
	e := &executor{
		cfg:    cfg,
		prog:   prog,
		local:  map[*ssa.Package]bool{pkg: true},
		loops:  map[*ssa.Function]map[*ssa.BasicBlock]*loop{},
		unsupp: map[string]string{},
		mined:  newMined(),
	}
	e.mined.mergeSites = cfg.MergeCallSites
	var tokens map[int]*mined
	if cfg.Lexer != nil {
		l, err := e.resolveLexer(pkg, cfg.Lexer)
		if err != nil {
			return nil, err
		}
		if tokens, err = e.mineTokens(ctx, pkg, cfg.Lexer, l); err != nil {
			return &Result{Stats: e.stats, Unsupported: e.sortedUnsupported()}, err
		}
		e.lexer = l
		e.mined.tokens = l.names
	}
	lexStats := e.stats
	e.stats = Stats{}
	err := e.mineEntry(ctx, pkg, fn)
	e.stats.add(lexStats)
	e.stats.Duration = time.Since(start)
	if err != nil {
		return &Result{Stats: e.stats, Unsupported: e.sortedUnsupported()}, err
	}
	m := e.mined
	m.finish()
	m.simplify(map[string]bool{e.entryNT: true})
	g := m.grammar(e.entryNT)
	var tokNames []string
	if tokens != nil {
		g.Rules = append(g.Rules, tokenRules(tokens, e.lexer.names)...)
		tokNames = tokenNames(tokens, e.lexer.names)
	}
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("symbolic: the mined grammar is malformed (a kfuzz bug): %v", err)
	}
	e.stats.Duration = time.Since(start)
	return &Result{Grammar: g, Tokens: tokNames, Stats: e.stats, Unsupported: e.sortedUnsupported()}, nil
}

// mineEntry explores the paths of fn, which takes the input as its only
// parameter, and records the accepting ones.
func (e *executor) mineEntry(ctx context.Context, pkg *ssa.Package, fn *ssa.Function) error {
	name := fn.Name()
	params := fn.Signature.Params()
	if params.Len() != 1 || fn.Signature.Recv() != nil {
		return fmt.Errorf("symbolic: %s must take the input as its only parameter, not %s", name, fn.Signature)
	}
	bytesIn := false
	switch u := params.At(0).Type().Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			return fmt.Errorf("symbolic: %s takes %s; want string or []byte", name, params.At(0).Type())
		}
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); !ok || b.Kind() != types.Byte {
			return fmt.Errorf("symbolic: %s takes %s; want string or []byte", name, params.At(0).Type())
		}
		bytesIn = true
	default:
		return fmt.Errorf("symbolic: %s takes %s; want string or []byte", name, params.At(0).Type())
	}
	e.entry, e.bytesIn = fn, bytesIn
	e.entryNT = e.mined.name(fn.Name(), symbolName(fn))
	s, err := e.initialState(pkg)
	if err != nil {
		return err
	}
	s.frames = []*frame{{
		fn:    fn,
		env:   map[ssa.Value]value{fn.Params[0]: view{off: 0, end: -1, bytes: bytesIn}},
		block: fn.Blocks[0],
		site:  fn.Name(),
		seg:   segment{key: fn.Name(), fn: fn},
	}}
	if l := e.loopsOf(fn)[fn.Blocks[0]]; l != nil {
		s.frames[0].loops = []loopRun{{l: l, act: 1, iter: 1}}
	}
	s.lenHi = e.cfg.MaxLen
	e.composing = e.cfg.Compose && e.tokens == nil
	e.groups, e.ids, e.tables = map[sumKey]*group{}, map[any]int{}, map[*[256]int64]sumKey{}
	e.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	if err := e.explore(ctx, s, e.cfg.Progress); err != nil {
		return err
	}
	if e.stats.Accepted == 0 {
		return fmt.Errorf("symbolic: no path through %s accepts an input (%d paths: %d rejected, %d stopped by bounds or unsupported code)",
			name, e.stats.Paths, e.stats.Rejected, e.stats.Terminated)
	}
	return nil
}

func setDefaults(cfg *Config) {
	if cfg.LoopBound <= 0 {
		cfg.LoopBound = DefaultLoopBound
	}
	if cfg.RecursionBound <= 0 {
		cfg.RecursionBound = DefaultRecursionBound
	}
	if cfg.MaxPaths <= 0 {
		cfg.MaxPaths = DefaultMaxPaths
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.MaxStates <= 0 {
		cfg.MaxStates = DefaultMaxStates
	}
	if cfg.Saturation == 0 {
		cfg.Saturation = DefaultSaturation
	}
	if cfg.MaxLen <= 0 {
		cfg.MaxLen = DefaultMaxLen
	}
}

// initialState runs the package's initialisation (its package-level variable
// initialisers and init functions) concretely, so that tables built there are
// known.
func (e *executor) initialState(pkg *ssa.Package) (*state, error) {
	s := &state{globals: map[*ssa.Global]int{}}
	init := pkg.Func("init")
	if init == nil || len(init.Blocks) == 0 {
		return s, nil
	}
	s.frames = []*frame{{fn: init, env: map[ssa.Value]value{}, block: init.Blocks[0], site: "init", seg: segment{key: "init", fn: init}}}
	saved := e.entry
	e.entry = init
	defer func() { e.entry = saved }()
	if o := e.run(s); o != accepted || len(e.work) != 0 {
		e.work = e.work[:0]
		return nil, fmt.Errorf("symbolic: cannot run the initialisation of %s (it must not depend on untracked values); see the unsupported constructs: %v",
			pkg.Pkg.Path(), e.sortedUnsupported())
	}
	s.accesses = nil
	return s, nil
}
