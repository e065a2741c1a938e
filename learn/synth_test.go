package learn

import (
	"math/rand/v2"
	"slices"
)

// synthetic builds a dataset without a grammar: rows inputs, cols features,
// each input having about perRow random features, and funcs functions, each
// covered under a planted rule (a and not b) or c over three features that
// occur in about 30% of the inputs. It returns the dataset and the planted
// features of every function.
func synthetic(seed uint64, rows, cols, perRow, funcs int) (*Dataset, [][3]int32) {
	rng := rand.New(rand.NewPCG(seed, 1))
	planted := make([][3]int32, funcs)
	hot := map[int32]bool{}
	for f := range planted {
		for i := range 3 {
			c := int32(rng.IntN(cols))
			planted[f][i] = c
			hot[c] = true
		}
	}
	ds := &Dataset{m: matrix{rows: rows, ncols: cols, start: []int32{0}}}
	for c := range cols {
		ds.Features = append(ds.Features, c)
	}
	present := make([]bool, cols)
	var row []int32
	for range rows {
		row = row[:0]
		clear(present)
		for range perRow {
			c := int32(rng.IntN(cols))
			if !present[c] {
				present[c] = true
				row = append(row, c)
			}
		}
		for c := range hot {
			if !present[c] && rng.IntN(10) < 3 {
				present[c] = true
				row = append(row, c)
			}
		}
		slices.Sort(row)
		ds.m.cols = append(ds.m.cols, row...)
		ds.m.start = append(ds.m.start, int32(len(ds.m.cols)))
	}
	for f, p := range planted {
		b := newBitset(rows)
		for r := range rows {
			if (ds.m.has(r, p[0]) && !ds.m.has(r, p[1])) || ds.m.has(r, p[2]) {
				b.add(r)
			}
		}
		ds.Funcs = append(ds.Funcs, "f"+string(rune('A'+f%26))+string(rune('0'+f/26%10))+string(rune('0'+f/260)))
		ds.labels = append(ds.labels, b)
	}
	return ds, planted
}
