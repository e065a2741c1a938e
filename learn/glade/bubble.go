package glade

import (
	"cmp"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

const (
	// bubbleMaxLen is the longest sibling sequence bubbled into a new
	// nonterminal (Arvada's MAX_GROUP_LEN is 10 too).
	bubbleMaxLen = 10
	// bubbleSamples bounds the check strings of one merge in each
	// direction: each string of one side in each context of the other, all
	// of them when there are no more, else every string and every context
	// at least once and a seeded random choice of further pairs.
	bubbleSamples = 50
	// bubbleFirst is the number of checks per direction made for every
	// candidate of a chunk at once; only the candidates that pass them get
	// their other checks.
	bubbleFirst = 2
	// bubbleChunk is the number of candidates whose first checks go to the
	// oracle in one batch.
	bubbleChunk = 128
	// bubbleMaxCands bounds the candidates tried in one round; a round
	// that finds no merge among them ends the stage.
	bubbleMaxCands = 20000
	// bubbleMaxPerContext bounds the units that share one context (the
	// bytes left and right of them) among which pairs are formed.
	bubbleMaxPerContext = 400
	// labelStart is the label of the seeds' roots; labels below it are
	// those of the leaves (the byte), new labels come after it.
	labelStart = 256
	// nearStart is the one-byte context every unit shares with <start>.
	nearStart = 1 << 21
	// charMaxContexts bounds the contexts in which character
	// generalization checks a character that passed the first
	// bubbleSamples of them.
	charMaxContexts = 1000
	// unicodeMin is how many of the 95 printable ASCII characters a label
	// must derive before character generalization tries unicodeProbes.
	unicodeMin = 80
)

// unicodeProbes are the non-ASCII characters, of two, three and four bytes
// in UTF-8, that stand for all of them in character generalization.
var unicodeProbes = []rune{'é', 'ਏ', '中', '\U0001F600'}

// nonASCII is the class of all non-ASCII Unicode scalar values.
func nonASCII() *grammar.Class {
	return &grammar.Class{Ranges: []grammar.Range{{Lo: 0x80, Hi: 0xd7ff}, {Lo: 0xe000, Hi: 0x10ffff}}}
}

// The tree stage ("bubble" in the evaluation) learns a grammar in the
// spirit of Arvada (Kulkarni, Lemieux and Sen, ASE 2021) and TreeVada
// (ICSE 2024) instead of GLADE's phases one and two.
//
// Each seed becomes a tree: its bytes are leaves, and, as TreeVada does,
// every matching pair of brackets ( ) [ ] { } < > becomes a node whose
// children are the opening bracket, a node holding what it encloses and
// the closing bracket. Every node has a label, the nonterminal it stands
// for: a leaf the one of its byte, a root <start>, every other node a
// label of its own. The stage then repeats, until no candidate passes:
//
//   - merge two labels, if the oracle accepts each one's strings (the
//     yields of its nodes) in the other's contexts (the text left and right
//     of its nodes in their seeds), checked in both directions;
//   - bubble a sequence of siblings (2 to bubbleMaxLen of them, at all its
//     places in all trees) into a new node and merge its label with an
//     existing one, or bubble two sequences and merge their new labels with
//     each other, under the same checks.
//
// Candidates are ordered deterministically: labels before bubbles, then by
// how many contexts of one byte left and right the two sides share (a
// candidate that shares none is not tried, as Arvada ranks bubbles by
// context similarity), shorter bubbles first. The grammar has a rule per
// label deriving the label sequences of its nodes' children; a label that
// ends up with a node inside a node of its own becomes recursive, which is
// how nesting and repetition are learned. Last, with character
// generalization on, every label that derives single bytes tries every
// other byte of the alphabet in its contexts (Arvada's token expansion).
type forest struct {
	s       *synth
	seeds   []string
	roots   []*tnode
	next    int // the next fresh label
	rng     *rand.Rand
	chars   map[int]charSet // generalized characters of leaf labels
	failed  map[uint64]bool // check sets a candidate failed on
	merges  int
	bubbles int
	// unicode marks the labels that derive every non-ASCII character
	unicode map[int]bool
	// alts are the alternatives subsume adds: label -> labels it derives
	alts map[int][]int
	// uni is the label every non-ASCII character's leaf starts with
	uni int
	// escapes are the labels of escape nodes by the escaped character's
	// leaf label (see build)
	escapes map[int]int
	// empty marks the labels that derive the empty string (see
	// optional, optionalParts and optionals)
	empty map[int]bool
	// rejected is how many of splitSamples inputs generated from the
	// trees' grammar the oracle rejects (see samplePrecision)
	rejected int
	// seqChars are the single bytes labelChars adds to labels of
	// sequences
	seqChars map[int]charSet
}

// A tnode is a node of a seed's tree; a leaf has no kids and spans one
// byte, or the bytes of one non-ASCII character in UTF-8.
type tnode struct {
	label  int
	seed   int
	lo, hi int
	kids   []*tnode
}

func (n *tnode) walk(f func(*tnode)) {
	f(n)
	for _, k := range n.kids {
		k.walk(f)
	}
}

// bracket pairs that pre-structure the trees; a double quote closes the
// one before it unless a backslash escapes it, and brackets between double
// quotes do not count.
const openers, closers = "([{<\"", ")]}>\""

// treeStage runs the tree stage on the seeds and sets s.tree.
func (s *synth) treeStage(seeds [][]byte) error {
	f := &forest{s: s, next: labelStart + 1, rng: rand.New(rand.NewPCG(1, 2)), chars: map[int]charSet{}, unicode: map[int]bool{}, failed: map[uint64]bool{}, empty: map[int]bool{}, escapes: map[int]int{}}
	f.uni = f.fresh()
	for i, sd := range seeds {
		f.seeds = append(f.seeds, string(sd))
		if len(sd) == 0 {
			// an empty seed has no tree: <start> derives the empty string
			f.empty[labelStart] = true
			continue
		}
		f.roots = append(f.roots, f.build(i))
	}
	s.stats.SeedsUsed = len(seeds)
	for {
		ok, err := f.round()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	if err := f.subsume(); err != nil {
		return err
	}
	if err := f.optionalParts(); err != nil {
		return err
	}
	if err := f.optional(); err != nil {
		return err
	}
	if err := f.optionals(); err != nil {
		return err
	}
	s.stats.Merges = f.merges
	s.stats.Recursions = f.bubbles
	if s.cfg.chars {
		q := s.queries()
		if err := f.generalizeChars(); err != nil {
			return err
		}
		if err := f.labelChars(); err != nil {
			return err
		}
		if err := f.splitContextChars(); err != nil {
			return err
		}
		if err := f.splitChars(); err != nil {
			return err
		}
		s.stats.CharsQuery += s.queries() - q
	}
	s.tree = f
	return nil
}

// build makes seed i's tree, with a node for every matching bracket pair
// and, outside double quotes, for every escape (a backslash and the
// character after it).
func (f *forest) build(i int) *tnode {
	str := f.seeds[i]
	type frame struct {
		open  int
		esc   bool // the opening bracket is escaped: items[0] is its escape node
		items []*tnode
	}
	stack := []frame{{open: -1}}
	// group closes the bracket pair of top with the closing leaves
	group := func(top frame, closing *tnode) *tnode {
		items := top.items
		g := &tnode{label: f.fresh(), seed: i, lo: items[0].lo, hi: closing.hi, kids: []*tnode{items[0]}}
		if inner := items[1:]; len(inner) > 0 {
			g.kids = append(g.kids, &tnode{label: f.fresh(), seed: i, lo: inner[0].lo, hi: inner[len(inner)-1].hi, kids: inner})
		}
		g.kids = append(g.kids, closing)
		return g
	}
	for p := 0; p < len(str); p = leafEnd(str, p) {
		leaf := f.leaf(i, p)
		top := &stack[len(stack)-1]
		quoted := top.open >= 0 && str[top.open] == '"'
		if quoted && str[p] == '\\' && p+1 < len(str) {
			// an escape: the backslash and the character after it
			next := f.leaf(i, p+1)
			top.items = append(top.items, f.quotedEscape(leaf, next))
			p = next.lo
			continue
		}
		if !quoted && str[p] == '\\' && p+1 < len(str) {
			// an escape outside quotes: a node of the backslash and the
			// character, labelled by the character; an escaped bracket
			// pairs with the same bracket escaped (\( and \) group in a
			// basic regular expression)
			next := f.leaf(i, p+1)
			esc := &tnode{label: f.escape(next.label), seed: i, lo: p, hi: next.hi, kids: []*tnode{leaf, next}}
			c := str[p+1]
			switch ci := strings.IndexByte(closers[:len(closers)-1], c); {
			case strings.IndexByte(openers[:len(openers)-1], c) >= 0:
				stack = append(stack, frame{open: p + 1, esc: true, items: []*tnode{esc}})
			case ci >= 0 && top.esc && str[top.open] == openers[ci]:
				stack = stack[:len(stack)-1]
				stack[len(stack)-1].items = append(stack[len(stack)-1].items, group(*top, esc))
			default:
				top.items = append(top.items, esc)
			}
			p = next.lo
			continue
		}
		if str[p] == '"' && !quoted || !quoted && strings.IndexByte(openers[:len(openers)-1], str[p]) >= 0 {
			stack = append(stack, frame{open: p, items: []*tnode{leaf}})
			continue
		}
		if c := strings.IndexByte(closers, str[p]); c >= 0 && top.open >= 0 && !top.esc && str[top.open] == openers[c] && (!quoted || str[p] == '"') {
			stack = stack[:len(stack)-1]
			stack[len(stack)-1].items = append(stack[len(stack)-1].items, group(*top, leaf))
			continue
		}
		top.items = append(top.items, leaf)
	}
	for len(stack) > 1 { // unclosed brackets: their bytes stay leaves
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack[len(stack)-1].items = append(stack[len(stack)-1].items, top.items...)
	}
	return &tnode{label: labelStart, seed: i, lo: 0, hi: len(str), kids: stack[0].items}
}

// leafEnd returns where the leaf at p of s ends: after a non-ASCII
// character in UTF-8, else after the byte.
func leafEnd(s string, p int) int {
	if s[p] < utf8.RuneSelf {
		return p + 1
	}
	if r, n := utf8.DecodeRuneInString(s[p:]); r != utf8.RuneError {
		return p + n
	}
	return p + 1
}

// leaf returns the leaf at p of seed i: a non-ASCII character in UTF-8
// gets the label f.uni, any other byte its own.
func (f *forest) leaf(i, p int) *tnode {
	str := f.seeds[i]
	n := &tnode{label: int(str[p]), seed: i, lo: p, hi: leafEnd(str, p)}
	if n.hi-n.lo > 1 {
		n.label = f.uni
	}
	return n
}

// escape returns the label of the escape nodes (a backslash and the
// character after it, outside quotes) of the character whose leaf label is
// c: the same for every seed, as a leaf's label is its byte's.
func (f *forest) escape(c int) int {
	if l, ok := f.escapes[c]; ok {
		return l
	}
	l := f.fresh()
	f.escapes[c] = l
	return l
}

func (f *forest) fresh() int {
	f.next++
	return f.next - 1
}

// A unit is one side of a merge: the nodes of a label, or the places of a
// bubbled sequence.
type unit struct {
	label int    // the label, or -1 for a bubble
	key   string // the bubble's label sequence
	seq   []int
	spans []span // the places (for a bubble: its chosen places)
	strs  []string
	ctxs  [][2]string
	near  map[int]bool // one-byte contexts
	// split is 1 for a bubble that splits a token at one of its places
	// (see splits), else 0
	split int
}

type span struct {
	n    *tnode // the node, or for a bubble the parent
	i, j int    // for a bubble: n.kids[i:j]
}

func (f *forest) bounds(sp span) (int, int) {
	if sp.j == 0 {
		return sp.n.lo, sp.n.hi
	}
	return sp.n.kids[sp.i].lo, sp.n.kids[sp.j-1].hi
}

// fill computes u's strings, contexts and one-byte contexts from its spans.
func (f *forest) fill(u *unit) {
	seenS, seenC := map[string]bool{}, map[[2]string]bool{}
	u.near = map[int]bool{}
	for _, sp := range u.spans {
		lo, hi := f.bounds(sp)
		str := f.seeds[sp.n.seed]
		if y := str[lo:hi]; !seenS[y] {
			seenS[y] = true
			u.strs = append(u.strs, y)
		}
		if c := [2]string{str[:lo], str[hi:]}; !seenC[c] {
			seenC[c] = true
			u.ctxs = append(u.ctxs, c)
		}
		l, r := 256, 256
		if lo > 0 {
			l = int(str[lo-1])
		}
		if hi < len(str) {
			r = int(str[hi])
		}
		u.near[l<<9|r|1<<18] = true // both sides
		u.near[l<<9|1<<19] = true   // left side
		u.near[1<<20|r] = true      // right side
		if u.label < 0 && (splits(str, lo) || splits(str, hi) || isSpace(str[lo]) || isSpace(str[hi-1])) {
			u.split = 1
		}
	}
}

// units returns the labels' units (in order of first occurrence) and the
// bubbles' (by length, then first occurrence).
func (f *forest) units() (labels, bubbles []*unit) {
	byLabel := map[int]*unit{}
	byKey := map[string]*unit{}
	used := map[*tnode][]bool{} // kids already in a place of the current bubble key
	for _, root := range f.roots {
		root.walk(func(n *tnode) {
			u := byLabel[n.label]
			if u == nil {
				u = &unit{label: n.label}
				byLabel[n.label] = u
				labels = append(labels, u)
			}
			u.spans = append(u.spans, span{n: n})
		})
	}
	for length := 2; length <= bubbleMaxLen; length++ {
		var keys []*unit
		for _, root := range f.roots {
			root.walk(func(n *tnode) {
				if len(n.kids) <= length {
					return
				}
				for i := 0; i+length <= len(n.kids); i++ {
					seq := make([]int, length)
					for k := range seq {
						seq[k] = n.kids[i+k].label
					}
					key := seqKey(seq)
					u := byKey[key]
					if u == nil {
						u = &unit{label: -1, key: key, seq: seq}
						byKey[key] = u
						keys = append(keys, u)
					}
					u.spans = append(u.spans, span{n: n, i: i, j: i + length})
				}
			})
		}
		// keep non-overlapping places, the leftmost first, as bubbling does
		for _, u := range keys {
			clear(used)
			kept := u.spans[:0]
			for _, sp := range u.spans {
				m := used[sp.n]
				if m == nil {
					m = make([]bool, len(sp.n.kids))
					used[sp.n] = m
				}
				if slices.Contains(m[sp.i:sp.j], true) {
					continue
				}
				for k := sp.i; k < sp.j; k++ {
					m[k] = true
				}
				kept = append(kept, sp)
			}
			u.spans = kept
		}
		bubbles = append(bubbles, keys...)
	}
	for _, u := range labels {
		f.fill(u)
	}
	// the start label may stand for any label or bubble: give all of them
	// its context
	for _, u := range labels {
		if u.label == labelStart {
			u.near[nearStart] = true
		}
	}
	for _, u := range bubbles {
		f.fill(u)
	}
	for _, us := range [][]*unit{labels, bubbles} {
		for _, u := range us {
			u.near[nearStart] = true
		}
	}
	return labels, bubbles
}

func seqKey(seq []int) string {
	var b strings.Builder
	for _, l := range seq {
		b.WriteString(strconv.Itoa(l))
		b.WriteByte(' ')
	}
	return b.String()
}

// splits reports whether position p of s is inside a word: between two
// letters, digits or underscores. (Counting runs of punctuation such as &&
// or := as words too made the expr subject's unary operators, ++-x, be
// bubbled badly.)
func splits(s string, p int) bool {
	if p <= 0 || p >= len(s) {
		return false
	}
	return tokenClass(s[p-1]) == 1 && tokenClass(s[p]) == 1
}

// tokenClass is 1 for letters, digits and _, else 0.
func tokenClass(c byte) int {
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' {
		return 1
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// A pair is a merge candidate.
type pair struct {
	a, b   *unit
	shared int
	size   int
	split  int // sides that split a token
}

// candidates returns the merge candidates of a round in order.
func (f *forest) candidates(labels, bubbles []*unit) []pair {
	var out []pair
	seen := map[[2]*unit]bool{}
	add := func(group []*unit, kind int) []pair {
		var ps []pair
		byNear := map[int][]*unit{}
		var nears []int
		for _, u := range group {
			for k := range u.near {
				if byNear[k] == nil {
					nears = append(nears, k)
				}
				if len(byNear[k]) < bubbleMaxPerContext {
					byNear[k] = append(byNear[k], u)
				}
			}
		}
		slices.Sort(nears)
		for _, k := range nears {
			us := byNear[k]
			for x := 0; x < len(us); x++ {
				for y := x + 1; y < len(us); y++ {
					a, b := us[x], us[y]
					if k == nearStart && a.label != labelStart && b.label != labelStart {
						continue
					}
					if kind == 1 && (a.label < 0) == (b.label < 0) {
						continue // bubble-with-label candidates only
					}
					if seen[[2]*unit{a, b}] {
						continue
					}
					seen[[2]*unit{a, b}] = true
					shared := 0
					for n := range a.near {
						if b.near[n] {
							shared++
							if n&(1<<18) != 0 {
								shared += 2
							}
						}
					}
					ps = append(ps, pair{a: a, b: b, shared: shared, size: len(a.seq) + len(b.seq), split: a.split + b.split})
				}
			}
		}
		slices.SortStableFunc(ps, func(p, q pair) int {
			return cmp.Or(cmp.Compare(p.split, q.split), cmp.Compare(q.shared, p.shared), cmp.Compare(p.size, q.size))
		})
		return ps
	}
	out = append(out, add(labels, 0)...)
	out = append(out, add(append(slices.Clip(labels), bubbles...), 1)...)
	out = append(out, add(bubbles, 0)...)
	return out
}

// checks returns the check strings of merging a and b: b's strings in a's
// contexts and a's in b's, the first bubbleFirst of each direction first.
func (f *forest) checks(a, b *unit) (first, rest []string) {
	x, y := f.oneWay(b.strs, a.ctxs), f.oneWay(a.strs, b.ctxs)
	for _, s := range [][]string{x, y} {
		k := min(bubbleFirst, len(s))
		first = append(first, s[:k]...)
		rest = append(rest, s[k:]...)
	}
	return first, rest
}

// oneWay returns the checks of strs in ctxs: all of them when there are
// at most bubbleSamples, else every string and every context at least once
// and a seeded random choice of further pairs.
func (f *forest) oneWay(strs []string, ctxs [][2]string) []string {
	var out []string
	seen := map[[2]int]bool{}
	put := func(i, j int) {
		if seen[[2]int{i, j}] {
			return
		}
		seen[[2]int{i, j}] = true
		c := ctxs[j]
		out = append(out, c[0]+strs[i]+c[1])
	}
	total := len(strs) * len(ctxs)
	if total <= bubbleSamples {
		// all of them, diagonal first so the first checks differ in both
		for k := range total {
			put(k%len(strs), (k/len(strs)+k%len(strs))%len(ctxs))
		}
		return out
	}
	for k := 0; k < max(len(strs), len(ctxs)) && len(out) < bubbleSamples; k++ {
		put(k%len(strs), k%len(ctxs))
	}
	for tries := 0; len(out) < bubbleSamples && tries < 4*bubbleSamples; tries++ {
		put(f.rng.IntN(len(strs)), f.rng.IntN(len(ctxs)))
	}
	return out
}

func hashChecks(xs, ys []string) uint64 {
	h := fnv.New64a()
	for _, s := range [][]string{xs, ys} {
		for _, x := range s {
			h.Write([]byte(x))
			h.Write([]byte{0})
		}
	}
	return h.Sum64()
}

// round tries the candidates in order and applies the first that passes;
// it reports whether one did.
func (f *forest) round() (bool, error) {
	labels, bubbles := f.units()
	cands := f.candidates(labels, bubbles)
	if len(cands) > bubbleMaxCands {
		cands = cands[:bubbleMaxCands]
	}
	type tried struct {
		p           pair
		first, rest []string
		h           uint64
	}
	for start := 0; start < len(cands); start += bubbleChunk {
		var chunk []tried
		var inputs [][]byte
		for _, p := range cands[start:min(start+bubbleChunk, len(cands))] {
			first, rest := f.checks(p.a, p.b)
			h := hashChecks(first, rest)
			if f.failed[h] {
				continue
			}
			chunk = append(chunk, tried{p, first, rest, h})
			for _, c := range first {
				inputs = append(inputs, []byte(c))
			}
		}
		if len(inputs) == 0 {
			continue
		}
		oks, err := f.s.query(inputs)
		if err != nil {
			return false, err
		}
		k := 0
		for _, t := range chunk {
			pass := !slices.Contains(oks[k:k+len(t.first)], false)
			k += len(t.first)
			if pass {
				if pass, err = f.s.acceptsAll(t.rest); err != nil {
					return false, err
				}
			}
			if !pass {
				f.failed[t.h] = true
				continue
			}
			if f.s.cfg.guard {
				snap := f.save()
				f.apply(t.p)
				rejected, err := f.samplePrecision()
				if err != nil {
					return false, err
				}
				if rejected > 2*f.rejected+mergeSlack {
					f.restore(snap)
					f.failed[t.h] = true
					continue
				}
				f.rejected = rejected
			} else {
				f.apply(t.p)
			}
			f.s.record(Step{Name: "B" + strconv.Itoa(f.s.stats.Steps+1), Chosen: f.describe(t.p)})
			return true, nil
		}
	}
	return false, nil
}

func (f *forest) describe(p pair) string {
	d := func(u *unit) string {
		if u.label >= 0 {
			return "<" + strconv.Itoa(u.label) + ">"
		}
		return "(" + strings.TrimSpace(u.key) + ")"
	}
	return d(p.a) + " = " + d(p.b)
}

// apply merges the two sides of p into one label.
func (f *forest) apply(p pair) {
	a, b := p.a, p.b
	if b.label >= 0 && (a.label < 0 || b.label == labelStart) {
		a, b = b, a
	}
	target := a.label
	if target < 0 {
		target = f.fresh()
		f.bubble(a.seq, target)
	}
	if b.label >= 0 {
		f.relabel(b.label, target)
		f.merges++
		return
	}
	f.bubble(b.seq, target)
	f.bubbles++
}

// relabel gives the nodes of label from the label to.
func (f *forest) relabel(from, to int) {
	for _, root := range f.roots {
		root.walk(func(n *tnode) {
			if n.label == from {
				n.label = to
			}
		})
	}
	if cs, ok := f.chars[from]; ok {
		for b := range 256 {
			if cs.has(byte(b)) {
				f.addChar(to, byte(b))
			}
		}
		delete(f.chars, from)
	}
}

func (f *forest) addChar(label int, b byte) {
	cs := f.chars[label]
	cs.add(b)
	f.chars[label] = cs
}

// bubble puts every place of the label sequence seq (leftmost first, not
// overlapping, not all the kids of a node) under a new node of label.
func (f *forest) bubble(seq []int, label int) {
	for _, root := range f.roots {
		root.walk(func(n *tnode) {
			if len(n.kids) <= len(seq) {
				return
			}
			var kids []*tnode
			for i := 0; i < len(n.kids); {
				if i+len(seq) <= len(n.kids) && matchSeq(n.kids[i:i+len(seq)], seq) {
					in := slices.Clone(n.kids[i : i+len(seq)])
					kids = append(kids, &tnode{label: label, seed: n.seed, lo: in[0].lo, hi: in[len(in)-1].hi, kids: in})
					i += len(seq)
					continue
				}
				kids = append(kids, n.kids[i])
				i++
			}
			n.kids = kids
		})
	}
}

func matchSeq(kids []*tnode, seq []int) bool {
	for i, k := range kids {
		if k.label != seq[i] {
			return false
		}
	}
	return true
}

// subsume runs when nothing more merges: a label A whose nodes are not all
// leaves gains another such label B as an alternative (A ::= … | B) when
// the oracle accepts B's strings in A's contexts, one direction only (a
// merge needs both). This is the nesting Arvada's symmetric merges miss: a
// list's elements may be a whole list, but not the other way round.
func (f *forest) subsume() error {
	labels, _ := f.units()
	var inner []*unit
	for _, u := range labels {
		if slices.ContainsFunc(u.spans, func(sp span) bool { return sp.n.kids != nil }) {
			inner = append(inner, u)
		}
	}
	type try struct{ a, b int }
	var tries []try
	var checks [][]string
	for _, a := range inner {
		for _, b := range inner {
			if a == b {
				continue
			}
			tries = append(tries, try{a: a.label, b: b.label})
			checks = append(checks, f.oneWay(b.strs, a.ctxs))
		}
	}
	pass, err := f.passing(checks)
	if err != nil {
		return err
	}
	f.alts = map[int][]int{}
	for i, t := range tries {
		if pass[i] {
			f.alts[t.a] = append(f.alts[t.a], t.b)
			f.s.record(Step{Name: "S" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(t.a) + "> ::= <" + strconv.Itoa(t.b) + ">"})
		}
	}
	return nil
}

// generalizeChars tries every byte of the alphabet in the contexts of every
// label that derives single bytes.
func (f *forest) generalizeChars() error {
	labels, _ := f.units()
	for _, u := range labels {
		var have charSet
		leaf, runes := false, false
		for _, sp := range u.spans {
			switch {
			case sp.n.kids != nil:
			case sp.n.hi-sp.n.lo > 1:
				leaf, runes = true, true
			default:
				leaf = true
				have.add(f.seeds[sp.n.seed][sp.n.lo])
			}
		}
		if !leaf {
			continue
		}
		// every character is tried in the first bubbleSamples contexts,
		// and one that passes there in the others too (up to
		// charMaxContexts)
		all := u.ctxs[:min(len(u.ctxs), charMaxContexts)]
		ctxs, more := all[:min(len(all), bubbleSamples)], all[min(len(all), bubbleSamples):]
		var tried []byte
		for _, c := range f.s.cfg.alphabet {
			if !have.has(c) {
				tried = append(tried, c)
			}
		}
		pass, err := f.tryChars(tried, ctxs)
		if err != nil {
			return err
		}
		if len(more) > 0 && len(pass) > 0 {
			if pass, err = f.tryChars(pass, more); err != nil {
				return err
			}
		}
		for _, c := range pass {
			f.addChar(u.label, c)
		}
		// a label that takes nearly every printable character (text,
		// string contents), or that a seed's non-ASCII character has,
		// tries characters beyond ASCII
		cs := f.chars[u.label]
		n := 0
		for c := byte(' '); c <= '~'; c++ {
			if cs.has(c) || have.has(c) {
				n++
			}
		}
		if n >= unicodeMin || runes {
			ok, err := f.acceptsUnicode(all)
			if err != nil {
				return err
			}
			if ok {
				f.unicode[u.label] = true
			}
		}
		f.s.record(Step{Name: "X" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(u.label) + ">"})
	}
	return nil
}

// tryChars returns the bytes of cands that the oracle accepts in every one
// of ctxs.
func (f *forest) tryChars(cands []byte, ctxs [][2]string) ([]byte, error) {
	oks, err := f.charChecks(cands, ctxs)
	if err != nil {
		return nil, err
	}
	var pass []byte
	for i, c := range cands {
		if !slices.Contains(oks[i*len(ctxs):(i+1)*len(ctxs)], false) {
			pass = append(pass, c)
		}
	}
	return pass, nil
}

// grammar is the grammar of the trees: a rule per label reachable from
// <start>, deriving its nodes' kid sequences and bytes. A label that
// derives only bytes is written as a literal or a class in place. A rule
// A ::= A A is written as a repetition (concatRule).
func (f *forest) grammar() *grammar.Grammar { return f.grammarForm(true) }

// grammarForm is grammar, with A ::= A A written as a repetition if
// concat, else as it is. The two derive the same strings, but a generator
// draws them differently: samplePrecision samples the plain form, so that
// the precision checks of the steps do not depend on how the grammar is
// written for the parser.
func (f *forest) grammarForm(concatForm bool) *grammar.Grammar {
	alts := map[int][][]int{}
	seen := map[int]map[string]bool{}
	bytesOf := map[int]*charSet{}
	runesOf := map[int][]string{} // the non-ASCII characters of leaves
	interior := map[int]bool{}
	for _, root := range f.roots {
		root.walk(func(n *tnode) {
			if r := f.seeds[n.seed][n.lo:n.hi]; n.kids == nil && len(r) > 1 {
				if !slices.Contains(runesOf[n.label], r) {
					runesOf[n.label] = append(runesOf[n.label], r)
				}
				return
			}
			if n.kids == nil {
				cs := bytesOf[n.label]
				if cs == nil {
					cs = &charSet{}
					bytesOf[n.label] = cs
				}
				cs.add(f.seeds[n.seed][n.lo])
				return
			}
			interior[n.label] = true
			seq := make([]int, len(n.kids))
			for i, k := range n.kids {
				seq[i] = k.label
			}
			if len(seq) == 1 && seq[0] == n.label {
				return
			}
			if seen[n.label] == nil {
				seen[n.label] = map[string]bool{}
			}
			if key := seqKey(seq); !seen[n.label][key] {
				seen[n.label][key] = true
				alts[n.label] = append(alts[n.label], seq)
			}
		})
	}
	for l, cs := range f.chars {
		if bytesOf[l] != nil {
			for b := range 256 {
				if cs.has(byte(b)) {
					bytesOf[l].add(byte(b))
				}
			}
		}
	}
	names := map[int]string{labelStart: "start"}
	order := []int{labelStart}
	var ref func(l int) grammar.Expr
	ref = func(l int) grammar.Expr {
		if !interior[l] && bytesOf[l] != nil && runesOf[l] == nil && !f.unicode[l] && !f.empty[l] {
			return setsExprs([]charSet{*bytesOf[l]})[0]
		}
		if _, ok := names[l]; !ok {
			names[l] = "n" + strconv.Itoa(len(order))
			order = append(order, l)
		}
		return &grammar.Ref{Name: names[l]}
	}
	g := &grammar.Grammar{Start: "start"}
	for i := 0; i < len(order); i++ {
		l := order[i]
		var xs []grammar.Expr
		concat := concatForm && slices.ContainsFunc(alts[l], func(ls []int) bool { return selfConcat(l, ls) })
		var pre, post []grammar.Expr // see concatRule
		for _, ls := range alts[l] {
			var parts []grammar.Expr
			for _, k := range ls {
				parts = append(parts, ref(k))
			}
			switch k := len(ls) - 1; {
			case concat && selfConcat(l, ls):
			case concat && ls[0] == l && !slices.Contains(ls[1:], l):
				post = append(post, seq(parts[1:]))
			case concat && ls[k] == l && !slices.Contains(ls[:k], l):
				pre = append(pre, seq(parts[:k]))
			default:
				xs = append(xs, seq(parts))
			}
		}
		if cs := bytesOf[l]; cs != nil {
			xs = append(xs, setsExprs([]charSet{*cs})[0])
		}
		xs = append(xs, f.moreAlts(l)...)
		if f.unicode[l] {
			xs = append(xs, nonASCII())
		} else {
			rs := slices.Clone(runesOf[l])
			slices.Sort(rs)
			for _, r := range rs {
				xs = append(xs, &grammar.Lit{S: r})
			}
		}
		for _, b := range f.alts[l] {
			xs = append(xs, ref(b))
		}
		if concat {
			xs = []grammar.Expr{concatRule(xs, pre, post)}
		}
		if f.empty[l] {
			xs = append(xs, &grammar.Lit{})
		}
		g.Rules = append(g.Rules, &grammar.Rule{Name: names[l], Expr: alt(xs)})
	}
	return g
}
