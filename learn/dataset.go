package learn

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// DefaultFeatureK is the longest k-path used as a feature unless the caller chooses
// otherwise: CODEINE uses all l-paths for l <= 4.
const DefaultFeatureK = 4

// A Sample is one observed input: the l-paths present in its derivation tree
// (or in its whole parse forest) and the functions it covered.
type Sample struct {
	// Paths holds the paths of every length 1..K the input contains, as
	// PathTable.Paths or the parser's forest paths return them.
	Paths grammar.PathSet
	// Covered names the functions the input covered, such as
	// "example.com/calc.(*Parser).parseTerm". Order and duplicates do not
	// matter.
	Covered []string
	// Shape is the shape of one derivation of the input (NewShape), for
	// root and count features; nil for k-path features only. Either every
	// sample of a Dataset has one or none has.
	Shape *Shape
}

// NewSample returns the sample of a derivation tree that covered the given
// functions. For root and count features, set its Shape to NewShape(t).
func NewSample(pt *grammar.PathTable, t *grammar.Tree, covered []string) Sample {
	return Sample{Paths: pt.Paths(t), Covered: covered}
}

// kind returns the kind of feature column c.
func (ds *Dataset) kind(c int32) FeatureKinds {
	if len(ds.Extra) == 0 {
		return KPathFeatures
	}
	if id := ds.Features[c]; id >= ds.Table.Len() {
		return ds.Extra[id-ds.Table.Len()].Kind
	}
	return KPathFeatures
}

// A Dataset is the training matrix of CODEINE: one row per input, one binary
// feature per l-path (l <= K) that some but not all inputs contain, and one
// label per function that some but not all inputs covered. Features and
// labels are stored sparsely. Build one with NewDataset; it is immutable.
type Dataset struct {
	// Table interns the paths the features stand for.
	Table *grammar.PathTable
	// Features holds the path ID of each feature, in increasing order.
	// Paths present in every input or in none are not features. IDs from
	// Table.Len() on stand for Extra[id-Table.Len()].
	Features []int
	// Extra holds the root and count features (see Feature) that some but
	// not all inputs have, if the samples have shapes.
	Extra []Feature
	// Funcs holds the functions to learn, sorted: those covered by some but
	// not all inputs.
	Funcs []string
	// Always holds the functions every input covered and Never those no
	// input covered (of the functions named to NewDataset), sorted. Neither
	// can be learned; a Model predicts them as constants.
	Always, Never []string

	m      matrix
	labels []bitset // labels[f]: the rows that covered Funcs[f]
}

// matrix is a sparse binary matrix in compressed-row form: the columns set in
// row r are cols[start[r]:start[r+1]], increasing.
type matrix struct {
	rows, ncols int
	start       []int32
	cols        []int32
}

func (m *matrix) row(r int) []int32 { return m.cols[m.start[r]:m.start[r+1]] }

// has reports whether row r has column c.
func (m *matrix) has(r int, c int32) bool {
	_, ok := slices.BinarySearch(m.row(r), c)
	return ok
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) add(i int)      { b[i>>6] |= 1 << (i & 63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }
func (b bitset) count() (n int) {
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// NewDataset builds the training data from samples whose path sets belong to
// pt. funcs optionally names every function of the program, so that those no
// sample covered are recorded in Never; functions that samples name are
// included either way.
//
// As CODEINE does, it drops the paths every sample or no sample contains and
// the functions every sample or no sample covered. It fails if there are no
// samples or a path set does not belong to pt.
func NewDataset(pt *grammar.PathTable, samples []Sample, funcs []string) (*Dataset, error) {
	if pt == nil {
		return nil, fmt.Errorf("learn: no path table")
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("learn: no samples")
	}
	words := (pt.Len() + 63) / 64
	for i, s := range samples {
		if len(s.Paths) != words {
			return nil, fmt.Errorf("learn: sample %d has a path set of %d words; the table of %d-paths needs %d", i, len(s.Paths), pt.K, words)
		}
	}
	ds := &Dataset{Table: pt}
	shapes := 0
	for _, s := range samples {
		if s.Shape != nil {
			shapes++
		}
	}
	if shapes != 0 && shapes != len(samples) {
		return nil, fmt.Errorf("learn: %d of %d samples have a shape; either all or none must", shapes, len(samples))
	}
	var extraCol []int32
	if shapes > 0 {
		all := make([]*Shape, len(samples))
		for i, s := range samples {
			all[i] = s.Shape
		}
		ds.Extra = extraFeatures(all)
	}

	// Features: paths in some but not all samples.
	count := make([]int32, pt.Len())
	for _, s := range samples {
		for w, word := range s.Paths {
			for ; word != 0; word &= word - 1 {
				count[w*64+bits.TrailingZeros64(word)]++
			}
		}
	}
	col := make([]int32, pt.Len()) // path ID -> feature index, or -1
	for id, c := range count {
		col[id] = -1
		if c > 0 && int(c) < len(samples) {
			col[id] = int32(len(ds.Features))
			ds.Features = append(ds.Features, id)
		}
	}
	for i := range ds.Extra {
		extraCol = append(extraCol, int32(len(ds.Features)))
		ds.Features = append(ds.Features, pt.Len()+i)
	}
	ds.m = matrix{rows: len(samples), ncols: len(ds.Features), start: make([]int32, 1, len(samples)+1)}
	for _, s := range samples {
		for w, word := range s.Paths {
			for ; word != 0; word &= word - 1 {
				if c := col[w*64+bits.TrailingZeros64(word)]; c >= 0 {
					ds.m.cols = append(ds.m.cols, c)
				}
			}
		}
		for i := range ds.Extra {
			if ds.Extra[i].Holds(s.Shape) {
				ds.m.cols = append(ds.m.cols, extraCol[i])
			}
		}
		ds.m.start = append(ds.m.start, int32(len(ds.m.cols)))
	}

	// Labels.
	covered := map[string]bitset{}
	for _, name := range funcs {
		if covered[name] == nil {
			covered[name] = newBitset(len(samples))
		}
	}
	for r, s := range samples {
		for _, name := range s.Covered {
			b := covered[name]
			if b == nil {
				b = newBitset(len(samples))
				covered[name] = b
			}
			b.add(r)
		}
	}
	names := make([]string, 0, len(covered))
	for name := range covered {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		b := covered[name]
		switch b.count() {
		case 0:
			ds.Never = append(ds.Never, name)
		case len(samples):
			ds.Always = append(ds.Always, name)
		default:
			ds.Funcs = append(ds.Funcs, name)
			ds.labels = append(ds.labels, b)
		}
	}
	return ds, nil
}

// Len returns the number of inputs (rows).
func (ds *Dataset) Len() int { return ds.m.rows }

// Row returns the feature indexes set for input i, increasing. The caller
// must not modify it.
func (ds *Dataset) Row(i int) []int32 { return ds.m.row(i) }

// Covers reports whether input i covered function f (an index into Funcs).
func (ds *Dataset) Covers(i, f int) bool { return ds.labels[f].has(i) }

// Positives returns how many inputs covered function f (an index into Funcs).
func (ds *Dataset) Positives(f int) int { return ds.labels[f].count() }

// NonZeros returns the number of (input, feature) pairs set: the size of the
// sparse matrix.
func (ds *Dataset) NonZeros() int { return len(ds.m.cols) }
