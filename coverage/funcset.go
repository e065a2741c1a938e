package coverage

import (
	"iter"
	"math/bits"
	"sort"
	"strings"
)

// A FuncSet is a set of functions of one [Table], stored as a bitset over
// function indices. Binary operations take time proportional to the size of
// the table divided by 64 and never allocate when the receiver is large
// enough.
//
// Both operands of a binary operation must belong to the same table;
// mixing tables is a programming error and panics. The zero FuncSet is not
// usable; make sets with [NewFuncSet].
type FuncSet struct {
	table *Table
	words []uint64
}

// NewFuncSet returns an empty set of functions of t.
func NewFuncSet(t *Table) *FuncSet {
	return &FuncSet{table: t, words: make([]uint64, (t.Len()+63)/64)}
}

// Table returns the table the set belongs to.
func (s *FuncSet) Table() *Table { return s.table }

func (s *FuncSet) grow(n int) {
	if w := (n + 63) / 64; w > len(s.words) {
		s.words = append(s.words, make([]uint64, w-len(s.words))...)
	}
}

// Add adds function i.
func (s *FuncSet) Add(i int) {
	s.grow(i + 1)
	s.words[i/64] |= 1 << (i % 64)
}

// AddName adds the function of the given name, adding it to the table by
// name if it is not there. It returns the function's index.
func (s *FuncSet) AddName(name string) int {
	i := s.table.Add(Func{Name: name})
	s.Add(i)
	return i
}

// Remove removes function i.
func (s *FuncSet) Remove(i int) {
	if i/64 < len(s.words) {
		s.words[i/64] &^= 1 << (i % 64)
	}
}

// Has reports whether function i is in the set.
func (s *FuncSet) Has(i int) bool {
	return i >= 0 && i/64 < len(s.words) && s.words[i/64]&(1<<(i%64)) != 0
}

// HasName reports whether the function of the given name is in the set.
func (s *FuncSet) HasName(name string) bool {
	i, ok := s.table.Lookup(name)
	return ok && s.Has(i)
}

// Len returns the number of functions in the set.
func (s *FuncSet) Len() int {
	n := 0
	for _, w := range s.words {
		n += bits.OnesCount64(w)
	}
	return n
}

// All returns the indices of the functions in the set, in increasing order.
func (s *FuncSet) All() iter.Seq[int] {
	return func(yield func(int) bool) {
		for k, w := range s.words {
			for w != 0 {
				b := bits.TrailingZeros64(w)
				if !yield(k*64 + b) {
					return
				}
				w &^= 1 << b
			}
		}
	}
}

// Names returns the names of the functions in the set, sorted.
func (s *FuncSet) Names() []string {
	names := make([]string, 0, s.Len())
	for i := range s.All() {
		names = append(names, s.table.funcs[i].Name)
	}
	sort.Strings(names)
	return names
}

// String returns the sorted names in braces, separated by commas.
func (s *FuncSet) String() string {
	return "{" + strings.Join(s.Names(), ", ") + "}"
}

// Clone returns a copy of s.
func (s *FuncSet) Clone() *FuncSet {
	return &FuncSet{table: s.table, words: append([]uint64(nil), s.words...)}
}

// Clear removes all functions.
func (s *FuncSet) Clear() { clear(s.words) }

func (s *FuncSet) check(t *FuncSet) {
	if s.table != t.table {
		panic("coverage: FuncSets of different Tables")
	}
}

// UnionWith adds the functions of t to s.
func (s *FuncSet) UnionWith(t *FuncSet) {
	s.check(t)
	s.grow(len(t.words) * 64)
	for i, w := range t.words {
		s.words[i] |= w
	}
}

// IntersectWith removes from s the functions not in t.
func (s *FuncSet) IntersectWith(t *FuncSet) {
	s.check(t)
	for i := range s.words {
		if i < len(t.words) {
			s.words[i] &= t.words[i]
		} else {
			s.words[i] = 0
		}
	}
}

// DifferenceWith removes from s the functions in t.
func (s *FuncSet) DifferenceWith(t *FuncSet) {
	s.check(t)
	for i := range min(len(s.words), len(t.words)) {
		s.words[i] &^= t.words[i]
	}
}

// Union returns a new set holding the functions of s and t.
func (s *FuncSet) Union(t *FuncSet) *FuncSet {
	u := s.Clone()
	u.UnionWith(t)
	return u
}

// Intersect returns a new set holding the functions in both s and t.
func (s *FuncSet) Intersect(t *FuncSet) *FuncSet {
	u := s.Clone()
	u.IntersectWith(t)
	return u
}

// Difference returns a new set holding the functions of s not in t.
func (s *FuncSet) Difference(t *FuncSet) *FuncSet {
	u := s.Clone()
	u.DifferenceWith(t)
	return u
}

// Equal reports whether s and t hold the same functions.
func (s *FuncSet) Equal(t *FuncSet) bool {
	s.check(t)
	for i := range max(len(s.words), len(t.words)) {
		if word(s.words, i) != word(t.words, i) {
			return false
		}
	}
	return true
}

// SubsetOf reports whether every function of s is in t.
func (s *FuncSet) SubsetOf(t *FuncSet) bool {
	s.check(t)
	for i, w := range s.words {
		if w&^word(t.words, i) != 0 {
			return false
		}
	}
	return true
}

// Intersects reports whether s and t have a function in common.
func (s *FuncSet) Intersects(t *FuncSet) bool {
	s.check(t)
	for i := range min(len(s.words), len(t.words)) {
		if s.words[i]&t.words[i] != 0 {
			return true
		}
	}
	return false
}

func word(w []uint64, i int) uint64 {
	if i < len(w) {
		return w[i]
	}
	return 0
}
