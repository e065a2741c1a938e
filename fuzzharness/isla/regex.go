package isla

import (
	"sort"
	"strconv"
	"strings"
)

// Regular expressions of SMT-LIB's RegLan sort, decided by Brzozowski
// derivatives: the derivative of a language L by a character c is the set
// of words w with cw in L, and a word is in L if the derivative by its
// characters, one after the other, contains the empty word. Union,
// intersection and complement have simple derivatives, so all of re.inter,
// re.comp and re.diff are exact. Smart constructors keep the expressions in
// a normal form (unions and intersections flattened, sorted and without
// duplicates), which bounds the number of distinct derivatives.
//
// Regex values are immutable and may be shared between goroutines.

type reKind uint8

const (
	reNone reKind = iota // the empty language
	reEps                // the empty word only
	reSet                // one character of a set
	reCat                // concatenation of subs
	reOr                 // union of subs
	reAnd                // intersection of subs
	reStar               // subs[0]*
	reNot                // complement of subs[0]
	reLoop               // subs[0] repeated lo to hi times (hi < 0: unbounded)
)

type regex struct {
	kind   reKind
	set    []crange
	subs   []*regex
	lo, hi int
	null   bool   // the empty word is in the language
	key    string // canonical text, equal for equal expressions
}

// crange is an inclusive range of characters.
type crange struct{ lo, hi rune }

var (
	reNoneV  = &regex{kind: reNone, key: "0"}
	reEpsV   = &regex{kind: reEps, null: true, key: "e"}
	reAllChr = mkSet([]crange{{0, maxCodePoint}})
	reAllV   = mkStar(reAllChr)
)

func setKey(set []crange) string {
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range set {
		b.WriteString(strconv.Itoa(int(r.lo)))
		if r.hi != r.lo {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(int(r.hi)))
		}
		b.WriteByte(',')
	}
	b.WriteByte(']')
	return b.String()
}

func subsKey(op string, subs []*regex) string {
	var b strings.Builder
	b.WriteString(op)
	b.WriteByte('(')
	for i, s := range subs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.key)
	}
	b.WriteByte(')')
	return b.String()
}

