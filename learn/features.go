package learn

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// FeatureKinds selects the kinds of features the trees may test, as a set of
// bits.
type FeatureKinds uint8

// The kinds of features.
const (
	// KPathFeatures are CODEINE's: the presence of an l-path (l <= K)
	// anywhere in the input's derivation.
	KPathFeatures FeatureKinds = 1 << iota
	// RootFeatures are positional: the presence of a path that starts at
	// the root of the derivation tree, of up to DefaultRootDepth symbols,
	// such as "the top-level value is an object".
	RootFeatures
	// CountFeatures are numeric, as Alhazen's: the number of occurrences
	// of a nonterminal, at least a threshold the data suggests
	// ("count(<member>) >= 3").
	CountFeatures

	// AllFeatures is every kind.
	AllFeatures = KPathFeatures | RootFeatures | CountFeatures
	// DefaultFeatures is the kinds used when Config.Features is zero.
	DefaultFeatures = KPathFeatures
)

var featureKindNames = []struct {
	kind FeatureKinds
	name string
}{{KPathFeatures, "kpath"}, {RootFeatures, "root"}, {CountFeatures, "count"}}

// String returns the kinds as ParseFeatureKinds reads them, such as
// "kpath,count".
func (k FeatureKinds) String() string {
	var names []string
	for _, n := range featureKindNames {
		if k&n.kind != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// ParseFeatureKinds reads a comma-separated list of kinds: kpath, root,
// count, or all.
func ParseFeatureKinds(s string) (FeatureKinds, error) {
	var k FeatureKinds
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "all" {
			k |= AllFeatures
			continue
		}
		i := slices.IndexFunc(featureKindNames, func(n struct {
			kind FeatureKinds
			name string
		}) bool {
			return n.name == name
		})
		if i < 0 {
			return 0, fmt.Errorf("unknown feature kind %q (have kpath, root, count, all)", name)
		}
		k |= featureKindNames[i].kind
	}
	return k, nil
}

// DefaultRootDepth is the most symbols of a root feature's path.
const DefaultRootDepth = 8

// maxThresholds bounds the count features of one nonterminal.
const maxThresholds = 6

// A Shape is what an input's derivation tree shows beyond its k-paths: the
// paths from its root and the number of occurrences of every nonterminal.
// Make one with NewShape.
type Shape struct {
	// Root holds the distinct paths of symbolic nodes that start at the
	// root, of 1 to DefaultRootDepth symbols, as PathKey strings.
	Root map[string]bool
	// Counts holds the number of references to each nonterminal.
	Counts map[string]int
}

// NewShape returns the shape of a derivation tree.
func NewShape(t *grammar.Tree) *Shape {
	s := &Shape{Root: map[string]bool{}, Counts: map[string]int{}}
	var walk func(u *grammar.Tree, path grammar.KPath)
	walk = func(u *grammar.Tree, path grammar.KPath) {
		if u.Node.Kind == grammar.KindRef {
			s.Counts[u.Node.Name]++
		}
		if u.Node.Symbolic() && len(path) < DefaultRootDepth {
			path = append(path[:len(path):len(path)], int32(u.Node.Sym))
			s.Root[pathKey(path)] = true
		}
		for _, c := range u.Children {
			walk(c, path)
		}
	}
	walk(t, nil)
	return s
}

// pathKey returns a map key of a path.
func pathKey(p grammar.KPath) string {
	b := make([]byte, 0, 4*len(p))
	for i, s := range p {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	return string(b)
}

// A Feature is a feature other than a k-path: a path from the root
// (RootFeatures) or a least number of occurrences of a nonterminal
// (CountFeatures).
type Feature struct {
	Kind FeatureKinds
	// Path is the root feature's path, from the root symbol.
	Path grammar.KPath
	// Name and Min are the count feature's nonterminal and threshold: the
	// input has at least Min references to Name.
	Name string
	Min  int
}

// Holds reports whether an input of shape s has the feature.
func (f *Feature) Holds(s *Shape) bool {
	switch f.Kind {
	case RootFeatures:
		return s.Root[pathKey(f.Path)]
	case CountFeatures:
		return s.Counts[f.Name] >= f.Min
	}
	return false
}

// Format returns the feature as text: "root: <start> -> <json>" or
// "count(<member>) >= 3".
func (f *Feature) Format(gr *grammar.Graph) string {
	if f.Kind == CountFeatures {
		return fmt.Sprintf("count(<%s>) >= %d", f.Name, f.Min)
	}
	return "root: " + PathLabel(gr, f.Path)
}

// extraFeatures returns the root and count features that some but not all
// shapes have, in a fixed order: root paths by key, then counts by
// nonterminal and threshold. A nonterminal's thresholds are the distinct
// counts seen (at most maxThresholds of them, spread over the range).
func extraFeatures(shapes []*Shape) []Feature {
	n := len(shapes)
	roots := map[string]int{}
	paths := map[string]grammar.KPath{}
	counts := map[string][]int{}
	for _, s := range shapes {
		for k := range s.Root {
			roots[k]++
		}
		for name := range s.Counts {
			counts[name] = nil
		}
	}
	var out []Feature
	for _, k := range slicesSortedKeys(roots) {
		if roots[k] == n {
			continue
		}
		p, err := parseKey(k)
		if err != nil {
			continue
		}
		paths[k] = p
		out = append(out, Feature{Kind: RootFeatures, Path: p})
	}
	for _, name := range slicesSortedKeys(counts) {
		var vals []int
		for _, s := range shapes {
			vals = append(vals, s.Counts[name])
		}
		slices.Sort(vals)
		distinct := slices.Compact(slices.Clone(vals))
		// A threshold t splits the shapes when some have fewer and some
		// at least t: every distinct value but the least.
		cand := distinct[1:]
		if len(cand) > maxThresholds {
			picked := make([]int, 0, maxThresholds)
			for i := range maxThresholds {
				picked = append(picked, cand[i*(len(cand)-1)/(maxThresholds-1)])
			}
			cand = slices.Compact(picked)
		}
		for _, t := range cand {
			out = append(out, Feature{Kind: CountFeatures, Name: name, Min: t})
		}
	}
	return out
}

func slicesSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// parseKey reads a pathKey back.
func parseKey(k string) (grammar.KPath, error) {
	var p grammar.KPath
	for _, f := range strings.Fields(k) {
		x, err := strconv.ParseInt(f, 10, 32)
		if err != nil {
			return nil, err
		}
		p = append(p, int32(x))
	}
	return p, nil
}

// Extend returns the path set ps of an input extended by the model's root
// and count features that the input's shape has, as Predict, Select and
// Rule.Satisfied expect for a model with such features (len(m.Extra) > 0).
// For a model without them it returns ps. s may be nil only then.
func (m *Model) Extend(ps grammar.PathSet, s *Shape) (grammar.PathSet, error) {
	return extendSet(m.Table, m.Extra, ps, s)
}

// extendSet returns ps with the bits of the extra features that s has, at
// IDs pt.Len()+i.
func extendSet(pt *grammar.PathTable, extra []Feature, ps grammar.PathSet, s *Shape) (grammar.PathSet, error) {
	if len(extra) == 0 {
		return ps, nil
	}
	if s == nil {
		return nil, fmt.Errorf("learn: the model has root or count features, and the input has no shape")
	}
	words := (pt.Len() + 63) / 64
	if len(ps) != words {
		return nil, fmt.Errorf("learn: a path set of %d words does not belong to the table of %d-paths (%d words)", len(ps), pt.K, words)
	}
	out := make(grammar.PathSet, (pt.Len()+len(extra)+63)/64)
	copy(out, ps)
	for i := range extra {
		if extra[i].Holds(s) {
			out.Add(pt.Len() + i)
		}
	}
	return out, nil
}

// InputFeatures parses input with p and returns its paths (those of every
// derivation, as InputPaths does) extended by the model's root and count
// features, taken from one derivation (Forest.Tree).
func (m *Model) InputFeatures(p *grammar.Parser, input []byte) (grammar.PathSet, error) {
	ps, t, err := ParseInput(m.Table, p, input)
	if err != nil {
		return nil, err
	}
	return m.Extend(ps, NewShape(t))
}

// ParseInput parses input with p and returns the paths of length 1..K of
// all its derivations (as InputPaths) and one derivation tree.
func ParseInput(pt *grammar.PathTable, p *grammar.Parser, input []byte) (grammar.PathSet, *grammar.Tree, error) {
	if p.Graph() != pt.Graph {
		return nil, nil, fmt.Errorf("learn: the parser is for another grammar graph than the path table")
	}
	if p.Start() != pt.Graph.Root {
		return nil, nil, fmt.Errorf("learn: the parser starts at %s, not at the graph's root %s", p.Start(), pt.Graph.Root)
	}
	f, err := p.Parse(input)
	if err != nil {
		return nil, nil, err
	}
	return pt.ForestPaths(f), f.Tree(), nil
}
