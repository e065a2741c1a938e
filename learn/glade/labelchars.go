package glade

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// labelChars is character generalization for the labels that stand for
// sequences, not single bytes: each byte of the alphabet is tried as the
// whole string of the label in its contexts (up to charMaxContexts), and
// the bytes that pass in all of them become an alternative of the label.
// Character generalization of leaves (generalizeChars) only widens the
// bytes a label already derives; a sequence learned from seeds in which
// one kind of element never occurs alone (the contents of a string whose
// seeds hold only escapes and non-ASCII characters, a value that is never
// a lone digit) is not widened by it. A label that takes at least
// unicodeMin printable characters this way tries the non-ASCII probes too.
//
// The checks of a byte go to the oracle in three stages, each only for the
// bytes that passed the one before: the first bubbleFirst contexts, then up
// to bubbleSamples, then the rest.
func (f *forest) labelChars() error {
	labels, _ := f.units()
	if f.seqChars == nil {
		f.seqChars = map[int]charSet{}
	}
	ctxsOf := f.altContexts(labels)
	for _, u := range labels {
		if slices.ContainsFunc(u.spans, func(sp span) bool { return sp.n.kids == nil }) {
			continue // a label of leaves: generalizeChars widens it
		}
		all := ctxsOf[u.label][:min(len(ctxsOf[u.label]), charMaxContexts)]
		pass := slices.Clone(f.s.cfg.alphabet)
		lo := 0
		for _, hi := range []int{bubbleFirst, bubbleSamples, len(all)} {
			if hi = min(hi, len(all)); hi <= lo || len(pass) == 0 {
				continue
			}
			var err error
			if pass, err = f.tryChars(pass, all[lo:hi]); err != nil {
				return err
			}
			lo = hi
		}
		if len(pass) == 0 {
			continue
		}
		var cs charSet
		n := 0
		for _, c := range pass {
			cs.add(c)
			if c >= ' ' && c <= '~' {
				n++
			}
		}
		f.seqChars[u.label] = cs
		if n >= unicodeMin && !f.unicode[u.label] {
			ok, err := f.acceptsUnicode(all)
			if err != nil {
				return err
			}
			f.unicode[u.label] = ok
		}
		f.s.record(Step{Name: "L" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(u.label) + ">"})
	}
	return nil
}

// acceptsUnicode reports whether the oracle accepts each of unicodeProbes
// in every one of ctxs.
func (f *forest) acceptsUnicode(ctxs [][2]string) (bool, error) {
	var inputs []string
	for _, r := range unicodeProbes {
		for _, cx := range ctxs {
			inputs = append(inputs, cx[0]+string(r)+cx[1])
		}
	}
	return f.s.acceptsAll(inputs)
}

// optional gives every label whose strings can all be left out, that is
// whose contexts the oracle accepts with nothing between them (up to
// charMaxContexts of them), the empty string as an alternative: a sign, an
// exponent, white space or a list's contents that every seed happens to
// have. GLADE's repetitions learn this as zero repetitions; the tree stage
// has no repetition operator, only labels. The first bubbleFirst contexts
// of every label are queried in one batch, the others only for the labels
// that pass them.
func (f *forest) optional() error {
	labels, _ := f.units()
	if f.empty == nil {
		f.empty = map[int]bool{}
	}
	ctxsOf := f.altContexts(labels)
	var cands []*unit
	var inputs [][]byte
	for _, u := range labels {
		if u.label == labelStart {
			continue
		}
		cands = append(cands, u)
		for _, cx := range ctxsOf[u.label][:min(len(ctxsOf[u.label]), bubbleFirst)] {
			inputs = append(inputs, []byte(cx[0]+cx[1]))
		}
	}
	oks, err := f.s.query(inputs)
	if err != nil {
		return err
	}
	base, err := f.samplePrecision()
	if err != nil {
		return err
	}
	k := 0
	for _, u := range cands {
		ctxs := ctxsOf[u.label]
		n := min(len(ctxs), bubbleFirst)
		pass := !slices.Contains(oks[k:k+n], false)
		k += n
		if !pass {
			continue
		}
		var rest []string
		for _, cx := range ctxs[n:min(len(ctxs), charMaxContexts)] {
			rest = append(rest, cx[0]+cx[1])
		}
		if pass, err = f.s.acceptsAll(rest); err != nil {
			return err
		}
		if !pass {
			continue
		}
		// the labels' empty strings combine (a rule of labels that may
		// all be left out derives the empty string too): keep one only
		// if the oracle rejects at most splitSlack more of the inputs
		// sampled from the grammar than before
		f.empty[u.label] = true
		p, err := f.samplePrecision()
		if err != nil {
			return err
		}
		if p > base+splitSlack {
			delete(f.empty, u.label)
			continue
		}
		base = p
		f.s.record(Step{Name: "E" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(u.label) + "> ::= \"\""})
	}
	return nil
}

