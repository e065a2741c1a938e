package grammar

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// A Parser is an Earley parser for a grammar graph. It accepts every grammar
// that Compile accepts — empty rules, left and right recursion, cycles,
// quantifiers, character classes and ambiguity — and returns all
// derivations of an input as a shared packed parse forest (a Forest), from
// which trees in grammar-graph terms, the number of parses and k-paths are
// taken.
//
// The parser works on bytes. It compiles the graph into a grammar of byte
// terminals: a rune class matches one UTF-8 encoded character of its set (so
// invalid UTF-8 never matches it), a byte class matches one byte. It uses
// Aycock and Horspool's handling of nullable symbols, one byte of lookahead
// to skip items that cannot take part in a parse, and Leo's optimization,
// which keeps right recursion linear. On an unambiguous grammar parsing takes
// time and memory linear in the input.
//
// # Bounds
//
// A forest keeps 16 bytes per Earley item and 12 per further derivation of
// an ambiguous node. The built-in unambiguous grammars need up to 3.5
// items per input byte (60 bytes), JSON 2.1 (33 bytes); with the parse's
// scratch space (its sets and the items waiting in them), the input and
// the runtime, kfuzz parse of a 9 MB JSON document peaks at 54 bytes of
// resident memory per input byte. An ambiguous grammar
// can need up to quadratically many items and cubically many derivations
// in the input length. MaxItems bounds items plus derivations (default
// DefaultMaxItems, 64M); Parse and Recognize fail with an error wrapping
// ErrItemLimit before an input exceeds it. Derivations are stored in
// chunks that are never copied and the item array never grows past the
// limit, so the limit bounds memory: at most 16 bytes per item or 12 per
// derivation, plus, while the item array doubles, its old half (a parse
// stopped by the default limit on <s> ::= <s> <s> | "a" peaks at 0.8 GB
// of resident memory). NewParser refuses grammars whose quantifiers
// expand to more than a million symbols (x{0,65536} of a long x).
//
// # Automata
//
// By default (see ScanRegular) the parser scans the nonterminals whose
// language is regular — strings, numbers, identifiers, white space:
// literals, classes and lists of them — with a DFA compiled from the
// grammar, in one step per span instead of Earley items per byte, and
// completes them at every end the DFA accepts where the grammar can go on.
// A forest then keeps one 12-byte record per scanned span, which the
// items waiting for the span link to (JSON: 0.21 items and 0.08 spans per
// input byte instead of 2.1 items), and rebuilds the derivations inside
// the spans, with the general algorithm span by span, the first time its
// trees or paths are asked for: they are the same as without automata.
// Tree rebuilds only the spans of the tree it returns. Count rebuilds
// none if every scanned token is unambiguous (each span has one
// derivation as its token, which the parser proves per token when it is
// made: the case of most tokens, all of JSON's and XML's). MaxItems
// bounds the parse; the rebuilt derivations take about what a parse
// without automata would (JSON: 2.2 items per byte) and are not counted
// against it, so ScanRegular(false) is the way to bound all of a forest's
// memory by MaxItems. An input the parser rejects is parsed again without
// automata, which reports the error where the general algorithm does.
//
// A Parser is safe for concurrent use; scratch buffers are reused between
// parses.
type Parser struct {
	g        *egrammar
	graph    *Graph
	start    *Node
	maxItems int
	pool     sync.Pool // *parseState
	spare    atomic.Pointer[parseState]

	// items, groups and waiters per input byte of the last large parse,
	// times 16
	itemsPerByte, groupsPerByte, waitersPerByte atomic.Uint32
}

// DefaultMaxItems is the default bound on Earley items plus further
// derivations of one parse (see MaxItems).
const DefaultMaxItems = 1 << 26

// ErrItemLimit is wrapped by the error Parse returns when the parse of an
// input would need more items than the parser's MaxItems.
var ErrItemLimit = errors.New("grammar: Earley item limit exceeded")

// A ParserOption configures NewParser.
type ParserOption func(*parserConfig)

type parserConfig struct {
	start    string
	maxItems int
	general  bool
}

// ParseFrom makes the parser recognize the nonterminal name instead of the
// graph's start symbol. The rule must be part of the graph (reachable from
// the start symbol the graph was compiled with; see WithStart). Trees then
// have the right-hand side of that rule as their root.
func ParseFrom(name string) ParserOption {
	return func(c *parserConfig) { c.start = name }
}

// MaxItems bounds the number of Earley items plus further derivations of
// one parse, and with it the memory a parse takes (16 or 12 bytes each, plus
// scratch space). Zero or less means DefaultMaxItems.
func MaxItems(n int) ParserOption {
	return func(c *parserConfig) { c.maxItems = n }
}

// ScanRegular turns the scanning of regular sub-languages by automata on
// (the default) or off. With it on, the parser scans the nonterminals
// whose language is regular — literals, character classes, quantified
// tokens such as [0-9]+, strings, white space — with a DFA in one step
// instead of Earley items per byte, and rebuilds their derivations when a
// forest's trees, count or paths are first asked for. Forests, trees,
// counts, k-paths and syntax errors are the same either way (an item
// limit may be reached at another offset, or not at all, as the parse
// keeps fewer items); off, all of a forest's memory is bounded by
// MaxItems (see Forest.Size).
func ScanRegular(on bool) ParserOption {
	return func(c *parserConfig) { c.general = !on }
}

