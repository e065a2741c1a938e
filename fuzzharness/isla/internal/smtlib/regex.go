package smtlib

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

type RegexKind uint8

const (
	ReNone RegexKind = iota // the empty language
	ReEps                   // the empty word only
	ReSet                   // one character of a set
	ReCat                   // concatenation of subs
	ReOr                    // union of subs
	ReAnd                   // intersection of subs
	ReStar                  // subs[0]*
	ReNot                   // complement of subs[0]
	ReLoop                  // subs[0] repeated lo to hi times (hi < 0: unbounded)
)

type Regex struct {
	Kind     RegexKind
	Set      []Range
	Subs     []*Regex
	Lo, Hi   int
	Nullable bool   // the empty word is in the language
	Key      string // canonical text, equal for equal expressions
}

// Range is an inclusive range of characters.
type Range struct{ Lo, Hi rune }

var (
	NoneRegex = &Regex{Kind: ReNone, Key: "0"}
	EpsRegex  = &Regex{Kind: ReEps, Nullable: true, Key: "e"}
	AllChar   = CharSet([]Range{{0, MaxCodePoint}})
	AllRegex  = Star(AllChar)
)

func setKey(set []Range) string {
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range set {
		b.WriteString(strconv.Itoa(int(r.Lo)))
		if r.Hi != r.Lo {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(int(r.Hi)))
		}
		b.WriteByte(',')
	}
	b.WriteByte(']')
	return b.String()
}

func subsKey(op string, subs []*Regex) string {
	n := len(op) + 1 + len(subs)
	for _, s := range subs {
		n += len(s.Key)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(op)
	b.WriteByte('(')
	for i, s := range subs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.Key)
	}
	b.WriteByte(')')
	return b.String()
}

// normSet sorts and merges ranges, clipped to the characters of SMT-LIB.
func normSet(rs []Range) []Range {
	var out []Range
	for _, r := range rs {
		if r.Lo < 0 {
			r.Lo = 0
		}
		if r.Hi > MaxCodePoint {
			r.Hi = MaxCodePoint
		}
		if r.Lo <= r.Hi {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Lo < out[j].Lo })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r.Lo <= merged[n-1].Hi+1 {
			merged[n-1].Hi = max(merged[n-1].Hi, r.Hi)
			continue
		}
		merged = append(merged, r)
	}
	return merged
}

func CharSet(rs []Range) *Regex {
	rs = normSet(rs)
	if len(rs) == 0 {
		return NoneRegex
	}
	return &Regex{Kind: ReSet, Set: rs, Key: setKey(rs)}
}

func setHas(set []Range, c rune) bool {
	i := sort.Search(len(set), func(i int) bool { return set[i].Hi >= c })
	return i < len(set) && set[i].Lo <= c
}

func interSets(a, b []Range) []Range {
	var out []Range
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].Lo, b[j].Lo), min(a[i].Hi, b[j].Hi)
		if lo <= hi {
			out = append(out, Range{lo, hi})
		}
		if a[i].Hi < b[j].Hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// Literal returns the regex of exactly the internal string s.
func Literal(s string) *Regex {
	rs := Runes(s)
	if len(rs) == 0 {
		return EpsRegex
	}
	parts := make([]*Regex, len(rs))
	for i, r := range rs {
		parts[i] = CharSet([]Range{{r, r}})
	}
	return Concat(parts...)
}

func Concat(xs ...*Regex) *Regex {
	n := 0
	for _, x := range xs {
		switch x.Kind {
		case ReNone:
			return NoneRegex
		case ReCat:
			n += len(x.Subs)
		case ReEps:
		default:
			n++
		}
	}
	if n == 1 {
		for _, x := range xs {
			if x.Kind != ReEps {
				return x
			}
		}
	}
	subs := make([]*Regex, 0, n)
	for _, x := range xs {
		switch x.Kind {
		case ReNone:
			return NoneRegex
		case ReEps:
			continue
		case ReCat:
			subs = append(subs, x.Subs...)
		default:
			subs = append(subs, x)
		}
	}
	switch len(subs) {
	case 0:
		return EpsRegex
	case 1:
		return subs[0]
	}
	null := true
	for _, s := range subs {
		null = null && s.Nullable
	}
	return &Regex{Kind: ReCat, Subs: subs, Nullable: null, Key: subsKey("cat", subs)}
}

