package glade

import (
	"slices"
	"strconv"
)

// ctxSplitMaxGroups bounds the groups of contexts splitContextChars tries
// for one label.
const ctxSplitMaxGroups = 8

// splitContextChars generalizes characters per context where character
// generalization, which needs a character to pass in every context of a
// label, finds too few: when one label stands for characters in places
// that allow different sets (a hexadecimal digit of a percent-encoding in a
// URL's host, where only some digits may come first, and in its path, where
// all may), the characters that pass in some of its contexts but not in all
// are lost everywhere. For every label that derives single bytes, each
// other byte of the alphabet is tried in each of its first bubbleSamples
// contexts (the checks of generalizeChars, answered by the cache); the
// contexts are grouped by the set of bytes that pass in them, and the
// leaves of a group (largest group first, up to ctxSplitMaxGroups) get a
// label of their own deriving the label's bytes and that set. As the new
// label's parents derive it everywhere they are used, a split is kept only
// if the oracle rejects at most splitSlack more of splitSamples inputs
// generated from the grammar than before it, as in splitChars.
func (f *forest) splitContextChars() error {
	labels, _ := f.units()
	base, err := f.samplePrecision()
	if err != nil {
		return err
	}
	for _, u := range labels {
		if u.label == f.uni || f.unicode[u.label] {
			continue
		}
		set := f.chars[u.label] // the bytes the label derives
		leaves := true
		for _, sp := range u.spans {
			if sp.n.kids != nil || sp.n.hi-sp.n.lo != 1 {
				leaves = false
				break
			}
			set.add(f.seeds[sp.n.seed][sp.n.lo])
		}
		if !leaves || len(u.ctxs) < 2 {
			continue
		}
		ctxs := u.ctxs[:min(len(u.ctxs), bubbleSamples)]
		var tried []byte
		for _, c := range f.s.cfg.alphabet {
			if !set.has(c) {
				tried = append(tried, c)
			}
		}
		if len(tried) == 0 {
			continue
		}
		oks, err := f.charChecks(tried, ctxs)
		if err != nil {
			return err
		}
		// the bytes passing in each context, and the groups of contexts
		// with the same non-empty set, in order of first context
		index := map[[2]string]int{}
		for j, cx := range ctxs {
			index[cx] = j
		}
		type group struct {
			pass   charSet
			ctxs   map[int]bool
			leaves []*tnode
		}
		var groups []*group
		byPass := map[charSet]*group{}
		for j := range ctxs {
			var pass charSet
			for i, c := range tried {
				if oks[i*len(ctxs)+j] {
					pass.add(c)
				}
			}
			if pass.count() == 0 {
				continue
			}
			g := byPass[pass]
			if g == nil {
				g = &group{pass: pass, ctxs: map[int]bool{}}
				byPass[pass] = g
				groups = append(groups, g)
			}
			g.ctxs[j] = true
		}
		if len(groups) == 0 {
			continue
		}
		for _, sp := range u.spans {
			str := f.seeds[sp.n.seed]
			j, ok := index[[2]string{str[:sp.n.lo], str[sp.n.hi:]}]
			if !ok {
				continue
			}
			for _, g := range groups {
				if g.ctxs[j] {
					g.leaves = append(g.leaves, sp.n)
				}
			}
		}
		slices.SortStableFunc(groups, func(a, b *group) int { return len(b.leaves) - len(a.leaves) })
		for _, g := range groups[:min(len(groups), ctxSplitMaxGroups)] {
			if len(g.leaves) == len(u.spans) {
				// every leaf passes the same bytes: nothing to split
				// (generalizeChars took them all)
				continue
			}
			l := f.fresh()
			cs := set
			for b := range 256 {
				if g.pass.has(byte(b)) {
					cs.add(byte(b))
				}
			}
			f.chars[l] = cs
			for _, n := range g.leaves {
				n.label = l
			}
			p, err := f.samplePrecision()
			if err != nil {
				return err
			}
			if p > base+splitSlack {
				for _, n := range g.leaves {
					n.label = u.label
				}
				delete(f.chars, l)
				continue
			}
			base = p
			f.s.record(Step{Name: "C" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(u.label) + "> in " + strconv.Itoa(len(g.ctxs)) + " contexts: <" + strconv.Itoa(l) + ">"})
		}
	}
	return nil
}

// charChecks returns whether the oracle accepts each byte of cands in each
// of ctxs: the answer for cands[i] in ctxs[j] at i*len(ctxs)+j.
func (f *forest) charChecks(cands []byte, ctxs [][2]string) ([]bool, error) {
	var inputs [][]byte
	for _, c := range cands {
		for _, cx := range ctxs {
			inputs = append(inputs, []byte(cx[0]+string(c)+cx[1]))
		}
	}
	return f.s.query(inputs)
}
