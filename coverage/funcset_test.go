package coverage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

func namedTable(n int) *Table {
	t := NewTable()
	for i := range n {
		t.Add(Func{Name: fmt.Sprintf("example.com/p.F%03d", i)})
	}
	return t
}

// model is a map-based set to check FuncSet against.
type model map[int]bool

func (m model) sorted() []int {
	var s []int
	for k := range m {
		s = append(s, k)
	}
	sort.Ints(s)
	return s
}

func setOf(t *Table, m model) *FuncSet {
	s := NewFuncSet(t)
	for k := range m {
		s.Add(k)
	}
	return s
}

func TestFuncSetAgainstModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 63, 64, 65, 200} {
		table := namedTable(n)
		for range 50 {
			a, b := model{}, model{}
			for range rng.IntN(2*n + 1) {
				if n > 0 {
					a[rng.IntN(n)] = true
					b[rng.IntN(n)] = true
				}
			}
			sa, sb := setOf(table, a), setOf(table, b)
			union, inter, diff := model{}, model{}, model{}
			for k := range a {
				union[k] = true
				if b[k] {
					inter[k] = true
				} else {
					diff[k] = true
				}
			}
			for k := range b {
				union[k] = true
			}
			check := func(what string, s *FuncSet, m model) {
				t.Helper()
				got := slices.Collect(s.All())
				if fmt.Sprint(got) != fmt.Sprint(m.sorted()) || s.Len() != len(m) {
					t.Fatalf("n=%d %s: %v (len %d), want %v", n, what, got, s.Len(), m.sorted())
				}
				for i := range n {
					if s.Has(i) != m[i] {
						t.Fatalf("%s: Has(%d) = %v", what, i, s.Has(i))
					}
				}
			}
			check("a", sa, a)
			check("union", sa.Union(sb), union)
			check("intersect", sa.Intersect(sb), inter)
			check("difference", sa.Difference(sb), diff)
			check("a unchanged", sa, a)
			if sa.Intersects(sb) != (len(inter) > 0) {
				t.Fatalf("Intersects = %v with intersection %v", sa.Intersects(sb), inter.sorted())
			}
			if sa.SubsetOf(sb) != (len(diff) == 0) {
				t.Fatalf("SubsetOf = %v with difference %v", sa.SubsetOf(sb), diff.sorted())
			}
			if !sa.Union(sb).Equal(sb.Union(sa)) || sa.Equal(sb) != (len(diff) == 0 && sa.Len() == sb.Len()) {
				t.Fatal("Equal")
			}
		}
	}
}

func TestFuncSetNamesAndGrowth(t *testing.T) {
	table := namedTable(3)
	s := NewFuncSet(table)
	s.Add(2)
	// Functions added to the table later can join old sets.
	i := s.AddName("example.com/q.New")
	if i != 3 || table.Len() != 4 || !s.HasName("example.com/q.New") || !s.Has(3) {
		t.Fatalf("AddName = %d; table has %d functions; set %v", i, table.Len(), s)
	}
	old := NewFuncSet(table)
	old.Add(0)
	for k := 4; k < 130; k++ {
		s.AddName(fmt.Sprintf("example.com/q.G%d", k))
	}
	old.UnionWith(s) // old is shorter than s
	if old.Len() != s.Len()+1 || !old.SubsetOf(old) || s.SubsetOf(NewFuncSet(table)) {
		t.Errorf("old %d, s %d", old.Len(), s.Len())
	}
	if got := fmt.Sprint(NewFuncSet(table).Union(s).Names()[:2]); got != "[example.com/p.F002 example.com/q.G10]" {
		t.Errorf("Names = %s", got)
	}
	s.Remove(2)
	s.Remove(1000)
	if s.Has(2) || s.Has(-1) || s.Has(1000) || s.HasName("nope") {
		t.Error("Has after Remove")
	}
	c := s.Clone()
	c.Clear()
	if c.Len() != 0 || s.Len() == 0 {
		t.Error("Clear changed the original or left functions")
	}
	small := NewFuncSet(namedTable(2))
	small.Add(0)
	small.Add(1)
	if small.String() != "{example.com/p.F000, example.com/p.F001}" {
		t.Errorf("String = %s", small)
	}
}

func TestFuncSetTablesMustMatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for sets of different tables")
		}
	}()
	NewFuncSet(namedTable(1)).UnionWith(NewFuncSet(namedTable(1)))
}

func BenchmarkFuncSetUnion(b *testing.B) {
	table := namedTable(5000)
	x, y := NewFuncSet(table), NewFuncSet(table)
	for i := 0; i < 5000; i += 3 {
		x.Add(i)
		y.Add(i / 2)
	}
	b.ReportAllocs()
	for b.Loop() {
		x.UnionWith(y)
		x.DifferenceWith(y)
	}
}
