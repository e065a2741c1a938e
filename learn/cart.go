package learn

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Defaults of Config, those of CODEINE's pipeline.
const (
	DefaultTreeDepth = 5
	DefaultMinLeaf   = 1
	DefaultRuleGini  = 0.3
)

// Config sets how Learn grows its decision trees. The zero Config asks for
// CODEINE's settings.
type Config struct {
	// MaxDepth bounds the number of tests on a path from the root to a leaf
	// (default DefaultTreeDepth).
	MaxDepth int
	// MinLeaf is the least number of training rows in a leaf; a split that
	// would leave fewer on one side is not made (default DefaultMinLeaf).
	MinLeaf int
	// RuleGini is the greatest Gini impurity of a leaf that yields a rule
	// (default DefaultRuleGini). To keep only pure leaves, set it to a tiny
	// positive number such as 1e-9.
	RuleGini float64
	// NoBalance trains every tree on all rows. By default, as in CODEINE,
	// each function's tree is trained on all rows of its minority class
	// (covered or not covered) and an equally large random subset of the
	// other class.
	NoBalance bool
	// Seed seeds the subsampling. A function's tree depends only on the
	// seed, the function's name and the data, not on the other functions or
	// on scheduling.
	Seed uint64
	// Workers bounds how many trees are trained at once (default
	// runtime.GOMAXPROCS(0)).
	Workers int
	// Features selects the kinds of features the trees may test (default
	// DefaultFeatures). Root and count features exist only if the
	// dataset's samples have shapes.
	Features FeatureKinds
}

