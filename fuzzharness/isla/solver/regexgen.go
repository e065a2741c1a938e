package solver

import (
	"fmt"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/internal/smtlib"
	"sort"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// Grammar to regular expression. A nonterminal's language is regular when
// its rules do not recurse; where they do, the recursion is unfolded up to
// regexRecursion levels and cut there (the result is then a subset of the
// language, and not exact). Bytes of a byte class are characters as the
// package maps them: 0x00-0x7F themselves, 0x80-0xFF the characters U+DC80
// to U+DCFF.

// regexRecursion is how often a nonterminal may occur on a path of the
// unfolding.
const regexRecursion = 2

// maxRegexText bounds the SMT-LIB text of a nonterminal's regular
// expression.
const maxRegexText = 1 << 16

// grammarRE returns the regular expression of a nonterminal's language and
// whether it is exact.
func (s *Solver) grammarRE(name string) (*smtlib.Regex, bool) {
	if r, ok := s.regexes[name]; ok {
		return r.re, r.exact
	}
	exact := true
	stack := map[string]int{}
	var conv func(n *grammar.Node) *smtlib.Regex
	conv = func(n *grammar.Node) *smtlib.Regex {
		switch n.Kind {
		case grammar.KindLit:
			return smtlib.Literal(smtlib.FromBytes(n.Lit))
		case grammar.KindClass:
			return smtlib.CharSet(classRanges(n))
		case grammar.KindRef:
			if stack[n.Name] >= regexRecursion {
				exact = false
				return smtlib.NoneRegex
			}
			stack[n.Name]++
			r := conv(n.Children[0])
			stack[n.Name]--
			return r
		case grammar.KindAlt:
			var xs []*smtlib.Regex
			for _, c := range n.Children {
				xs = append(xs, conv(c))
			}
			return smtlib.Union(xs...)
		case grammar.KindSeq:
			var xs []*smtlib.Regex
			for _, c := range n.Children {
				xs = append(xs, conv(c))
			}
			return smtlib.Concat(xs...)
		case grammar.KindRepeat:
			hi := n.Max
			if hi == grammar.Unbounded {
				hi = -1
			}
			return smtlib.Loop(conv(n.Children[0]), n.Min, hi)
		}
		return smtlib.NoneRegex
	}
	stack[name] = 1
	r := conv(s.spec.Graph().RHS(name))
	if s.regexes == nil {
		s.regexes = map[string]regexEntry{}
	}
	s.regexes[name] = regexEntry{r, exact}
	return r, exact
}

type regexEntry struct {
	re    *smtlib.Regex
	exact bool
}

// classRanges returns the characters of a class node.
func classRanges(n *grammar.Node) []smtlib.Range {
	var out []smtlib.Range
	if n.Class.Bytes {
		for i := 0; i < n.ClassLen(); i++ {
			b := n.ClassMember(i)[0]
			c := rune(b)
			if b >= 0x80 {
				c = smtlib.EscapedLo + rune(b) - 0x80
			}
			out = append(out, smtlib.Range{Lo: c, Hi: c})
		}
		return out
	}
	// Runs of consecutive members.
	for i := 0; i < n.ClassLen(); {
		lo := []rune(n.ClassMember(i))[0]
		j := i + 1
		for j < n.ClassLen() && []rune(n.ClassMember(j))[0] == lo+rune(j-i) {
			j++
		}
		out = append(out, smtlib.Range{Lo: lo, Hi: lo + rune(j-i-1)})
		i = j
	}
	return out
}

// grammarRegex returns the SMT-LIB text of a nonterminal's regular
// expression and whether it is exact; "" if it is too large.
func (s *Solver) grammarRegex(name string) (string, bool) {
	r, exact := s.grammarRE(name)
	var b strings.Builder
	writeRegex(&b, r)
	if b.Len() > maxRegexText {
		return "", false
	}
	return b.String(), exact
}

// writeRegex writes a regular expression in SMT-LIB.
func writeRegex(b *strings.Builder, r *smtlib.Regex) {
	switch r.Kind {
	case smtlib.ReNone:
		b.WriteString("re.none")
	case smtlib.ReEps:
		b.WriteString(`(str.to_re "")`)
	case smtlib.ReSet:
		if len(r.Set) > 1 {
			b.WriteString("(re.union")
		}
		for _, c := range r.Set {
			if len(r.Set) > 1 {
				b.WriteByte(' ')
			}
			if c.Lo == c.Hi {
				fmt.Fprintf(b, "(str.to_re %s)", smtlib.QuoteSMT(smtlib.EncodeRune(c.Lo)))
			} else {
				fmt.Fprintf(b, "(re.range %s %s)", smtlib.QuoteSMT(smtlib.EncodeRune(c.Lo)), smtlib.QuoteSMT(smtlib.EncodeRune(c.Hi)))
			}
		}
		if len(r.Set) > 1 {
			b.WriteByte(')')
		}
	case smtlib.ReCat, smtlib.ReOr, smtlib.ReAnd:
		op := map[smtlib.RegexKind]string{smtlib.ReCat: "re.++", smtlib.ReOr: "re.union", smtlib.ReAnd: "re.inter"}[r.Kind]
		b.WriteString("(" + op)
		for _, x := range r.Subs {
			b.WriteByte(' ')
			writeRegex(b, x)
		}
		b.WriteByte(')')
	case smtlib.ReStar:
		b.WriteString("(re.* ")
		writeRegex(b, r.Subs[0])
		b.WriteByte(')')
	case smtlib.ReNot:
		b.WriteString("(re.comp ")
		writeRegex(b, r.Subs[0])
		b.WriteByte(')')
	case smtlib.ReLoop:
		if r.Hi < 0 {
			fmt.Fprintf(b, "(re.++ ((_ re.loop %d %d) ", r.Lo, r.Lo)
			writeRegex(b, r.Subs[0])
			b.WriteString(") (re.* ")
			writeRegex(b, r.Subs[0])
			b.WriteString("))")
			return
		}
		fmt.Fprintf(b, "((_ re.loop %d %d) ", r.Lo, r.Hi)
		writeRegex(b, r.Subs[0])
		b.WriteByte(')')
	}
}

// maxRegexStates bounds the derivatives kept per length while sampling.
const maxRegexStates = 512

// deriveRegex derives the open leaf l with a text in the languages of res
// and of l's nonterminal, of a length in [lo, hi] (hi < 0: none), by a
// random walk over the derivatives of the intersection.
func (s *Solver) deriveRegex(l *stree, lo, hi int, res []*smtlib.Regex) (*stree, bool) {
	g, _ := s.grammarRE(l.g.Name)
	r := smtlib.Inter(append([]*smtlib.Regex{g}, res...)...)
	for range 4 {
		text, ok := s.sampleRegex(r, lo, hi)
		if !ok {
			return nil, false
		}
		b, ok := smtlib.ToBytes(text)
		if !ok {
			continue
		}
		if sub, ok := s.parseLeaf(l, b); ok {
			return sub, true
		}
	}
	return nil, false
}

type reEdge struct {
	lo, hi rune // the characters
	to     int  // the derivative's index on the next level
}

// sampleRegex returns a random string of r with a length in [lo, hi].
func (s *Solver) sampleRegex(r *smtlib.Regex, lo, hi int) (string, bool) {
	g := s.regexGraph(r, lo, hi)
	if len(g.accept) == 0 {
		return "", false
	}
	n := g.accept[s.rng.IntN(len(g.accept))]
	good := g.goodFor(n)
	if !good[0][0] {
		return "", false
	}
	var out []rune
	cur := 0
	for k := 0; k < n; k++ {
		var opts []reEdge
		weight := 0
		for _, e := range g.edges[k][cur] {
			if good[k+1][e.to] {
				opts = append(opts, e)
				weight += min(int(e.hi-e.lo)+1, 64)
			}
		}
		pick := s.rng.IntN(weight)
		var e reEdge
		for _, o := range opts {
			w := min(int(o.hi-o.lo)+1, 64)
			if pick < w {
				e = o
				break
			}
			pick -= w
		}
		c, ok := randomChar(e.lo, e.hi, s.rng.IntN)
		if !ok {
			return "", false
		}
		out = append(out, c)
		cur = e.to
	}
	return smtlib.FromRunes(out), true
}

// A regexGraph is what sampleRegex walks for a regex and a length range:
// the distinct derivatives by each length (levels, at most maxRegexStates
// each), the character edges between them, and the lengths at which the
// walk may stop. It depends on nothing random, so the solver keeps it:
// the same field expression is sampled again at every run.
type regexGraph struct {
	levels [][]*smtlib.Regex
	edges  [][][]reEdge // edges[k][i]: the edges of levels[k][i]
	accept []int        // the lengths of accepted strings
	good   map[int][][]bool
}

type regexGraphKey struct {
	re     string // the regex's Key
	lo, hi int
}

// maxRegexGraphs bounds the graphs the solver keeps.
const maxRegexGraphs = 256

// regexGraph returns the graph of r and [lo, hi], kept from an earlier
// call if there was one.
func (s *Solver) regexGraph(r *smtlib.Regex, lo, hi int) *regexGraph {
	key := regexGraphKey{r.Key, lo, hi}
	if g, ok := s.regexGraphs[key]; ok {
		return g
	}
	m := &s.reMatch
	top := hi
	if top < 0 {
		top = maxLengthBound
	}
	g := &regexGraph{levels: [][]*smtlib.Regex{{r}}, good: map[int][][]bool{}}
	for k := 0; ; k++ {
		cur := g.levels[k]
		for _, x := range cur {
			if x.Nullable && k >= lo {
				g.accept = append(g.accept, k)
				break
			}
		}
		if k >= top || hi < 0 && len(g.accept) > 0 && k >= g.accept[0]+8 {
			break
		}
		index := map[*smtlib.Regex]int{}
		var next []*smtlib.Regex
		es := make([][]reEdge, len(cur))
		for i, x := range cur {
			for _, iv := range s.partition(x) {
				c, ok := validChar(iv.lo, iv.hi)
				if !ok {
					continue
				}
				// The matcher returns interned derivatives: equal
				// expressions are one pointer.
				d := m.Deriv(x, c)
				if d.Kind == smtlib.ReNone {
					continue
				}
				j, seen := index[d]
				if !seen {
					if len(next) >= maxRegexStates {
						continue
					}
					j = len(next)
					index[d] = j
					next = append(next, d)
				}
				es[i] = append(es[i], reEdge{iv.lo, iv.hi, j})
			}
		}
		g.edges = append(g.edges, es)
		if len(next) == 0 {
			break
		}
		g.levels = append(g.levels, next)
	}
	if s.regexGraphs == nil || len(s.regexGraphs) >= maxRegexGraphs {
		s.regexGraphs = map[regexGraphKey]*regexGraph{}
	}
	s.regexGraphs[key] = g
	return g
}

// goodFor returns, for a walk of n characters, which derivatives of each
// level lead to an accepted one at level n.
func (g *regexGraph) goodFor(n int) [][]bool {
	if good, ok := g.good[n]; ok {
		return good
	}
	good := make([][]bool, n+1)
	good[n] = make([]bool, len(g.levels[n]))
	for i, x := range g.levels[n] {
		good[n][i] = x.Nullable
	}
	for k := n - 1; k >= 0; k-- {
		good[k] = make([]bool, len(g.levels[k]))
		for i := range g.levels[k] {
			for _, e := range g.edges[k][i] {
				if good[k+1][e.to] {
					good[k][i] = true
					break
				}
			}
		}
	}
	g.good[n] = good
	return good
}

// validChar returns the first character in [lo, hi] that a text can hold:
// not a surrogate, unless one that stands for a byte.
func validChar(lo, hi rune) (rune, bool) {
	switch {
	case lo < smtlib.SurrogateLo || lo > smtlib.SurrogateHi || lo >= smtlib.EscapedLo && lo <= smtlib.EscapedHi:
		return lo, true
	case lo < smtlib.EscapedLo && hi >= smtlib.EscapedLo:
		return smtlib.EscapedLo, true
	case lo > smtlib.EscapedHi && hi > smtlib.SurrogateHi:
		return smtlib.SurrogateHi + 1, true
	}
	return 0, false
}

// randomChar returns a random valid character in [lo, hi].
func randomChar(lo, hi rune, intn func(int) int) (rune, bool) {
	for range 8 {
		c := lo + rune(intn(int(hi-lo)+1))
		if c < smtlib.SurrogateLo || c > smtlib.SurrogateHi || c >= smtlib.EscapedLo && c <= smtlib.EscapedHi {
			return c, true
		}
	}
	return validChar(lo, hi)
}

// interval is a range of characters on which derivatives agree.
type interval struct{ lo, hi rune }

// partition splits the characters into intervals with the same
// derivative of r: the boundaries are those of the sets in r.
func (s *Solver) partition(r *smtlib.Regex) []interval {
	if p, ok := s.partitions[r.Key]; ok {
		return p
	}
	bounds := map[rune]bool{0: true, smtlib.MaxCodePoint + 1: true}
	seen := map[*smtlib.Regex]bool{}
	var walk func(x *smtlib.Regex)
	walk = func(x *smtlib.Regex) {
		if seen[x] {
			return
		}
		seen[x] = true
		for _, c := range x.Set {
			bounds[c.Lo] = true
			bounds[c.Hi+1] = true
		}
		for _, y := range x.Subs {
			walk(y)
		}
	}
	walk(r)
	var bs []rune
	for b := range bounds {
		bs = append(bs, b)
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i] < bs[j] })
	var out []interval
	for i := 0; i+1 < len(bs); i++ {
		out = append(out, interval{bs[i], bs[i+1] - 1})
	}
	if s.partitions == nil {
		s.partitions = map[string][]interval{}
	}
	s.partitions[r.Key] = out
	return out
}
