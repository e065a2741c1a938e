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
	var tries []int
	var checks [][]string
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
		tries = append(tries, u.label)
		checks = append(checks, chk)
	}
	pass, err := f.passing(checks)
	if err != nil {
		return err
	}
	base := -1
	for i, label := range tries {
		if !pass[i] {
			continue
		}
		if base < 0 {
			if base, err = f.samplePrecision(); err != nil {
				return err
			}
		}
		f.empty[label] = true
		p, err := f.samplePrecision()
		if err != nil {
			return err
		}
		if p > base+splitSlack {
			delete(f.empty, label)
			continue
		}
		base = p
		f.s.record(Step{Name: "E" + strconv.Itoa(f.s.stats.Steps+1), Chosen: "<" + strconv.Itoa(label) + "> ::= \"\""})
	}
	return nil
}

// passing reports for each set of checks whether the oracle accepts all of
// them: the first bubbleFirst of every set go to the oracle in one batch,
// the others only for the sets that passed those.
func (f *forest) passing(checks [][]string) ([]bool, error) {
	var inputs [][]byte
	for _, chk := range checks {
		for _, c := range chk[:min(bubbleFirst, len(chk))] {
			inputs = append(inputs, []byte(c))
		}
	}
	oks, err := f.s.query(inputs)
	if err != nil {
		return nil, err
	}
	pass := make([]bool, len(checks))
	k := 0
	for i, chk := range checks {
		n := min(bubbleFirst, len(chk))
		if pass[i] = !slices.Contains(oks[k:k+n], false); pass[i] {
			if pass[i], err = f.s.acceptsAll(chk[n:]); err != nil {
				return nil, err
			}
		}
		k += n
	}
	return pass, nil
}