// withDefaults returns the configuration with defaults for the zero fields,
// or an error for a field out of range.
func (c Config) withDefaults() (Config, error) {
	if c.MaxDepth == 0 {
		c.MaxDepth = DefaultTreeDepth
	}
	if c.MinLeaf == 0 {
		c.MinLeaf = DefaultMinLeaf
	}
	if c.RuleGini == 0 {
		c.RuleGini = DefaultRuleGini
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Features == 0 {
		c.Features = DefaultFeatures
	}
	switch {
	case c.MaxDepth < 0:
		return c, fmt.Errorf("learn: MaxDepth %d is negative", c.MaxDepth)
	case c.MinLeaf < 0:
		return c, fmt.Errorf("learn: MinLeaf %d is negative", c.MinLeaf)
	case c.RuleGini < 0 || c.RuleGini > 0.5:
		return c, fmt.Errorf("learn: RuleGini %g is outside (0, 0.5]", c.RuleGini)
	case c.Workers < 0:
		return c, fmt.Errorf("learn: Workers %d is negative", c.Workers)
	case c.Features&^AllFeatures != 0:
		return c, fmt.Errorf("learn: unknown feature kinds %#x", uint8(c.Features&^AllFeatures))
	}
	return c, nil
}

// A Node is one node of a decision tree. Trees are stored as a slice of
// nodes with the root first; a node's children come after it.
type Node struct {
	// Feature is the index (into Model.Features) of the path tested here,
	// or -1 for a leaf.
	Feature int
	// Yes and No are the indexes of the children for inputs that contain
	// the path and for those that do not.
	Yes, No int
	// Pos and Neg count the training rows that reached the node and covered
	// the function, or did not.
	Pos, Neg int
}

// Leaf reports whether the node is a leaf.
func (n *Node) Leaf() bool { return n.Feature < 0 }

// Covered reports whether inputs reaching the node are predicted to cover
// the function: more covering than non-covering training rows reached it.
func (n *Node) Covered() bool { return n.Pos > n.Neg }

// Prob returns the fraction of the training rows at the node that covered
// the function.
func (n *Node) Prob() float64 {
	if n.Pos+n.Neg == 0 {
		return 0
	}
	return float64(n.Pos) / float64(n.Pos+n.Neg)
}

// Gini returns the Gini impurity of the node's training rows: 0 when all
// agree, 0.5 when they are evenly split.
func (n *Node) Gini() float64 { return gini(n.Pos, n.Neg) }

func gini(pos, neg int) float64 {
	t := float64(pos + neg)
	if t == 0 {
		return 0
	}
	p, q := float64(pos)/t, float64(neg)/t
	return 1 - p*p - q*q
}

// trainer grows trees over one dataset; it holds one worker's scratch space.
type trainer struct {
	ds   *Dataset
	cfg  Config
	pos  []int32 // per feature: covering rows at the node that have it
	neg  []int32 // per feature: non-covering rows at the node that have it
	seen []int32 // features touched at the node
}

func newTrainer(ds *Dataset, cfg Config) *trainer {
	return &trainer{ds: ds, cfg: cfg, pos: make([]int32, ds.m.ncols), neg: make([]int32, ds.m.ncols)}
}

// funcSeed derives the random stream of one function's tree.
func funcSeed(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// rows returns the training rows of function f: all of them, or the balanced
// subsample, in increasing order.
func (tr *trainer) rows(f int) []int32 {
	ds := tr.ds
	var pos, neg []int32
	for r := range ds.m.rows {
		if ds.labels[f].has(r) {
			pos = append(pos, int32(r))
		} else {
			neg = append(neg, int32(r))
		}
	}
	if !tr.cfg.NoBalance && len(pos) != len(neg) {
		rng := funcSeed(tr.cfg.Seed, ds.Funcs[f])
		if len(pos) > len(neg) {
			pos = sample(rng, pos, len(neg))
		} else {
			neg = sample(rng, neg, len(pos))
		}
	}
	rows := append(pos, neg...)
	slices.Sort(rows)
	return rows
}

// sample returns n elements of xs chosen uniformly without replacement (a
// partial Fisher-Yates shuffle); it reorders xs.
func sample(rng *rand.Rand, xs []int32, n int) []int32 {
	for i := range n {
		j := i + rng.IntN(len(xs)-i)
		xs[i], xs[j] = xs[j], xs[i]
	}
	return xs[:n]
}

// grow trains the tree of function f.
func (tr *trainer) grow(f int) []Node {
	var nodes []Node
	var build func(rows []int32, depth int) int
	build = func(rows []int32, depth int) int {
		pos := 0
		for _, r := range rows {
			if tr.ds.labels[f].has(int(r)) {
				pos++
			}
		}
		id := len(nodes)
		nodes = append(nodes, Node{Feature: -1, Pos: pos, Neg: len(rows) - pos})
		if depth >= tr.cfg.MaxDepth || pos == 0 || pos == len(rows) || len(rows) < 2*tr.cfg.MinLeaf {
			return id
		}
		c, ok := tr.bestSplit(f, rows, pos)
		if !ok {
			return id
		}
		// Partition: rows with the feature first, each side kept in order.
		yes := make([]int32, 0, len(rows))
		no := make([]int32, 0, len(rows))
		for _, r := range rows {
			if tr.ds.m.has(int(r), c) {
				yes = append(yes, r)
			} else {
				no = append(no, r)
			}
		}
		nodes[id].Feature = int(c)
		y := build(yes, depth+1)
		n := build(no, depth+1)
		nodes[id].Yes, nodes[id].No = y, n
		return id
	}
	build(tr.rows(f), 0)
	return nodes
}

// bestSplit finds the feature whose split of rows has the least weighted Gini
// impurity, among those that leave MinLeaf rows on each side and lower the
// impurity. Ties go to the lowest feature index. It counts, for every
// feature some row has, the covering and non-covering rows with it, in one
// pass over the rows' sparse feature lists.
func (tr *trainer) bestSplit(f int, rows []int32, pos int) (int32, bool) {
	lab := tr.ds.labels[f]
	tr.seen = tr.seen[:0]
	for _, r := range rows {
		y := lab.has(int(r))
		for _, c := range tr.ds.m.row(int(r)) {
			if tr.pos[c] == 0 && tr.neg[c] == 0 {
				tr.seen = append(tr.seen, c)
			}
			if y {
				tr.pos[c]++
			} else {
				tr.neg[c]++
			}
		}
	}
	n := len(rows)
	P, N := float64(pos), float64(n-pos)
	// Weighted Gini times n is n - score, where score sums (p²+q²)/(p+q)
	// over both sides: maximise the score.
	parent := (P*P + N*N) / float64(n)
	best, bestC := parent+1e-9*float64(n), int32(-1)
	minLeaf := int32(tr.cfg.MinLeaf)
	for _, c := range tr.seen {
		pw, nw := tr.pos[c], tr.neg[c]
		tr.pos[c], tr.neg[c] = 0, 0
		if tr.cfg.Features&tr.ds.kind(c) == 0 {
			continue
		}
		with := pw + nw
		without := int32(n) - with
		if with < minLeaf || without < minLeaf || without == 0 {
			continue
		}
		a, b := float64(pw), float64(nw)
		p2, n2 := P-a, N-b
		score := (a*a+b*b)/float64(with) + (p2*p2+n2*n2)/float64(without)
		if score > best || (score == best && bestC >= 0 && c < bestC) {
			best, bestC = score, c
		}
	}
	return bestC, bestC >= 0
}

// trainAll trains one tree per function of ds, using up to cfg.Workers
// goroutines. The result does not depend on the number of workers.
func trainAll(ds *Dataset, cfg Config) [][]Node {
	trees := make([][]Node, len(ds.Funcs))
	workers := min(cfg.Workers, len(ds.Funcs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr := newTrainer(ds, cfg)
			for {
				f := int(next.Add(1) - 1)
				if f >= len(ds.Funcs) {
					return
				}
				trees[f] = tr.grow(f)
			}
		}()
	}
	wg.Wait()
	return trees
}