// Union returns the union of xs.
func Union(xs ...*Regex) *Regex {
	var subs []*Regex
	var sets []Range
	haveSet := false
	var add func(x *Regex) bool
	add = func(x *Regex) bool {
		switch {
		case x.Kind == ReNone:
		case x.Key == AllRegex.Key:
			return false
		case x.Kind == ReOr:
			for _, s := range x.Subs {
				if !add(s) {
					return false
				}
			}
		case x.Kind == ReSet:
			sets = append(sets, x.Set...)
			haveSet = true
		default:
			subs = append(subs, x)
		}
		return true
	}
	for _, x := range xs {
		if !add(x) {
			return AllRegex
		}
	}
	if haveSet {
		subs = append(subs, CharSet(sets))
	}
	subs = sortUnique(subs)
	switch len(subs) {
	case 0:
		return NoneRegex
	case 1:
		return subs[0]
	}
	null := false
	for _, s := range subs {
		null = null || s.Nullable
	}
	return &Regex{Kind: ReOr, Subs: subs, Nullable: null, Key: subsKey("or", subs)}
}

// Inter returns the intersection of xs.
func Inter(xs ...*Regex) *Regex {
	var subs []*Regex
	var set []Range
	haveSet := false
	var add func(x *Regex) bool
	add = func(x *Regex) bool {
		switch {
		case x.Kind == ReNone:
			return false
		case x.Key == AllRegex.Key:
		case x.Kind == ReAnd:
			for _, s := range x.Subs {
				if !add(s) {
					return false
				}
			}
		case x.Kind == ReSet:
			if haveSet {
				set = interSets(set, x.Set)
			} else {
				set = x.Set
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
			return NoneRegex
		}
	}
	if haveSet {
		subs = append(subs, CharSet(set))
	}
	subs = sortUnique(subs)
	switch len(subs) {
	case 0:
		return AllRegex
	case 1:
		return subs[0]
	}
	null := true
	for _, s := range subs {
		null = null && s.Nullable
	}
	return &Regex{Kind: ReAnd, Subs: subs, Nullable: null, Key: subsKey("and", subs)}
}

func sortUnique(xs []*Regex) []*Regex {
	sort.Slice(xs, func(i, j int) bool { return xs[i].Key < xs[j].Key })
	out := xs[:0]
	for i, x := range xs {
		if i > 0 && x.Key == xs[i-1].Key {
			continue
		}
		out = append(out, x)
	}
	return out
}

func Star(x *Regex) *Regex {
	switch x.Kind {
	case ReNone, ReEps:
		return EpsRegex
	case ReStar:
		return x
	}
	return &Regex{Kind: ReStar, Subs: []*Regex{x}, Nullable: true, Key: "*(" + x.Key + ")"}
}

func Complement(x *Regex) *Regex {
	if x.Kind == ReNot {
		return x.Subs[0]
	}
	return &Regex{Kind: ReNot, Subs: []*Regex{x}, Nullable: !x.Nullable, Key: "!(" + x.Key + ")"}
}

// Loop returns x repeated lo to hi times; hi < 0 means no upper bound.
// If lo > hi >= 0 the language is empty, as SMT-LIB defines re.loop.
func Loop(x *Regex, lo, hi int) *Regex {
	switch {
	case hi >= 0 && lo > hi:
		return NoneRegex
	case hi == 0:
		return EpsRegex
	case x.Kind == ReNone:
		if lo == 0 {
			return EpsRegex
		}
		return NoneRegex
	case x.Kind == ReEps:
		return EpsRegex
	case lo == 0 && hi < 0:
		return Star(x)
	case lo == 1 && hi == 1:
		return x
	}
	return &Regex{Kind: ReLoop, Subs: []*Regex{x}, Lo: lo, Hi: hi, Nullable: lo == 0 || x.Nullable,
		Key: "L" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "(" + x.Key + ")"}
}

// Matcher computes derivatives, caching them (a matcher kept from one
// evaluation to the next computes a derivative once). The
// cache is keyed by regex pointer and character; every regex the matcher
// derives from or returns is interned by its Key, so that equal
// expressions built apart share their cached derivatives and the
// derivatives it returns are the interned ones, whose own derivatives are
// then found by pointer.
type Matcher struct {
	cache map[derivKey]*Regex
	canon map[string]*Regex // interned regexes by Key
}

type derivKey struct {
	x *Regex
	c rune
}

// Len returns the number of derivatives m holds.
func (m *Matcher) Len() int { return len(m.cache) }

// intern returns the regex with x's Key that m saw first, x if none.
func (m *Matcher) intern(x *Regex) *Regex {
	if y, ok := m.canon[x.Key]; ok {
		return y
	}
	m.canon[x.Key] = x
	return x
}

// Deriv returns the derivative of x by the character c.
func (m *Matcher) Deriv(x *Regex, c rune) *Regex {
	switch x.Kind {
	case ReNone, ReEps:
		return NoneRegex
	case ReSet:
		if setHas(x.Set, c) {
			return EpsRegex
		}
		return NoneRegex
	}
	if m.cache == nil {
		m.cache = map[derivKey]*Regex{}
		m.canon = map[string]*Regex{}
	}
	if d, ok := m.cache[derivKey{x, c}]; ok {
		return d
	}
	// Only interned regexes key the cache: x built apart from an equal,
	// interned regex uses that one's entry and adds none of its own.
	x = m.intern(x)
	k := derivKey{x, c}
	if d, ok := m.cache[k]; ok {
		return d
	}
	var d *Regex
	switch x.Kind {
	case ReCat:
		head, rest := x.Subs[0], Concat(x.Subs[1:]...)
		d = Concat(m.Deriv(head, c), rest)
		if head.Nullable {
			d = Union(d, m.Deriv(rest, c))
		}
	case ReOr:
		ds := make([]*Regex, len(x.Subs))
		for i, s := range x.Subs {
			ds[i] = m.Deriv(s, c)
		}
		d = Union(ds...)
	case ReAnd:
		ds := make([]*Regex, len(x.Subs))
		for i, s := range x.Subs {
			ds[i] = m.Deriv(s, c)
		}
		d = Inter(ds...)
	case ReStar:
		d = Concat(m.Deriv(x.Subs[0], c), x)
	case ReNot:
		d = Complement(m.Deriv(x.Subs[0], c))
	case ReLoop:
		hi := x.Hi
		if hi > 0 {
			hi--
		}
		d = Concat(m.Deriv(x.Subs[0], c), Loop(x.Subs[0], max(x.Lo-1, 0), hi))
	}
	d = m.intern(d)
	m.cache[k] = d
	return d
}

// Matches reports whether the internal string s is in the language of x.
func (m *Matcher) Matches(x *Regex, s string) bool {
	for i := 0; i < len(s); {
		r, size := DecodeRune(s[i:])
		i += size
		x = m.Deriv(x, r)
		if x.Kind == ReNone {
			return false
		}
	}
	return x.Nullable
}

// Find returns the leftmost, and at that position the shortest, match of x
// in the characters rs starting at or after from, as character offsets
// [i, j); nonEmpty excludes empty matches. ok is false if there is none.
func (m *Matcher) Find(x *Regex, rs []rune, from int, nonEmpty bool) (i, j int, ok bool) {
	for i = from; i <= len(rs); i++ {
		r := x
		if r.Nullable && !nonEmpty {
			return i, i, true
		}
		for j = i; j < len(rs); j++ {
			r = m.Deriv(r, rs[j])
			if r.Kind == ReNone {
				break
			}
			if r.Nullable {
				return i, j + 1, true
			}
		}
	}
	return 0, 0, false
}
