package glade

import (
	"maps"
	"strconv"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

const (
	// splitSamples is the number of inputs generated from the grammar to
	// check a split (see splitChars) before and after it.
	splitSamples = 200
	// splitSlack is how many more of them the oracle may reject after a
	// split than before.
	splitSlack = splitSamples / 100
)

// splitChars generalizes the characters of a word's inner positions, which
// character generalization misses when one label stands for the first
// character of words and for the others (a Lisp symbol may hold a digit,
// but not begin with one). For every label that derives single bytes, its
// inner nodes (isInner: leaves and nodes that begin after a byte the label
// derives or between two letters or digits, such as the digits of a
// variable x12 or all but the first of a number) try each byte of the
// alphabet the label does not derive in their contexts, and if some pass in
// all of them, the inner nodes get a label of their own that derives them
// too. As the grammar's recursion may
// then put an inner leaf first, the split is kept only if the oracle rejects
// at most splitSlack more of splitSamples inputs generated from the grammar
// than before it.
func (f *forest) splitChars() error {
	labels, _ := f.units()
	base, err := f.samplePrecision()
	if err != nil {
		return err
	}
	for _, u := range labels {
		var set charSet // the bytes the label derives
		for b := range 256 {
			if f.chars[u.label].has(byte(b)) {
				set.add(byte(b))
			}
		}
		var inner []*tnode
		for _, sp := range u.spans {
			if sp.n.kids == nil && sp.n.hi-sp.n.lo == 1 {
				set.add(f.seeds[sp.n.seed][sp.n.lo])
			}
		}
		for _, sp := range u.spans {
			if n := sp.n; f.isInner(n, set) {
				inner = append(inner, n)
			}
		}
		if len(inner) == 0 || len(inner) == len(u.spans) {
			continue
		}
		var ctxs [][2]string
		seen := map[[2]string]bool{}
		for _, n := range inner {
			str := f.seeds[n.seed]
			if c := [2]string{str[:n.lo], str[n.hi:]}; !seen[c] && len(ctxs) < bubbleSamples {
				seen[c] = true
				ctxs = append(ctxs, c)
			}
		}
		var tried []byte
		for _, c := range f.s.cfg.alphabet {
			if !set.has(c) {
				tried = append(tried, c)
			}
		}
		pass, err := f.tryChars(tried, ctxs)
		if err != nil {
			return err
		}
		extra := set
		for _, c := range pass {
			extra.add(c)
		}
		if len(pass) == 0 {
			continue
		}
		// split: the label keeps every byte it derived, its inner
		// leaves take a new label that derives the extra bytes too
		old, hadOld := f.chars[u.label]
		f.chars[u.label] = set
		l := f.fresh()
		f.chars[l] = extra
		for _, n := range inner {
			n.label = l
		}
		p, err := f.samplePrecision()
		if err != nil {
			return err
		}
		if p > base+splitSlack {
			for _, n := range inner {
				n.label = u.label
			}
			delete(f.chars, l)
			if hadOld {
				f.chars[u.label] = old
			} else {
				delete(f.chars, u.label)
			}
			continue
		}
		base = p
		f.s.record(Step{Name: "W" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(u.label) + "> inner: <" + strconv.Itoa(l) + ">"})
	}
	return nil
}

// samplePrecision returns how many of splitSamples inputs generated from
// the trees' grammar (with a fixed seed, in its plain form: grammarForm)
// the oracle rejects.
func (f *forest) samplePrecision() (int, error) {
	gr, err := grammar.Compile(f.grammarForm(false))
	if err != nil {
		return 0, err
	}
	gen := grammar.NewGenerator(gr, 1)
	inputs := make([][]byte, 0, splitSamples)
	for range splitSamples {
		t, err := gen.Generate()
		if err != nil {
			return 0, err
		}
		inputs = append(inputs, t.Bytes())
	}
	oks, err := f.s.query(inputs)
	if err != nil {
		return 0, err
	}
	rejected := 0
	for _, ok := range oks {
		if !ok {
			rejected++
		}
	}
	return rejected, nil
}

// mergeSlack is how many more of splitSamples inputs generated from the
// grammar than twice as many as before a merge the oracle may reject after
// it (WithPrecisionGuard). Twice: a merge that builds nesting makes the
// samples longer, so an imprecision already there shows more often.
const mergeSlack = splitSamples / 50

// A snapshot is the state of a forest that a merge changes.
type snapshot struct {
	roots           []*tnode
	next            int
	merges, bubbles int
	chars           map[int]charSet
}

func (f *forest) save() snapshot {
	sn := snapshot{next: f.next, merges: f.merges, bubbles: f.bubbles, chars: maps.Clone(f.chars)}
	for _, r := range f.roots {
		sn.roots = append(sn.roots, r.clone())
	}
	return sn
}

func (f *forest) restore(sn snapshot) {
	f.roots, f.next, f.merges, f.bubbles, f.chars = sn.roots, sn.next, sn.merges, sn.bubbles, sn.chars
}

func (n *tnode) clone() *tnode {
	c := *n
	c.kids = nil
	for _, k := range n.kids {
		c.kids = append(c.kids, k.clone())
	}
	return &c
}

// isInner reports whether node n of a label deriving the bytes set is one
// of its inner nodes for splitChars: it begins inside a word, after one of
// the label's own bytes or between two letters or digits, and is a leaf of
// one byte or a node of a label that has leaves (the digits after the
// first of a number, which bubbling makes nodes of the number's label).
func (f *forest) isInner(n *tnode, set charSet) bool {
	str := f.seeds[n.seed]
	if n.lo == 0 || !set.has(str[n.lo-1]) && !splits(str, n.lo) {
		return false
	}
	if n.kids == nil {
		return n.hi-n.lo == 1
	}
	return set.count() > 0
}