// NewParser returns a parser for gr. It fails if the start symbol chosen by
// ParseFrom is not part of the graph, or if the grammar is too large once
// bounded quantifiers are expanded (x{0,65536} of a long element).
func NewParser(gr *Graph, opts ...ParserOption) (*Parser, error) {
	var cfg parserConfig
	for _, o := range opts {
		o(&cfg)
	}
	start := gr.Root
	if cfg.start != "" {
		start = gr.RHS(cfg.start)
		if start == nil {
			return nil, fmt.Errorf("grammar: nonterminal <%s> is not part of the grammar graph", cfg.start)
		}
	}
	if cfg.maxItems <= 0 {
		cfg.maxItems = DefaultMaxItems
	}
	// Items and links are numbered with int32.
	cfg.maxItems = min(cfg.maxItems, math.MaxInt32/2)
	g, err := compileEarley(gr, start, !cfg.general)
	if err != nil {
		return nil, err
	}
	return &Parser{g: g, graph: gr, start: start, maxItems: cfg.maxItems}, nil
}

// Graph returns the grammar graph the parser parses with.
func (p *Parser) Graph() *Graph { return p.graph }

// Start returns the graph node the parser's trees are rooted at: the
// right-hand side of the start rule.
func (p *Parser) Start() *Node { return p.start }

// Parse parses input and returns the forest of all its derivations. If the
// input is not in the language, the error is a *SyntaxError. If the parse
// would exceed the parser's MaxItems, the error wraps ErrItemLimit; inputs
// longer than MaxInputSize are refused. The forest keeps a copy of input.
func (p *Parser) Parse(input []byte) (*Forest, error) {
	s := p.getState()
	defer p.putState(s)
	s.input = slices.Clone(input)
	s.links = true
	// Allocate about what the last parse needed per byte, which avoids both
	// regrowing the item array and reserving much more than is used.
	// The same for the groups and waiters of the sets, which are scratch
	// space but grow with the input too. (Memory reserved but not used
	// stays virtual if the runtime takes it fresh from the system, as it
	// does for large arrays in a short-lived process such as the CLI.)
	estimate := func(perByte16 *atomic.Uint32, guess float64) int {
		perByte := float64(perByte16.Load()) / 16
		if perByte == 0 {
			perByte = guess
		}
		return min(int(perByte*1.1*float64(len(input)))+64, p.maxItems)
	}
	// The items of a recycled forest serve unless they are far more than
	// the estimate (short of it, they grow as a new array would).
	if n := estimate(&p.itemsPerByte, 4); s.spare != nil && cap(s.spare) <= 2*n+4096 {
		s.items = s.spare
	} else {
		s.items = make([]item, 0, n)
	}
	s.spare = nil
	// A state keeps its buffers between parses; one reserved by a first
	// guess far above what such inputs need is replaced.
	if n := estimate(&p.groupsPerByte, 1); cap(s.groups) < n || cap(s.groups) > 2*n+4096 {
		s.groups = make([]group, 0, n)
	}
	if n := estimate(&p.waitersPerByte, 1); cap(s.waiters) < n || cap(s.waiters) > 2*n+4096 {
		s.waiters = make([]int32, 0, n)
	}
	s.store, s.multi = linkStore{}, nil
	if s.spareLinks != nil {
		s.store.chunks = [][]xlink{s.spareLinks}
		s.spareLinks = nil
	}
	root, err := s.run(s.g.tok != nil)
	if err != nil {
		return nil, err
	}
	if n := len(input); n >= 1024 {
		// In 16ths, rounded up: rounded down, the estimate of the next
		// parse of a similar input falls short and the array doubles.
		p.itemsPerByte.Store(uint32((16*len(s.items) + n - 1) / n))
		p.groupsPerByte.Store(uint32((16*len(s.groups) + n - 1) / n))
		p.waitersPerByte.Store(uint32((16*len(s.waiters) + n - 1) / n))
	}
	f := &Forest{g: p.g, input: s.input, items: s.items, links: s.store, multi: s.multi, root: root, maxItems: p.maxItems}
	if len(s.leos) > 0 {
		if err := s.materializeLeo(f, []int32{root}); err != nil {
			return nil, err
		}
	}
	f.size = len(f.items) + f.links.len() + len(s.toks)
	if len(s.toks) > 0 {
		f.toks = slices.Clone(s.toks)
	}
	s.items, s.store, s.multi, s.input = nil, linkStore{}, nil, nil
	return f, nil
}

// Recycle gives the parser the memory of f, a forest Parse returned, for
// its next parses: f, and the forests its methods made, must not be used
// any more. Trees and paths taken from f stay valid (they share no memory
// with it). A caller that parses input after input and drops each forest
// before the next parse allocates less per parse.
func (p *Parser) Recycle(f *Forest) {
	if f == nil || f.g != p.g {
		return
	}
	s := p.getState()
	s.spare = f.items[:0]
	if len(f.links.chunks) == 1 {
		s.spareLinks = f.links.chunks[0]
	}
	// The items of the expansion Tree made, for the next expansion, if
	// the grammar's expansion state is not in use.
	if x := f.first.Load(); x != nil && x != f {
		if st := p.g.spanState.Swap(nil); st != nil {
			st.spare = x.items[:0]
			p.g.keepSpanState(st)
		}
		x.items = nil
	}
	// A use after Recycle fails rather than reading another parse's items.
	f.items, f.links = nil, linkStore{}
	p.putState(s)
}

