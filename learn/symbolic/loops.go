package symbolic

import (
	"fmt"

	"golang.org/x/tools/go/ssa"
)

// A loop is a natural loop of a function: a header block and the blocks that
// reach a back edge to it without passing through it.
type loop struct {
	header *ssa.BasicBlock
	body   map[*ssa.BasicBlock]bool
	key    string
}

// findLoops returns the loops of fn by header, numbered in block order.
func findLoops(fn *ssa.Function) map[*ssa.BasicBlock]*loop {
	loops := map[*ssa.BasicBlock]*loop{}
	for _, b := range fn.Blocks {
		for _, h := range b.Succs {
			if !h.Dominates(b) {
				continue
			}
			l := loops[h]
			if l == nil {
				l = &loop{header: h, body: map[*ssa.BasicBlock]bool{h: true}}
				loops[h] = l
			}
			work := []*ssa.BasicBlock{b}
			for len(work) > 0 {
				x := work[len(work)-1]
				work = work[:len(work)-1]
				if l.body[x] {
					continue
				}
				l.body[x] = true
				work = append(work, x.Preds...)
			}
		}
	}
	n := 0
	for _, b := range fn.Blocks {
		if l := loops[b]; l != nil {
			n++
			l.key = fmt.Sprintf("%s-loop%d", symbolName(fn), n)
		}
	}
	return loops
}
