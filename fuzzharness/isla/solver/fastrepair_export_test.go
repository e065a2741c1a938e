package solver

import (
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// FastRepair runs the fast repair steps alone, for the tests.
func (r *Repairer) FastRepair(t *grammar.Tree, seed uint64, deadline time.Time) (*grammar.Tree, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fastRepair(t, seed, limit{deadline: deadline})
}

// FastEval decides each top-level conjunct of the constraint on t with the
// fast repair's evaluation (instances looked up by text) and with the
// evaluator's, for the tests.
func (r *Repairer) FastEval(t *grammar.Tree) (fast, full []bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.newRun(0)
	spec := r.spec
	f.v = isla.NewViewReusing(f.v, t.Bytes(), t, spec.Labels(), spec.RootLabel(), spec.VirtualRoot())
	f.e = isla.NewEvaluator(spec, f.v)
	for _, c := range f.p.conjs {
		fast = append(fast, f.eval(c))
		full = append(full, f.e.Eval(c))
	}
	return fast, full
}

// Remembered reports whether r's cache holds the repair of t with seed.
func (r *Repairer) Remembered(t *grammar.Tree, seed uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	key, _ := r.cache.key(t, seed)
	_, ok := r.cache.get(key, t, seed)
	return ok
}

// RepairCacheMaxNodes bounds the trees a Repairer remembers.
const RepairCacheMaxNodes = repairCacheMaxNodes