// Recognize reports whether input is in the language: it returns nil if it
// is, a *SyntaxError if it is not, and an error wrapping ErrItemLimit if the
// parse would exceed the parser's MaxItems. It builds no forest and reuses
// its memory between calls, so it is faster than Parse.
func (p *Parser) Recognize(input []byte) error {
	s := p.getState()
	defer p.putState(s)
	s.input = input
	s.links = false
	s.items, s.multi = s.items[:0], s.multi[:0]
	_, err := s.run(s.g.tok != nil)
	s.input = nil
	return err
}

func (p *Parser) getState() *parseState {
	if s := p.spare.Swap(nil); s != nil {
		return s
	}
	if s, _ := p.pool.Get().(*parseState); s != nil {
		return s
	}
	return newParseState(p.g, p.maxItems)
}

func newParseState(g *egrammar, maxItems int) *parseState {
	return &parseState{g: g, viable: g.viable, maxItems: maxItems, predStamp: make([]uint32, g.numNT),
		ruleGen: make([]uint32, len(g.dots)), ruleItem: make([]int32, len(g.dots)), startNT: -1, endLA: -1}
}

// maxSpareScratch is the most scratch space a parser keeps between parses
// (beyond it, in a sync.Pool, until the next garbage collections): enough
// to recognize 1 MB of JSON (20 MB) without allocating.
const maxSpareScratch = 32 << 20

// putState keeps s as the parser's spare state if its buffers are small,
// so that parsing small inputs one after the other allocates nothing, and
// otherwise returns it to the pool, which drops it, with its buffers, at
// the next garbage collections.
func (p *Parser) putState(s *parseState) {
	s.leos = s.leos[:0]
	if s.scratchBytes() <= maxSpareScratch && p.spare.CompareAndSwap(nil, s) {
		return
	}
	p.pool.Put(s)
}

// scratchBytes returns the size of the buffers of s that grow with the
// input.
func (s *parseState) scratchBytes() int {
	return 16*(cap(s.items)+cap(s.spare)) + 12*(cap(s.xlinks)+cap(s.spareLinks)) + 24*cap(s.groups) +
		4*(cap(s.waiters)+cap(s.groupStart)) + 8*cap(s.multi) + 8*cap(s.leos) +
		12*(cap(s.scanIn)+cap(s.scanOut)) + 8*cap(s.wpairs) + 16*len(s.hkeys) + 12*cap(s.pend) + 12*cap(s.toks)
}

// An item is an Earley item with its first forest link inline: the dotted
// rule (never at dot 0: predicted items are not stored), the origin, and a
// link (pred, child) giving one derivation of the part before the dot:
// pred is the item before the last symbol was advanced over (-1 if that was
// at dot 0) and child what that symbol derived (see the child* encoding).
type item struct {
	rule, origin int32
	pred, child  int32
}

// An xlink is a further derivation of an item that has more than one. The
// xlinks of a parse are sorted by item, and the items that have any are
// marked in a bitmap.
type xlink struct {
	item, pred, child int32
}

// Link children: a complete item (>= 0, below childSpan), a span k
// scanned by a token's automaton (childSpan + k, the forest's toks[k],
// until the forest is expanded), the derivations of a span's item
// (childTok, until the forest is expanded), a scanned byte, the
// ε-derivations of nonterminal B (childEps - B), or a Leo chain (childEps
// - numNT - k, only during parsing).
const (
	childTok  int32 = -1
	childTerm int32 = -2
	childEps  int32 = -3
	// Item numbers stay below: MaxItems is at most math.MaxInt32/2, and
	// spans count against it.
	childSpan int32 = 1 << 30
)

// A group lists the items of one Earley set that wait for one nonterminal.
// A waiting item is an item index, or ^rule for a rule predicted in the
// group's set (at dot 0, so not stored).
type group struct {
	sym, start, n int32
	set           int32
	top           int32 // Leo: -2 not computed, -1 no path, else the top group
	depth         int32 // Leo: the number of steps to top
}

type scanEntry struct{ rule, origin, pred int32 }

type leoLink struct{ group, bottom int32 }

type wpair struct{ sym, item int32 }

// A tokEnd is an end of a token's span found by its automaton, to be
// completed when the parse reaches it.
type tokEnd struct{ end, sym, origin int32 }

// A tokSpan is a span of token sym scanned by its automaton.
type tokSpan struct{ sym, origin, end int32 }

