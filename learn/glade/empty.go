package glade

import (
	"slices"
	"strconv"
)

// optionals runs when nothing more merges: a label whose nodes are not all
// leaves, and none of whose nodes has a child of the same label, gains the
// empty string as an alternative when the oracle accepts every one of its
// contexts (up to bubbleSamples) with nothing in place of its node. Merges
// and bubbles only ever equate strings of the seeds, so a part that every
// seed has (a URL's path after its scheme) is never learned to be
// optional, although a repetition taken zero times is the shorter
// repetition check of GLADE's phase one. (A recursive label that derives
// the empty string, such as A ::= A A | A x | "", derives a string in
// unboundedly many ways: on grep, with such labels optional, most inputs
// of a hundred bytes took the Earley parser past its item limit.) As the
// label's parents derive the empty string everywhere they are used, a label
// is kept optional only if the oracle rejects at most splitSlack more of
// splitSamples inputs generated from the grammar than before, as in
// splitChars.
func (f *forest) optionals() error {
	labels, _ := f.units()
	type try struct {
		label       int
		first, rest []string
	}
	var tries []try
	var inputs [][]byte
	for _, u := range labels {
		if u.label == labelStart || !slices.ContainsFunc(u.spans, func(sp span) bool { return sp.n.kids != nil }) {
			continue
		}
		if slices.ContainsFunc(u.spans, func(sp span) bool {
			return slices.ContainsFunc(sp.n.kids, func(k *tnode) bool { return k.label == u.label })
		}) {
			continue
		}
		var chk []string
		for _, cx := range u.ctxs[:min(len(u.ctxs), bubbleSamples)] {
			chk = append(chk, cx[0]+cx[1])
		}
		k := min(bubbleFirst, len(chk))
		tries = append(tries, try{label: u.label, first: chk[:k], rest: chk[k:]})
		for _, c := range chk[:k] {
			inputs = append(inputs, []byte(c))
		}
	}
	oks, err := f.s.query(inputs)
	if err != nil {
		return err
	}
	base := -1
	k := 0
	for _, t := range tries {
		pass := !slices.Contains(oks[k:k+len(t.first)], false)
		k += len(t.first)
		if !pass {
			continue
		}
		if pass, err = f.s.acceptsAll(t.rest); err != nil || !pass {
			if err != nil {
				return err
			}
			continue
		}
		if base < 0 {
			if base, err = f.samplePrecision(); err != nil {
				return err
			}
		}
		f.empty[t.label] = true
		p, err := f.samplePrecision()
		if err != nil {
			return err
		}
		if p > base+splitSlack {
			delete(f.empty, t.label)
			continue
		}
		base = p
		f.s.record(Step{Name: "E" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(t.label) + "> ::= \"\""})
	}
	return nil
}