// normSet sorts and merges ranges, clipped to the characters of SMT-LIB.
func normSet(rs []crange) []crange {
	var out []crange
	for _, r := range rs {
		if r.lo < 0 {
			r.lo = 0
		}
		if r.hi > maxCodePoint {
			r.hi = maxCodePoint
		}
		if r.lo <= r.hi {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].lo < out[j].lo })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r.lo <= merged[n-1].hi+1 {
			merged[n-1].hi = max(merged[n-1].hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

func mkSet(rs []crange) *regex {
	rs = normSet(rs)
	if len(rs) == 0 {
		return reNoneV
	}
	return &regex{kind: reSet, set: rs, key: setKey(rs)}
}

func setHas(set []crange, c rune) bool {
	i := sort.Search(len(set), func(i int) bool { return set[i].hi >= c })
	return i < len(set) && set[i].lo <= c
}

func interSets(a, b []crange) []crange {
	var out []crange
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if lo <= hi {
			out = append(out, crange{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// mkStr returns the regex of exactly the internal string s.
func mkStr(s string) *regex {
	rs := runes(s)
	if len(rs) == 0 {
		return reEpsV
	}
	parts := make([]*regex, len(rs))
	for i, r := range rs {
		parts[i] = mkSet([]crange{{r, r}})
	}
	return mkCat(parts...)
}

func mkCat(xs ...*regex) *regex {
	var subs []*regex
	for _, x := range xs {
		switch x.kind {
		case reNone:
			return reNoneV
		case reEps:
			continue
		case reCat:
			subs = append(subs, x.subs...)
		default:
			subs = append(subs, x)
		}
	}
	switch len(subs) {
	case 0:
		return reEpsV
	case 1:
		return subs[0]
	}
	null := true
	for _, s := range subs {
		null = null && s.null
	}
	return &regex{kind: reCat, subs: subs, null: null, key: subsKey("cat", subs)}
}

// mkOr returns the union of xs.
func mkOr(xs ...*regex) *regex {
	var subs []*regex
	var sets []crange
	haveSet := false
	var add func(x *regex) bool
	add = func(x *regex) bool {
		switch {
		case x.kind == reNone:
		case x.key == reAllV.key:
			return false
		case x.kind == reOr:
			for _, s := range x.subs {
				if !add(s) {
					return false
				}
			}
		case x.kind == reSet:
			sets = append(sets, x.set...)
			haveSet = true
		default:
			subs = append(subs, x)
		}
		return true
	}
	for _, x := range xs {
		if !add(x) {
			return reAllV
		}
	}
	if haveSet {
		subs = append(subs, mkSet(sets))
	}
	subs = sortUnique(subs)
	switch len(subs) {
	case 0:
		return reNoneV
	case 1:
		return subs[0]
	}
	null := false
	for _, s := range subs {
		null = null || s.null
	}
	return &regex{kind: reOr, subs: subs, null: null, key: subsKey("or", subs)}
}

// mkAnd returns the intersection of xs.
func mkAnd(xs ...*regex) *regex {
	var subs []*regex
	var set []crange
	haveSet := false
	var add func(x *regex) bool
	add = func(x *regex) bool {
		switch {
		case x.kind == reNone:
			return false
		case x.key == reAllV.key:
		case x.kind == reAnd:
			for _, s := range x.subs {
				if !add(s) {
					return false
				}
			}
		case x.kind == reSet:
			if haveSet {
				set = interSets(set, x.set)
			} else {
				set = x.set
				haveSet = true
			}
			if len(set) == 0 {
				return false
			}
		default:
			subs = append(subs, x)
		}
		return true
	}
	for _, x := range xs {
		if !add(x) {
			return reNoneV
		}
	}
	if haveSet {
		subs = append(subs, mkSet(set))
	}
	subs = sortUnique(subs)
	switch len(subs) {
	case 0:
		return reAllV
	case 1:
		return subs[0]
	}
	null := true
	for _, s := range subs {
		null = null && s.null
	}
	return &regex{kind: reAnd, subs: subs, null: null, key: subsKey("and", subs)}
}

func sortUnique(xs []*regex) []*regex {
	sort.Slice(xs, func(i, j int) bool { return xs[i].key < xs[j].key })
	out := xs[:0]
	for i, x := range xs {
		if i > 0 && x.key == xs[i-1].key {
			continue
		}
		out = append(out, x)
	}
	return out
}

func mkStar(x *regex) *regex {
	switch x.kind {
	case reNone, reEps:
		return reEpsV
	case reStar:
		return x
	}
	return &regex{kind: reStar, subs: []*regex{x}, null: true, key: "*(" + x.key + ")"}
}

func mkNot(x *regex) *regex {
	if x.kind == reNot {
		return x.subs[0]
	}
	return &regex{kind: reNot, subs: []*regex{x}, null: !x.null, key: "!(" + x.key + ")"}
}

// mkLoop returns x repeated lo to hi times; hi < 0 means no upper bound.
// If lo > hi >= 0 the language is empty, as SMT-LIB defines re.loop.
func mkLoop(x *regex, lo, hi int) *regex {
	switch {
	case hi >= 0 && lo > hi:
		return reNoneV
	case hi == 0:
		return reEpsV
	case x.kind == reNone:
		if lo == 0 {
			return reEpsV
		}
		return reNoneV
	case x.kind == reEps:
		return reEpsV
	case lo == 0 && hi < 0:
		return mkStar(x)
	case lo == 1 && hi == 1:
		return x
	}
	return &regex{kind: reLoop, subs: []*regex{x}, lo: lo, hi: hi, null: lo == 0 || x.null,
		key: "L" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "(" + x.key + ")"}
}

// reMatcher computes derivatives, caching them for one evaluation.
type reMatcher struct {
	cache map[string]*regex
}

func (m *reMatcher) deriv(x *regex, c rune) *regex {
	switch x.kind {
	case reNone, reEps:
		return reNoneV
	case reSet:
		if setHas(x.set, c) {
			return reEpsV
		}
		return reNoneV
	}
	if m.cache == nil {
		m.cache = map[string]*regex{}
	}
	k := x.key + "\x00" + strconv.Itoa(int(c))
	if d, ok := m.cache[k]; ok {
		return d
	}
	var d *regex
	switch x.kind {
	case reCat:
		head, rest := x.subs[0], mkCat(x.subs[1:]...)
		d = mkCat(m.deriv(head, c), rest)
		if head.null {
			d = mkOr(d, m.deriv(rest, c))
		}
	case reOr:
		ds := make([]*regex, len(x.subs))
		for i, s := range x.subs {
			ds[i] = m.deriv(s, c)
		}
		d = mkOr(ds...)
	case reAnd:
		ds := make([]*regex, len(x.subs))
		for i, s := range x.subs {
			ds[i] = m.deriv(s, c)
		}
		d = mkAnd(ds...)
	case reStar:
		d = mkCat(m.deriv(x.subs[0], c), x)
	case reNot:
		d = mkNot(m.deriv(x.subs[0], c))
	case reLoop:
		hi := x.hi
		if hi > 0 {
			hi--
		}
		d = mkCat(m.deriv(x.subs[0], c), mkLoop(x.subs[0], max(x.lo-1, 0), hi))
	}
	m.cache[k] = d
	return d
}

// matches reports whether the internal string s is in the language of x.
func (m *reMatcher) matches(x *regex, s string) bool {
	for i := 0; i < len(s); {
		r, size := decodeRune(s[i:])
		i += size
		x = m.deriv(x, r)
		if x.kind == reNone {
			return false
		}
	}
	return x.null
}

// find returns the leftmost, and at that position the shortest, match of x
// in the characters rs starting at or after from, as character offsets
// [i, j); nonEmpty excludes empty matches. ok is false if there is none.
func (m *reMatcher) find(x *regex, rs []rune, from int, nonEmpty bool) (i, j int, ok bool) {
	for i = from; i <= len(rs); i++ {
		r := x
		if r.null && !nonEmpty {
			return i, i, true
		}
		for j = i; j < len(rs); j++ {
			r = m.deriv(r, rs[j])
			if r.kind == reNone {
				break
			}
			if r.null {
				return i, j + 1, true
			}
		}
	}
	return 0, 0, false
}