// parseState is the state of one parse; its buffers are reused.
type parseState struct {
	g        *egrammar
	maxItems int
	input    []byte
	links    bool

	items      []item
	spare      []item    // the items of a recycled forest, for the next Parse or expansion (see Recycle)
	spareLinks []xlink   // the first chunk of its links
	xlinks     []xlink   // the xlinks of the current set
	store      linkStore // the xlinks of the sets before
	multi      []uint64  // bitmap of the items with xlinks
	nlinks     int       // further links made, also when they are not kept
	linkCount  []int32   // scratch of storeLinks

	setLo      int32 // the current set is items[setLo:]
	waiters    []int32
	groups     []group
	groupStart []int32 // groups of set j are groups[groupStart[j]:groupStart[j+1]] (for the sets that have items)
	leos       []leoLink

	scanIn, scanOut []scanEntry
	wpairs          []wpair
	leoPath         []int32
	predQueue       []int32
	pend            []tokEnd  // ends of scanned tokens ahead, a heap by end
	toks            []tokSpan // the scanned tokens of the forest
	tokens          bool      // scan the grammar's tokens with their automata
	startNT         int32     // the nonterminal to parse the input as, -1 for the start symbol
	endLA           int       // the lookahead at the end of the input, -1 for none
	predStamp       []uint32
	stamp           uint32

	// dedup of the current set: the first item of each rule, and a hash
	// table (rule, origin) -> item for the others
	ruleGen  []uint32
	ruleItem []int32
	hkeys    []uint64
	hvals    []int32
	hgen     []uint32
	gen      uint32
	hused    int

	// the current set
	set      int32
	la       int // lookahead byte, or -1 at the end of the input
	laWord   int // la's word and bit in a byteSet
	laBit    uint64
	viable   []byteSet // the grammar's viable
	filter   bool      // use the lookahead
	overflow bool
}

// MaxInputSize is the longest input Parse and Recognize accept.
const MaxInputSize = 1 << 30

// errRetryGeneral stops a parse with tokens that rejects its input.
var errRetryGeneral = errors.New("grammar: input rejected with tokens")

// run parses s.input and returns the accepting item, scanning tokens with
// their automata if tokens is set. A rejected input is then parsed again
// without them, so that the error's position and expected terminals are
// those of the general algorithm (an automaton stops at a token's first
// wrong byte but reports no error there).
func (s *parseState) run(tokens bool) (int32, error) {
	s.tokens = tokens
	root, err := s.runOnce()
	if err == errRetryGeneral {
		s.tokens = false
		s.items = s.items[:0]
		s.multi = s.multi[:0]
		s.store = linkStore{}
		root, err = s.runOnce()
	}
	return root, err
}

// fail returns the error for a parse that cannot extend set j.
func (s *parseState) fail(j int) error {
	if s.tokens {
		return errRetryGeneral
	}
	return s.syntaxError(j)
}

// runOnce parses s.input; see run.
func (s *parseState) runOnce() (int32, error) {
	n := len(s.input)
	if n > MaxInputSize {
		return -1, fmt.Errorf("grammar: an input of %d bytes is longer than the parser takes (%d)", n, MaxInputSize)
	}
	// One entry per set and one more: allocated once, not grown.
	if cap(s.groupStart) < n+2 {
		s.groupStart = make([]int32, 0, n+2)
	}
	s.groupStart = append(s.groupStart[:0], 0)
	s.waiters, s.groups, s.leos = s.waiters[:0], s.groups[:0], s.leos[:0]
	s.xlinks, s.nlinks = s.xlinks[:0], 0
	s.scanIn, s.scanOut = s.scanIn[:0], s.scanOut[:0]
	s.wpairs = s.wpairs[:0] // a parse stopped by the item limit leaves some
	s.predQueue = s.predQueue[:0]
	s.pend, s.toks = s.pend[:0], s.toks[:0]
	s.overflow = false
	s.filter = true
	for j := 0; ; j++ {
		s.beginSet(j)
		if j == 0 {
			if s.startNT >= 0 {
				s.needPrediction(s.startNT)
			} else {
				s.predictRule(s.g.rootDot)
			}
		} else {
			for _, e := range s.scanIn {
				if s.tokens && s.g.skip != nil && s.g.skip[e.rule] >= 0 && !s.skipViable(e.rule, j) {
					continue
				}
				s.add(e.rule, e.origin, e.pred, childTerm)
			}
			s.addTokens(int32(j))
			if int(s.setLo) == len(s.items) {
				// An empty set, inside the spans of tokens: skip to the
				// next end of one.
				if len(s.pend) == 0 {
					return -1, s.fail(j)
				}
				// Sets j..next-1 are empty. Only the start of the next set's
				// groups is recorded: no item has its origin in an empty
				// set, so nothing looks up the groups of the sets in
				// between.
				next := int(s.pend[0].end)
				s.groupStart = s.groupStart[:next+1]
				s.groupStart[next] = int32(len(s.groups))
				s.scanIn = s.scanIn[:0]
				j = next - 1
				continue
			}
		}
		s.process()
		if s.overflow {
			return -1, s.limitError(j)
		}
		s.finishSet()
		if j == n {
			break
		}
		if len(s.scanOut) == 0 && len(s.pend) == 0 {
			return -1, s.fail(j)
		}
		// Copied rather than swapped: a few entries, and no write
		// barrier.
		s.scanIn = s.scanIn[:0]
		s.scanIn = append(s.scanIn, s.scanOut...)
		s.scanOut = s.scanOut[:0]
	}
	if s.startNT >= 0 {
		return -1, nil // the caller looks for the complete items
	}
	root := s.lookup(s.g.rootDot+1, 0)
	if root < 0 {
		return -1, s.fail(n)
	}
	return root, nil
}

