package grammar

// This file decides, for a token's NFA (see tokenBuilder), whether every
// word the token accepts has exactly one derivation. The NFA's paths from
// its start to its end are the token's derivations, one for one: each
// production is a chain of fresh states, each occurrence of a nonterminal
// a fragment of its own, and a production of several ε-derivations
// (nullable nonterminals) is as many ε-paths. A word with two derivations
// is a word with two accepting paths, which the product of the NFA with
// itself finds (Weber and Seidl's test for the ambiguity of an NFA). A
// forest counts an unambiguous token's spans as one derivation each
// without parsing them again (see Forest.Count).

// Bounds on the test, beyond which a token counts as possibly ambiguous:
// the steps (states of ε-closures visited and pairs of edges compared) per
// token, and for all tokens of a grammar per NFA state it may build (see
// tokenBuilder.limit), so that compiling stays linear in the grammar.
const (
	maxUnambWork      = 1 << 20
	unambWorkPerState = 16
)

// An unambEdge is an edge of the NFA without ε-edges: from a state over the
// terminal term to the state to.
type unambEdge struct{ term, to int32 }

// unambiguous reports whether every non-empty word the NFA built from s to
// t accepts has exactly one path: it is false if the NFA may have two
// paths for some word, or if the test exceeds its bounds.
func (b *tokenBuilder) unambiguous(s, t int32) bool {
	budget := min(maxUnambWork, b.unambLeft)
	work := 0
	defer func() { b.unambLeft -= work }()
	g := b.g
	meet := func(x, y int32) bool {
		a, c := &g.terms[x], &g.terms[y]
		return a[0]&c[0]|a[1]&c[1]|a[2]&c[2]|a[3]&c[3] != 0
	}
	// The NFA without ε-edges, made for the states a word reaches: the
	// edges of state p are those of the states its ε-closure holds, and p
	// accepts if the closure holds t.
	n := len(b.eps)
	out := make([][]unambEdge, n)
	accept := make([]bool, n)
	done := make([]bool, n)
	stamp := make([]int32, n)
	for i := range stamp {
		stamp[i] = -1
	}
	var stack []int32
	// closure makes out[p] and accept[p]. It reports false if two paths
	// of one word part in p: two ε-paths from p to one state (or an
	// ε-cycle; every state lies on a path from s to t), or two edges of p
	// into one state over a common byte. It also reports false past the
	// budget.
	closure := func(p int32) bool {
		if done[p] {
			return true
		}
		done[p] = true
		stack = append(stack[:0], p)
		stamp[p] = p
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if work++; work > budget {
				return false
			}
			if q == t {
				accept[p] = true
			}
			for _, e := range b.edges[q] {
				out[p] = append(out[p], unambEdge(e))
			}
			for _, r := range b.eps[q] {
				if stamp[r] == p {
					return false
				}
				stamp[r] = p
				stack = append(stack, r)
			}
		}
		es := out[p]
		if work += len(es) * len(es); work > budget {
			return false
		}
		for i := range es {
			for j := i + 1; j < len(es); j++ {
				if es[i].to == es[j].to && meet(es[i].term, es[j].term) {
					return false
				}
			}
		}
		return true
	}
	if !closure(s) {
		return false
	}
	// The pairs of states that two paths of one word reach, the paths
	// different (split) or not yet (then the states are one and the same);
	// two different paths of a word that both accept make the token
	// ambiguous.
	type pair struct {
		p, q  int32
		split bool
	}
	seen := map[pair]bool{{s, s, false}: true}
	queue := []pair{{s, s, false}}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		ep, eq := out[x.p], out[x.q]
		if work += len(ep) * len(eq); work > budget {
			return false
		}
		for i, e := range ep {
			for j, f := range eq {
				if !meet(e.term, f.term) {
					continue
				}
				y := pair{e.to, f.to, x.split || i != j}
				if !closure(y.p) || !closure(y.q) {
					return false
				}
				if y.split && accept[y.p] && accept[y.q] {
					return false
				}
				if y.split && y.p > y.q {
					y.p, y.q = y.q, y.p
				}
				if !seen[y] {
					seen[y] = true
					queue = append(queue, y)
				}
			}
		}
	}
	return true
}
