package isla

import (
	"fmt"
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
func (s *Solver) grammarRE(name string) (*regex, bool) {
	if r, ok := s.regexes[name]; ok {
		return r.re, r.exact
	}
	exact := true
	stack := map[string]int{}
	var conv func(n *grammar.Node) *regex
	conv = func(n *grammar.Node) *regex {
		switch n.Kind {
		case grammar.KindLit:
			return mkStr(fromBytes(n.Lit))
		case grammar.KindClass:
			return mkSet(classRanges(n))
		case grammar.KindRef:
			if stack[n.Name] >= regexRecursion {
				exact = false
				return reNoneV
			}
			stack[n.Name]++
			r := conv(n.Children[0])
			stack[n.Name]--
			return r
		case grammar.KindAlt:
			var xs []*regex
			for _, c := range n.Children {
				xs = append(xs, conv(c))
			}
			return mkOr(xs...)
		case grammar.KindSeq:
			var xs []*regex
			for _, c := range n.Children {
				xs = append(xs, conv(c))
			}
			return mkCat(xs...)
		case grammar.KindRepeat:
			hi := n.Max
			if hi == grammar.Unbounded {
				hi = -1
			}
			return mkLoop(conv(n.Children[0]), n.Min, hi)
		}
		return reNoneV
	}
	stack[name] = 1
	r := conv(s.spec.graph.RHS(name))
	if s.regexes == nil {
		s.regexes = map[string]regexEntry{}
	}
	s.regexes[name] = regexEntry{r, exact}
	return r, exact
}

type regexEntry struct {
	re    *regex
	exact bool
}

// classRanges returns the characters of a class node.
func classRanges(n *grammar.Node) []crange {
	var out []crange
	if n.Class.Bytes {
		for i := 0; i < n.ClassLen(); i++ {
			b := n.ClassMember(i)[0]
			c := rune(b)
			if b >= 0x80 {
				c = escapedLo + rune(b) - 0x80
			}
			out = append(out, crange{c, c})
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
		out = append(out, crange{lo, lo + rune(j-i-1)})
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
func writeRegex(b *strings.Builder, r *regex) {
	switch r.kind {
	case reNone:
		b.WriteString("re.none")
	case reEps:
		b.WriteString(`(str.to_re "")`)
	case reSet:
		if len(r.set) > 1 {
			b.WriteString("(re.union")
		}
		for _, c := range r.set {
			if len(r.set) > 1 {
				b.WriteByte(' ')
			}
			if c.lo == c.hi {
				fmt.Fprintf(b, "(str.to_re %s)", smtQuote(encodeRune(c.lo)))
			} else {
				fmt.Fprintf(b, "(re.range %s %s)", smtQuote(encodeRune(c.lo)), smtQuote(encodeRune(c.hi)))
			}
		}
		if len(r.set) > 1 {
			b.WriteByte(')')
		}
	case reCat, reOr, reAnd:
		op := map[reKind]string{reCat: "re.++", reOr: "re.union", reAnd: "re.inter"}[r.kind]
		b.WriteString("(" + op)
		for _, x := range r.subs {
			b.WriteByte(' ')
			writeRegex(b, x)
		}
		b.WriteByte(')')
	case reStar:
		b.WriteString("(re.* ")
		writeRegex(b, r.subs[0])
		b.WriteByte(')')
	case reNot:
		b.WriteString("(re.comp ")
		writeRegex(b, r.subs[0])
		b.WriteByte(')')
	case reLoop:
		if r.hi < 0 {
			fmt.Fprintf(b, "(re.++ ((_ re.loop %d %d) ", r.lo, r.lo)
			writeRegex(b, r.subs[0])
			b.WriteString(") (re.* ")
			writeRegex(b, r.subs[0])
			b.WriteString("))")
			return
		}
		fmt.Fprintf(b, "((_ re.loop %d %d) ", r.lo, r.hi)
		writeRegex(b, r.subs[0])
		b.WriteByte(')')
	}
}

// maxRegexStates bounds the derivatives kept per length while sampling.
const maxRegexStates = 512

// deriveRegex derives the open leaf l with a text in the languages of res
// and of l's nonterminal, of a length in [lo, hi] (hi < 0: none), by a
// random walk over the derivatives of the intersection.
func (s *Solver) deriveRegex(l *stree, lo, hi int, res []*regex) (*stree, bool) {
	g, _ := s.grammarRE(l.g.Name)
	r := mkAnd(append([]*regex{g}, res...)...)
	for range 4 {
		text, ok := s.sampleRegex(r, lo, hi)
		if !ok {
			return nil, false
		}
		b, ok := toBytes(text)
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
func (s *Solver) sampleRegex(r *regex, lo, hi int) (string, bool) {
	m := &s.reMatch
	top := hi
	if top < 0 {
		top = maxLengthBound
	}
	levels := [][]*regex{{r}}
	var edges [][][]reEdge
	var accept []int
	for k := 0; ; k++ {
		cur := levels[k]
		for _, x := range cur {
			if x.null && k >= lo {
				accept = append(accept, k)
				break
			}
		}
		if k >= top || hi < 0 && len(accept) > 0 && k >= accept[0]+8 {
			break
		}
		index := map[string]int{}
		var next []*regex
		es := make([][]reEdge, len(cur))
		for i, x := range cur {
			for _, iv := range s.partition(x) {
				c, ok := validChar(iv.lo, iv.hi)
				if !ok {
					continue
				}
				d := m.deriv(x, c)
				if d.kind == reNone {
					continue
				}
				j, seen := index[d.key]
				if !seen {
					if len(next) >= maxRegexStates {
						continue
					}
					j = len(next)
					index[d.key] = j
					next = append(next, d)
				}
				es[i] = append(es[i], reEdge{iv.lo, iv.hi, j})
			}
		}
		edges = append(edges, es)
		if len(next) == 0 {
			break
		}
		levels = append(levels, next)
	}
	if len(accept) == 0 {
		return "", false
	}
	n := accept[s.rng.IntN(len(accept))]
	good := make([][]bool, n+1)
	good[n] = make([]bool, len(levels[n]))
	for i, x := range levels[n] {
		good[n][i] = x.null
	}
	for k := n - 1; k >= 0; k-- {
		good[k] = make([]bool, len(levels[k]))
		for i := range levels[k] {
			for _, e := range edges[k][i] {
				if good[k+1][e.to] {
					good[k][i] = true
					break
				}
			}
		}
	}
	if !good[0][0] {
		return "", false
	}
	var out []rune
	cur := 0
	for k := 0; k < n; k++ {
		var opts []reEdge
		weight := 0
		for _, e := range edges[k][cur] {
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
	return fromRunes(out), true
}

// validChar returns the first character in [lo, hi] that a text can hold:
// not a surrogate, unless one that stands for a byte.
func validChar(lo, hi rune) (rune, bool) {
	switch {
	case lo < surrLo || lo > surrHi || lo >= escapedLo && lo <= escapedHi:
		return lo, true
	case lo < escapedLo && hi >= escapedLo:
		return escapedLo, true
	case lo > escapedHi && hi > surrHi:
		return surrHi + 1, true
	}
	return 0, false
}

// randomChar returns a random valid character in [lo, hi].
func randomChar(lo, hi rune, intn func(int) int) (rune, bool) {
	for range 8 {
		c := lo + rune(intn(int(hi-lo)+1))
		if c < surrLo || c > surrHi || c >= escapedLo && c <= escapedHi {
			return c, true
		}
	}
	return validChar(lo, hi)
}

// interval is a range of characters on which derivatives agree.
type interval struct{ lo, hi rune }

// partition splits the characters into intervals with the same
// derivative of r: the boundaries are those of the sets in r.
func (s *Solver) partition(r *regex) []interval {
	if p, ok := s.partitions[r.key]; ok {
		return p
	}
	bounds := map[rune]bool{0: true, maxCodePoint + 1: true}
	seen := map[*regex]bool{}
	var walk func(x *regex)
	walk = func(x *regex) {
		if seen[x] {
			return
		}
		seen[x] = true
		for _, c := range x.set {
			bounds[c.lo] = true
			bounds[c.hi+1] = true
		}
		for _, y := range x.subs {
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
	s.partitions[r.key] = out
	return out
}