// scanToken runs the automaton of token a from the current set and queues
// the ends of its spans: every offset e up to which it accepts and at which
// a can end (the byte there can follow it, or e is the end of the input).
func (s *parseState) scanToken(a int32) {
	j := s.set
	d := s.g.tok[a]
	in := s.input
	trans, class := d.trans, &d.class
	row := int32(0)
	for k := int(j); k < len(in); k++ {
		x := trans[row+int32(class[in[k]])]
		row = x >> 1
		// The dead state, -1, has the accepting bit too: one test per
		// byte for both.
		if x&1 == 0 {
			continue
		}
		if x < 0 {
			return
		}
		if e := k + 1; (e < len(in) && d.follow.has(in[e])) || (e == len(in) && d.eofNext) {
			if len(s.items)+s.nlinks+len(s.pend) >= s.maxItems {
				s.overflow = true
				return
			}
			s.pushEnd(tokEnd{end: int32(e), sym: a, origin: j})
		}
	}
}

// addTokens completes the tokens whose spans end at set j: it advances
// the items waiting for them directly, without an item for the span (that
// item would only be completed: a span is non-empty, so the item is not
// from set j, and the automaton ended the span only where its follow bytes
// allow, which is what the item's lookahead filter checks). Parsing, the
// links name the span (childSpan + its number in s.toks); the forest's
// expansion makes it an item.
func (s *parseState) addTokens(j int32) {
	for len(s.pend) > 0 && s.pend[0].end == j {
		e := s.popEnd()
		gi := s.findGroup(e.origin, e.sym)
		if gi < 0 {
			continue
		}
		c := int32(-1)
		if s.links {
			c = childSpan + int32(len(s.toks))
			s.toks = append(s.toks, tokSpan{sym: e.sym, origin: e.origin, end: j})
			s.nlinks++ // a span counts against MaxItems like a link
		}
		s.completeGroup(gi, c, e.origin)
	}
}