// moreAlts returns the alternatives of label l that labelChars added: a
// class of single bytes. (The empty string of the labels that may be left
// out, f.empty, grammar adds last.)
func (f *forest) moreAlts(l int) []grammar.Expr {
	if cs, ok := f.seqChars[l]; ok {
		return []grammar.Expr{setsExprs([]charSet{cs})[0]}
	}
	return nil
}

// quotedEscape returns the node of a backslash escape between double quotes: the
// backslash and the leaf after it, under a label of its own, so that an
// escape is one unit to bubbling and merging as a bracket pair is (left as
// two leaves, `\\x` in a string bubbles as `\` followed by `\x` as often as
// `\\` followed by `x`).
func (f *forest) quotedEscape(backslash, next *tnode) *tnode {
	return &tnode{label: f.fresh(), seed: backslash.seed, lo: backslash.lo, hi: next.hi, kids: []*tnode{backslash, next}}
}

// optionalParts finds the parts of a label's sequences that can be left
// out: for every label and kid sequence of its nodes (an alternative of its
// rule), every range of 2 to bubbleMaxLen kids but not all of them whose
// removal the oracle accepts in every place of that sequence (up to
// charMaxContexts places) is bubbled into a new node there, whose label
// also derives the empty string. Ranges are taken shortest first, then
// leftmost, not overlapping one taken before. This is how the fraction
// and the exponent of a number seen only with both, `1.5e3`, become
// optional parts, where optional only finds labels that can be left out
// everywhere.
func (f *forest) optionalParts() error {
	type alt struct {
		label int
		seq   []int
		nodes []*tnode
	}
	var alts []*alt
	byKey := map[string]*alt{}
	for _, root := range f.roots {
		root.walk(func(n *tnode) {
			if len(n.kids) < 3 {
				return
			}
			seq := make([]int, len(n.kids))
			for i, k := range n.kids {
				seq[i] = k.label
			}
			key := strconv.Itoa(n.label) + ":" + seqKey(seq)
			a := byKey[key]
			if a == nil {
				a = &alt{label: n.label, seq: seq}
				byKey[key] = a
				alts = append(alts, a)
			}
			a.nodes = append(a.nodes, n)
		})
	}
	type cand struct {
		a      *alt
		i, j   int
		checks []string
	}
	removed := func(n *tnode, i, j int) string {
		str := f.seeds[n.seed]
		return str[:n.kids[i].lo] + str[n.kids[j-1].hi:]
	}
	var cands []cand
	var inputs [][]byte
	for _, a := range alts {
		for length := 2; length < len(a.seq) && length <= bubbleMaxLen; length++ {
			for i := 0; i+length <= len(a.seq); i++ {
				if rest := slices.Concat(a.seq[:i], a.seq[i+length:]); len(rest) == 1 && rest[0] == a.label {
					continue // what is left is the node's own label: nothing new
				}
				c := cand{a: a, i: i, j: i + length}
				seen := map[string]bool{}
				for _, n := range a.nodes {
					if s := removed(n, c.i, c.j); !seen[s] && len(seen) < charMaxContexts {
						seen[s] = true
						c.checks = append(c.checks, s)
					}
				}
				cands = append(cands, c)
				for _, s := range c.checks[:min(len(c.checks), bubbleFirst)] {
					inputs = append(inputs, []byte(s))
				}
			}
		}
	}
	oks, err := f.s.query(inputs)
	if err != nil {
		return err
	}
	if f.empty == nil {
		f.empty = map[int]bool{}
	}
	taken := map[*alt][]bool{}
	var chosen []cand
	k := 0
	for _, c := range cands {
		n := min(len(c.checks), bubbleFirst)
		pass := !slices.Contains(oks[k:k+n], false)
		k += n
		t := taken[c.a]
		if t == nil {
			t = make([]bool, len(c.a.seq))
			taken[c.a] = t
		}
		if !pass || slices.Contains(t[c.i:c.j], true) {
			continue
		}
		if pass, err = f.s.acceptsAll(c.checks[n:]); err != nil {
			return err
		}
		if !pass {
			continue
		}
		for x := c.i; x < c.j; x++ {
			t[x] = true
		}
		chosen = append(chosen, c)
	}
	// bubble the ranges taken, the rightmost of each node first so that
	// the others' kid indices stay valid; as in optional, one is kept only
	// if the oracle rejects at most splitSlack more of the inputs sampled
	// from the grammar than before
	slices.SortStableFunc(chosen, func(x, y cand) int { return cmp.Compare(y.i, x.i) })
	base, err := f.samplePrecision()
	if err != nil {
		return err
	}
	for _, c := range chosen {
		l := f.fresh()
		f.empty[l] = true
		old := make([][]*tnode, len(c.a.nodes))
		for x, nd := range c.a.nodes {
			old[x] = nd.kids
			in := slices.Clone(nd.kids[c.i:c.j])
			g := &tnode{label: l, seed: nd.seed, lo: in[0].lo, hi: in[len(in)-1].hi, kids: in}
			nd.kids = slices.Concat(nd.kids[:c.i:c.i], []*tnode{g}, nd.kids[c.j:])
		}
		p, err := f.samplePrecision()
		if err != nil {
			return err
		}
		if p > base+splitSlack {
			for x, nd := range c.a.nodes {
				nd.kids = old[x]
			}
			delete(f.empty, l)
			continue
		}
		base = p
		f.s.record(Step{Name: "P" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(c.a.label) + "> (" + strings.TrimSpace(seqKey(c.a.seq[c.i:c.j])) + ")? as <" + strconv.Itoa(l) + ">"})
	}
	return nil
}

