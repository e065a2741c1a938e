package solver

import (
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// FastRepair runs the fast repair steps alone, for the tests.
func (r *Repairer) FastRepair(t *grammar.Tree, seed uint64, deadline time.Time) (*grammar.Tree, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fastRepair(t, seed, limit{deadline: deadline})
}