// pushEnd adds e to the heap of pending token ends. (It and popEnd change
// s.pend in place: storing a local copy back would cost a write barrier
// while the garbage collector runs.)
func (s *parseState) pushEnd(e tokEnd) {
	s.pend = append(s.pend, e)
	h := s.pend
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p].end <= h[i].end {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

// popEnd removes and returns the first pending token end.
func (s *parseState) popEnd() tokEnd {
	h := s.pend
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	s.pend = s.pend[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(h) && h[l].end < h[m].end {
			m = l
		}
		if l+1 < len(h) && h[l+1].end < h[m].end {
			m = l + 1
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	return top
}

// beginSet starts Earley set j.
func (s *parseState) beginSet(j int) {
	s.set = int32(j)
	s.setLo = int32(len(s.items))
	s.la = s.endLA
	if j < len(s.input) {
		s.la = int(s.input[j])
	}
	if s.la >= 0 {
		s.laWord, s.laBit = s.la>>6, 1<<(s.la&63)
	}
	s.stamp++
	if s.stamp == 0 {
		clear(s.predStamp)
		s.stamp = 1
	}
	s.gen++
	if s.gen == 0 {
		clear(s.hgen)
		clear(s.ruleGen)
		s.gen = 1
	}
	s.hused = 0
	if s.hkeys == nil {
		s.growHash(64)
	}
}

func (s *parseState) growHash(size int) {
	old := s.hkeys
	oldv, oldg := s.hvals, s.hgen
	s.hkeys = make([]uint64, size)
	s.hvals = make([]int32, size)
	s.hgen = make([]uint32, size)
	s.hused = 0
	for i, k := range old {
		if oldg[i] == s.gen {
			s.hinsert(k, oldv[i])
		}
	}
}

func hashKey(k uint64) uint64 {
	k ^= k >> 29
	k *= 0xbf58476d1ce4e5b9
	k ^= k >> 32
	return k
}

func (s *parseState) hinsert(k uint64, v int32) {
	mask := uint64(len(s.hkeys) - 1)
	for h := hashKey(k) & mask; ; h = (h + 1) & mask {
		if s.hgen[h] != s.gen {
			s.hgen[h], s.hkeys[h], s.hvals[h] = s.gen, k, v
			s.hused++
			return
		}
	}
}

// lookup returns the item of the current set with the given rule and
// origin, or -1.
func (s *parseState) lookup(rule, origin int32) int32 {
	if s.ruleGen[rule] != s.gen {
		return -1
	}
	if i := s.ruleItem[rule]; s.items[i].origin == origin {
		return i
	}
	k := uint64(uint32(rule))<<32 | uint64(uint32(origin))
	mask := uint64(len(s.hkeys) - 1)
	for h := hashKey(k) & mask; ; h = (h + 1) & mask {
		if s.hgen[h] != s.gen {
			return -1
		}
		if s.hkeys[h] == k {
			return s.hvals[h]
		}
	}
}

// add adds the item (rule, origin) with the link (pred, child) to the
// current set, or only the link if the item is there. Items are found by
// rule first (most rules occur once in a set) and by rule and origin in a
// hash table otherwise. With the lookahead on, items that cannot take part
// in a parse are dropped.
func (s *parseState) add(rule, origin, pred, child int32) {
	if s.filter {
		if s.la >= 0 {
			if s.viable[rule][s.laWord]&s.laBit == 0 {
				return
			}
		} else if s.g.dots[rule].flags&dotViableEOF == 0 {
			return
		}
	}
	if len(s.items)+s.nlinks >= s.maxItems {
		s.overflow = true
		return
	}
	idx := int32(len(s.items))
	if s.ruleGen[rule] != s.gen {
		s.ruleGen[rule], s.ruleItem[rule] = s.gen, idx
		s.pushItem(item{rule: rule, origin: origin, pred: pred, child: child})
		return
	}
	if first := s.ruleItem[rule]; s.items[first].origin == origin {
		s.link(first, pred, child)
		return
	}
	k := uint64(uint32(rule))<<32 | uint64(uint32(origin))
	mask := uint64(len(s.hkeys) - 1)
	h := hashKey(k) & mask
	for s.hgen[h] == s.gen {
		if s.hkeys[h] == k {
			s.link(s.hvals[h], pred, child)
			return
		}
		h = (h + 1) & mask
	}
	s.pushItem(item{rule: rule, origin: origin, pred: pred, child: child})
	s.hgen[h], s.hkeys[h], s.hvals[h] = s.gen, k, idx
	s.hused++
	if 2*s.hused > len(s.hkeys) {
		s.growHash(2 * len(s.hkeys))
	}
}

// pushItem appends it to the items. The array doubles, but never beyond
// the item limit, which add keeps.
func (s *parseState) pushItem(it item) {
	if len(s.items) == cap(s.items) {
		c := max(min(2*cap(s.items), s.maxItems), len(s.items)+1, 64)
		items := make([]item, len(s.items), c)
		copy(items, s.items)
		s.items = items
	}
	s.items = append(s.items, it)
}

// link adds the link (pred, child) to item i.
func (s *parseState) link(i, pred, child int32) {
	s.nlinks++
	if s.links {
		s.xlinks = append(s.xlinks, xlink{item: i, pred: pred, child: child})
		for int(i>>6) >= len(s.multi) {
			s.multi = append(s.multi, 0)
		}
		s.multi[i>>6] |= 1 << (i & 63)
	}
}

// process runs the Earley closure of the current set: prediction,
// completion and the advance over nullable symbols. Items waiting for a
// terminal go to scanOut.
func (s *parseState) process() {
	g := s.g
	j := s.set
	i := int(s.setLo)
	for {
		for ; i < len(s.items); i++ {
			if s.overflow {
				return
			}
			it := &s.items[i]
			rule, origin := it.rule, it.origin
			d := &g.dots[rule]
			switch next := d.next; {
			case next == dotEnd:
				if origin != j {
					s.complete(int32(i), d.lhs, origin)
				}
			case next < 0:
				s.scanOut = append(s.scanOut, scanEntry{rule: rule + 1, origin: origin, pred: int32(i)})
			default:
				s.wpairs = append(s.wpairs, wpair{sym: next, item: int32(i)})
				s.needPrediction(next)
				if d.flags&dotNullNext != 0 {
					s.add(rule+1, origin, int32(i), childEps-next)
				}
			}
		}
		if len(s.predQueue) == 0 {
			return
		}
		a := s.predQueue[len(s.predQueue)-1]
		s.predQueue = s.predQueue[:len(s.predQueue)-1]
		s.predict(a)
	}
}

// needPrediction queues nonterminal a for prediction in the current set,
// once.
func (s *parseState) needPrediction(a int32) {
	if s.predStamp[a] != s.stamp {
		s.predStamp[a] = s.stamp
		s.predQueue = append(s.predQueue, a)
	}
}

// predict predicts the productions of nonterminal a that can start with
// the lookahead.
func (s *parseState) predict(a int32) {
	g := s.g
	if !s.filter {
		for _, p := range g.ntProds[a] {
			s.predictRule(g.prodBase[p])
		}
		return
	}
	if s.la < 0 || g.ntFirst[a][s.laWord]&s.laBit == 0 {
		return
	}
	if s.tokens && g.tok[a] != nil {
		s.scanToken(a)
		return
	}
	if tab := g.ntPredict[a]; tab != nil {
		for _, r := range tab[257+tab[s.la] : 257+tab[s.la+1]] {
			s.predictRule(r)
		}
		return
	}
	for _, p := range g.ntProds[a] {
		if g.prodFst[p][s.laWord]&s.laBit != 0 {
			s.predictRule(g.prodBase[p])
		}
	}
}

// predictRule predicts dotted rule r (at dot 0) in the current set. The
// predicted item itself is not stored: if it waits for a terminal it goes
// to scanOut, if it waits for a nonterminal it joins that nonterminal's
// group as ^r.
func (s *parseState) predictRule(r int32) {
	j := s.set
	d := &s.g.dots[r]
	switch next := d.next; {
	case next == dotEnd:
		// An empty production: its derivation is the nonterminal's ε-forest.
	case next < 0:
		s.scanOut = append(s.scanOut, scanEntry{rule: r + 1, origin: j, pred: -1})
	default:
		s.wpairs = append(s.wpairs, wpair{sym: next, item: ^r})
		s.needPrediction(next)
		if d.flags&dotNullNext != 0 {
			s.add(r+1, j, -1, childEps-next)
		}
	}
}

// waiter returns the dotted rule, origin and link predecessor of the
// waiting item w of a group of set j.
func (s *parseState) waiter(w, j int32) (rule, origin, pred int32) {
	if w < 0 {
		return ^w, j, -1
	}
	it := &s.items[w]
	return it.rule, it.origin, w
}

// complete advances the items of set origin waiting for a over the complete
// item c of the current set.
func (s *parseState) complete(c, a, origin int32) {
	if gi := s.findGroup(origin, a); gi >= 0 {
		s.completeGroup(gi, c, origin)
	}
}

// completeGroup advances the items of group gi of set origin over c.
func (s *parseState) completeGroup(gi, c, origin int32) {
	gr := &s.groups[gi]
	if gr.n == 1 {
		if gr.top != -1 {
			if top := s.leoTop(gi, origin); top >= 0 {
				tg := &s.groups[top]
				rule, orig, pred := s.waiter(s.waiters[tg.start], tg.set)
				s.leos = append(s.leos, leoLink{group: gi, bottom: c})
				s.add(rule+1, orig, pred, childEps-int32(s.g.numNT)-int32(len(s.leos)-1))
				return
			}
		}
		rule, orig, pred := s.waiter(s.waiters[gr.start], origin)
		s.add(rule+1, orig, pred, c)
		return
	}
	for _, w := range s.waiters[gr.start : gr.start+gr.n] {
		rule, orig, pred := s.waiter(w, origin)
		s.add(rule+1, orig, pred, c)
	}
}

// findGroup returns the group of set j waiting for a, or -1.
func (s *parseState) findGroup(j, a int32) int32 {
	lo, hi := s.groupStart[j], s.groupStart[j+1]
	if hi-lo <= 8 {
		for i := lo; i < hi; i++ {
			if s.groups[i].sym == a {
				return i
			}
		}
		return -1
	}
	for lo < hi {
		m := int32(uint32(lo+hi) >> 1)
		if s.groups[m].sym < a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < s.groupStart[j+1] && s.groups[lo].sym == a {
		return lo
	}
	return -1
}

// leoEligible reports whether group gi has a single waiting item, whose
// symbol after the dot is the last of its production: completing it
// completes that item, deterministically.
func (s *parseState) leoEligible(gi int32) bool {
	gr := &s.groups[gi]
	if gr.n != 1 {
		return false
	}
	rule, _, _ := s.waiter(s.waiters[gr.start], gr.set)
	return s.g.dots[rule].flags&dotPenult != 0
}

// leoMinChain is the shortest deterministic reduction path that Leo's
// optimization skips. Shorter paths are completed item by item, which costs
// at most leoMinChain items per completion and keeps right recursion linear
// without the bookkeeping of a Leo link for every short path.
const leoMinChain = 8

// leoTop returns the topmost group of the deterministic reduction path
// starting at group gi of set j, if that path has at least leoMinChain
// steps, and -1 otherwise. A path continues from a group whose single
// waiting item (A -> α . B, k) has k < j to the group of set k waiting for
// A, if that is eligible too.
func (s *parseState) leoTop(gi, j int32) int32 {
	if t := s.groups[gi].top; t != -2 {
		if t >= 0 && s.groups[gi].depth < leoMinChain {
			return -1
		}
		return t
	}
	if !s.leoEligible(gi) {
		s.groups[gi].top = -1
		return -1
	}
	// Walk up the path until a group whose top is known or that ends it.
	path := append(s.leoPath[:0], gi)
	cur := gi
	var top, depth int32
	for {
		rule, origin, _ := s.waiter(s.waiters[s.groups[cur].start], j)
		next := int32(-1)
		if origin < j {
			next = s.findGroup(origin, s.g.dots[rule].lhs)
			if next >= 0 && !s.leoEligible(next) {
				next = -1
			}
		}
		if next < 0 {
			top, depth = cur, 0
			break
		}
		if t := s.groups[next].top; t != -2 {
			if t == -1 {
				top, depth = next, 1
			} else {
				top, depth = t, s.groups[next].depth+1
			}
			break
		}
		path = append(path, next)
		cur, j = next, origin
	}
	// depth is now the number of steps from the last group of path to top.
	for k := len(path) - 1; k >= 0; k-- {
		p := path[k]
		if p == top {
			s.groups[p].top = -1
		} else {
			s.groups[p].top, s.groups[p].depth = top, depth
		}
		depth++
	}
	s.leoPath = path
	if t := s.groups[gi].top; t >= 0 && s.groups[gi].depth >= leoMinChain {
		return t
	}
	return -1
}

// finishSet sorts the waiting items of the current set into groups, and
// the set's xlinks by item before it moves them to the store (they only
// link items of the set, so all xlinks stay sorted).
func (s *parseState) finishSet() {
	if len(s.xlinks) > 0 {
		s.storeLinks()
	}
	ws := s.wpairs
	switch {
	case len(ws) > 8:
		slices.SortFunc(ws, func(a, b wpair) int { return int(a.sym) - int(b.sym) })
	case len(ws) > 1:
		for i := 1; i < len(ws); i++ {
			for k := i; k > 0 && ws[k].sym < ws[k-1].sym; k-- {
				ws[k], ws[k-1] = ws[k-1], ws[k]
			}
		}
	}
	// (Appending to the fields themselves, not to local copies stored
	// back, spares the garbage collector's write barrier.)
	top := int32(-2) // not computed
	if !s.g.leo {
		top = -1 // no deterministic reduction path is long enough
	}
	for i := 0; i < len(ws); {
		k := i
		for k < len(ws) && ws[k].sym == ws[i].sym {
			s.waiters = append(s.waiters, ws[k].item)
			k++
		}
		s.groups = append(s.groups, group{sym: ws[i].sym, start: int32(len(s.waiters) - (k - i)), n: int32(k - i), set: s.set, top: top})
		i = k
	}
	s.groupStart = append(s.groupStart, int32(len(s.groups)))
	s.wpairs = s.wpairs[:0]
}

// storeLinks moves the xlinks of the current set to the store, sorted by
// item and otherwise in the order they were made: a few by insertion, more
// by counting the links of each item of the set (there can be
// quadratically many in the set's length on an ambiguous grammar, where a
// comparison sort was most of the parse time).
func (s *parseState) storeLinks() {
	xs := s.xlinks
	s.xlinks = xs[:0]
	if len(xs) <= 16 {
		for i := 1; i < len(xs); i++ {
			for k := i; k > 0 && xs[k].item < xs[k-1].item; k-- {
				xs[k], xs[k-1] = xs[k-1], xs[k]
			}
		}
		s.store.append(xs)
		return
	}
	lo := s.setLo
	cnt := slices.Grow(s.linkCount[:0], len(s.items)-int(lo)+1)[:len(s.items)-int(lo)+1]
	clear(cnt)
	for _, x := range xs {
		cnt[x.item-lo+1]++
	}
	for i := 1; i < len(cnt); i++ {
		cnt[i] += cnt[i-1]
	}
	base := s.store.len()
	s.store.extend(len(xs))
	for _, x := range xs {
		k := &cnt[x.item-lo]
		*s.store.at(base + int(*k)) = x
		*k++
	}
	s.linkCount = cnt
}

func (s *parseState) limitError(j int) error {
	return &ItemLimitError{Limit: s.maxItems, Offset: j, Len: len(s.input)}
}

// An ItemLimitError is the error Parse and Recognize return when an input
// needs more Earley items and links than the parser's MaxItems. It wraps
// ErrItemLimit.
type ItemLimitError struct {
	Limit  int // the parser's MaxItems
	Offset int // the input offset at which the limit was reached
	Len    int // the input's length
}

func (e *ItemLimitError) Error() string {
	return fmt.Sprintf("%v: more than %d items and links at offset %d of %d; raise the parser option MaxItems or shorten the input",
		ErrItemLimit, e.Limit, e.Offset, e.Len)
}

// Unwrap returns ErrItemLimit.
func (e *ItemLimitError) Unwrap() error { return ErrItemLimit }

// A SyntaxError reports an input that the parser rejects: the first
// position at which no derivation of a prefix of the input can be extended.
type SyntaxError struct {
	Offset int // byte offset of the position, 0-based
	Line   int // line of the position, 1-based
	Col    int // column of the position in bytes, 1-based
	// Expected are the terminals that could continue the input at Offset:
	// quoted literals such as "true" (a literal in progress is named in
	// full) and classes such as [0-9], sorted and without duplicates.
	Expected []string
	// Found is what the input holds at Offset: the character (or the byte,
	// if it is not valid UTF-8) as a Go quoted string, or "EOF".
	Found string
}

// Error formats the error as "line:col: unexpected X, expected one of A, B, C".
func (e *SyntaxError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%d: unexpected %s", e.Line, e.Col, e.Found)
	switch len(e.Expected) {
	case 0:
	case 1:
		b.WriteString(", expected " + e.Expected[0])
	default:
		b.WriteString(", expected one of ")
		b.WriteString(strings.Join(e.Expected, ", "))
	}
	return b.String()
}

// syntaxError builds the error for a parse that cannot extend set f. It
// recomputes set f without lookahead to find everything that could come
// next.
func (s *parseState) syntaxError(f int) *SyntaxError {
	e := &SyntaxError{Offset: f, Line: 1, Col: f + 1, Found: "EOF"}
	in := s.input
	if nl := strings.LastIndexByte(string(in[:f]), '\n'); nl >= 0 {
		e.Line = 1 + strings.Count(string(in[:f]), "\n")
		e.Col = f - nl
	}
	if f < len(in) {
		if r, size := utf8.DecodeRune(in[f:]); r != utf8.RuneError || size > 1 {
			e.Found = strconv.QuoteRune(r)
		} else {
			e.Found = strconv.Quote(string(in[f : f+1]))
		}
	}
	// Recompute set f unfiltered. Sets before f are final; set f is rebuilt
	// from the scanned items that started it.
	s.filter = false
	s.items = s.items[:s.setLo]
	s.groupStart = s.groupStart[:f+1]
	s.groups = s.groups[:s.groupStart[f]]
	s.wpairs = s.wpairs[:0]
	s.scanOut = s.scanOut[:0]
	links := s.links
	s.links = false
	s.predQueue = s.predQueue[:0]
	s.beginSet(f)
	if f == 0 {
		s.predictRule(s.g.rootDot)
	} else {
		for _, e := range s.scanIn {
			s.add(e.rule, e.origin, e.pred, childTerm)
		}
	}
	saved := s.maxItems
	s.maxItems = int(^uint(0) >> 1)
	s.process()
	s.maxItems = saved
	s.links = links
	s.filter = true
	seen := map[int32]bool{}
	for _, se := range s.scanOut {
		d := &s.g.dots[se.rule-1]
		lbl := s.g.prodLbl[d.prod][d.dot]
		if lbl >= 0 && !seen[lbl] {
			seen[lbl] = true
			e.Expected = append(e.Expected, s.g.gr.Nodes[lbl].Label())
		}
	}
	slices.Sort(e.Expected)
	e.Expected = slices.Compact(e.Expected)
	s.wpairs = s.wpairs[:0]
	return e
}
