package fuzzharness_test

import (
	"fmt"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// noDivision is a constraint on expr inputs: no division. It repairs an
// input by turning every / into *.
type noDivision struct{ c *fuzzharness.Codec }

func (noDivision) Valid(t *grammar.Tree) bool { return !strings.Contains(t.String(), "/") }

func (n noDivision) Repair(t *grammar.Tree, seed uint64) (*grammar.Tree, bool) {
	r, err := n.c.Parse(strings.ReplaceAll(t.String(), "/", "*"))
	return r, err == nil
}

func (n noDivision) Seeds(k int) []*grammar.Tree {
	t, err := n.c.Parse("1*2")
	if err != nil || k == 0 {
		return nil
	}
	return []*grammar.Tree{t}
}

// A constraint repairs the seeds (and, in a fuzz test, every decoded input)
// that violate it and adds its own seeds. An ISLa constraint plugs in the
// same way, with solver.NewRepairer of package isla/solver:
//
//	rep, _ := solver.NewRepairer(spec)
//	fuzzharness.NewGraph(f, gr, fuzzharness.WithConstraint(rep)).FuzzString(target)
func ExampleWithConstraint() {
	gr := grammar.MustCompile(grammar.MustBuiltin("expr"))
	c, err := fuzzharness.NewCodec(gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	seeds, err := fuzzharness.Seeds(gr, fuzzharness.WithKPathSeeds(0),
		fuzzharness.WithExamples("6/3", "x+1"), fuzzharness.WithConstraint(noDivision{c}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range seeds {
		fmt.Println(t)
	}
	// Output:
	// 6*3
	// x+1
	// 1*2
}