// altContexts returns the contexts in which a string of each label must be
// accepted: its own, and those of every label that has it as a one-way
// alternative (subsume), directly or through others, since a string the
// label gains is one those labels gain too.
func (f *forest) altContexts(labels []*unit) map[int][][2]string {
	byLabel := map[int]*unit{}
	for _, u := range labels {
		byLabel[u.label] = u
	}
	parents := map[int][]int{}
	for a, bs := range f.alts {
		for _, b := range bs {
			parents[b] = append(parents[b], a)
		}
	}
	for _, ps := range parents {
		slices.Sort(ps)
	}
	out := map[int][][2]string{}
	for _, u := range labels {
		seen := map[int]bool{u.label: true}
		ctxs := slices.Clone(u.ctxs)
		have := map[[2]string]bool{}
		for _, c := range ctxs {
			have[c] = true
		}
		for queue := []int{u.label}; len(queue) > 0; queue = queue[1:] {
			for _, a := range parents[queue[0]] {
				if seen[a] {
					continue
				}
				seen[a] = true
				queue = append(queue, a)
				if p := byLabel[a]; p != nil {
					for _, c := range p.ctxs {
						if !have[c] {
							have[c] = true
							ctxs = append(ctxs, c)
						}
					}
				}
			}
		}
		out[u.label] = ctxs
	}
	return out
}
