package learn

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// The model file format: a JSON object written by Model.Save and read by
// Load. Version changes whenever the format changes incompatibly: a model
// whose trees test root or count features is written as version 2 (an
// older program must not read its root paths as k-paths), any other as
// version 1. Load reads both.
const (
	ModelFormat  = "kfuzz-learn-model"
	ModelVersion = 2
)

// Fingerprint identifies a grammar graph for model files: the SHA-256 of the
// grammar in the notation (Grammar.String), the start nonterminal of the
// graph and its node identity, as "sha256:" and hex digits. Graphs with the
// same fingerprint have the same symbols, so paths mean the same in both.
func Fingerprint(gr *grammar.Graph) string {
	h := sha256.New()
	io.WriteString(h, gr.Grammar.String())
	fmt.Fprintf(h, "\x00start=%s\x00identity=%d", gr.Root.Rule, gr.Identity)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func identityName(id grammar.Identity) string {
	switch id {
	case grammar.ByOccurrence:
		return "occurrence"
	case grammar.ByNonterminal:
		return "nonterminal"
	}
	return fmt.Sprintf("identity-%d", id)
}

// maxModelK bounds the k of a model file: building the path table takes time
// quadratic in k even for small grammars.
const maxModelK = 32

type modelJSON struct {
	Format   string        `json:"format"`
	Version  int           `json:"version"`
	Grammar  string        `json:"grammar"`
	Start    string        `json:"start"`
	Identity string        `json:"identity"`
	K        int           `json:"k"`
	Config   configJSON    `json:"config"`
	Features []featureJSON `json:"features"`
	Funcs    []funcJSON    `json:"functions"`
	Always   []string      `json:"always"`
	Never    []string      `json:"never"`
}

type configJSON struct {
	MaxDepth int     `json:"max_depth"`
	MinLeaf  int     `json:"min_leaf"`
	RuleGini float64 `json:"rule_gini"`
	Balance  bool    `json:"balance"`
	Seed     uint64  `json:"seed"`
	Features string  `json:"features,omitempty"`
}

type featureJSON struct {
	Kind    string  `json:"kind,omitempty"` // "" (a k-path), "root" or "count"
	Name    string  `json:"name,omitempty"` // count: the nonterminal
	Min     int     `json:"min,omitempty"`  // count: the threshold
	Path    []int32 `json:"path"`
	Label   string  `json:"label"`
	Pattern string  `json:"pattern,omitempty"`
}

type funcJSON struct {
	Name string     `json:"name"`
	Pos  int        `json:"covered"`
	Neg  int        `json:"not_covered"`
	Tree []nodeJSON `json:"tree"`
}

type nodeJSON struct {
	Feature int `json:"feature"`
	Yes     int `json:"yes,omitempty"`
	No      int `json:"no,omitempty"`
	Pos     int `json:"pos"`
	Neg     int `json:"neg"`
}

// Save writes the model as JSON: the format name and version, the grammar's
// fingerprint, start symbol, identity and k, the configuration, the features
// the trees test (each path as symbol IDs with a readable label and its
// pattern), one tree per learned function, and the functions always and never
// covered. Load reads it back into a model that makes the same predictions.
func (m *Model) Save(w io.Writer) error {
	gr := m.Table.Graph
	// Keep only the features some tree tests, renumbered in order.
	used := make([]bool, len(m.Features))
	for _, fn := range m.Funcs {
		for _, n := range fn.Tree {
			if !n.Leaf() {
				used[n.Feature] = true
			}
		}
	}
	renum := make([]int, len(m.Features))
	f := modelJSON{
		Format:   ModelFormat,
		Version:  1,
		Grammar:  Fingerprint(gr),
		Start:    gr.Root.Rule,
		Identity: identityName(gr.Identity),
		K:        m.Table.K,
		Config: configJSON{
			MaxDepth: m.Config.MaxDepth, MinLeaf: m.Config.MinLeaf, RuleGini: m.Config.RuleGini,
			Balance: !m.Config.NoBalance, Seed: m.Config.Seed, Features: m.Config.Features.String(),
		},
		Features: []featureJSON{},
		Funcs:    []funcJSON{},
		Always:   append([]string{}, m.Always...),
		Never:    append([]string{}, m.Never...),
	}
	for i, id := range m.Features {
		if !used[i] {
			continue
		}
		renum[i] = len(f.Features)
		if id >= m.Table.Len() {
			x := &m.Extra[id-m.Table.Len()]
			fj := featureJSON{Label: x.Format(gr), Path: []int32{}}
			if x.Kind == CountFeatures {
				fj.Kind, fj.Name, fj.Min = "count", x.Name, x.Min
			} else {
				fj.Kind, fj.Path = "root", x.Path
			}
			f.Features = append(f.Features, fj)
			f.Version = ModelVersion
			continue
		}
		p := m.Table.Path(id)
		fj := featureJSON{Path: p, Label: PathLabel(gr, p)}
		if pat, err := NewPattern(gr, p); err == nil {
			fj.Pattern = pat.String()
		}
		f.Features = append(f.Features, fj)
	}
	for _, fn := range m.Funcs {
		fj := funcJSON{Name: fn.Name, Pos: fn.Pos, Neg: fn.Neg, Tree: make([]nodeJSON, len(fn.Tree))}
		for i, n := range fn.Tree {
			nj := nodeJSON{Feature: -1, Pos: n.Pos, Neg: n.Neg}
			if !n.Leaf() {
				nj.Feature, nj.Yes, nj.No = renum[n.Feature], n.Yes, n.No
			}
			fj.Tree[i] = nj
		}
		f.Funcs = append(f.Funcs, fj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&f); err != nil {
		return fmt.Errorf("learn: writing the model: %w", err)
	}
	return nil
}

// Load reads a model written by Save for the grammar graph gr. It refuses a
// model of another format or version, and a model learned for another
// grammar (by Fingerprint), and checks that every path and tree is well
// formed.
func Load(r io.Reader, gr *grammar.Graph) (*Model, error) {
	var f modelJSON
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("learn: reading the model: %w", err)
	}
	if f.Format != ModelFormat {
		return nil, fmt.Errorf("learn: not a model file (format %q, want %q)", f.Format, ModelFormat)
	}
	if f.Version != 1 && f.Version != ModelVersion {
		return nil, fmt.Errorf("learn: model file version %d; this program reads versions 1 and %d", f.Version, ModelVersion)
	}
	if fp := Fingerprint(gr); f.Grammar != fp {
		return nil, fmt.Errorf("learn: the model was learned for another grammar (start <%s>, fingerprint %s), not this one (start <%s>, fingerprint %s)",
			f.Start, f.Grammar, gr.Root.Rule, fp)
	}
	if f.K < 1 || f.K > maxModelK {
		return nil, fmt.Errorf("learn: model k is %d, outside 1..%d", f.K, maxModelK)
	}
	pt, err := gr.PathTable(f.K)
	if err != nil {
		return nil, fmt.Errorf("learn: model k %d: %w", f.K, err)
	}
	m := &Model{
		Table: pt,
		Config: Config{
			MaxDepth: f.Config.MaxDepth, MinLeaf: f.Config.MinLeaf, RuleGini: f.Config.RuleGini,
			NoBalance: !f.Config.Balance, Seed: f.Config.Seed,
		},
	}
	if f.Config.Features != "" {
		if m.Config.Features, err = ParseFeatureKinds(f.Config.Features); err != nil {
			return nil, fmt.Errorf("learn: model config: %w", err)
		}
	}
	if g := m.Config.RuleGini; !(g > 0 && g <= 0.5) {
		return nil, fmt.Errorf("learn: model rule_gini %g is outside (0, 0.5]", g)
	}
	seen := map[int]bool{}
	extras := map[string]bool{}
	for i, fj := range f.Features {
		if fj.Kind != "" {
			x := Feature{}
			switch {
			case f.Version < 2:
				return nil, fmt.Errorf("learn: model feature %d (%s) is of kind %q, which version %d files do not have", i, fj.Label, fj.Kind, f.Version)
			case fj.Kind == "count" && fj.Name != "" && fj.Min > 0 && gr.Grammar.Rule(fj.Name) != nil:
				x = Feature{Kind: CountFeatures, Name: fj.Name, Min: fj.Min}
			case fj.Kind == "root" && validRootPath(gr, fj.Path):
				x = Feature{Kind: RootFeatures, Path: fj.Path}
			default:
				return nil, fmt.Errorf("learn: model feature %d (%s) is not a valid feature of kind %q for the grammar", i, fj.Label, fj.Kind)
			}
			key := x.Format(gr)
			if extras[key] {
				return nil, fmt.Errorf("learn: model feature %d (%s) appears twice", i, fj.Label)
			}
			extras[key] = true
			m.Features = append(m.Features, pt.Len()+len(m.Extra))
			m.Extra = append(m.Extra, x)
			continue
		}
		id, ok := pt.ID(fj.Path)
		if !ok {
			return nil, fmt.Errorf("learn: model feature %d (%s) is not a path of the grammar", i, fj.Label)
		}
		if seen[id] {
			return nil, fmt.Errorf("learn: model feature %d (%s) appears twice", i, fj.Label)
		}
		seen[id] = true
		m.Features = append(m.Features, id)
	}
	names := map[string]bool{}
	for _, fj := range f.Funcs {
		if fj.Name == "" || names[fj.Name] {
			return nil, fmt.Errorf("learn: model function %q is empty or appears twice", fj.Name)
		}
		names[fj.Name] = true
		tree, err := checkTree(fj.Tree, len(m.Features))
		if err != nil {
			return nil, fmt.Errorf("learn: model function %s: %w", fj.Name, err)
		}
		if fj.Pos < 0 || fj.Neg < 0 {
			return nil, fmt.Errorf("learn: model function %s: negative counts", fj.Name)
		}
		m.Funcs = append(m.Funcs, &Func{Name: fj.Name, Tree: tree, Pos: fj.Pos, Neg: fj.Neg})
	}
	slices.SortFunc(m.Funcs, func(a, b *Func) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	for _, list := range [][]string{f.Always, f.Never} {
		for _, name := range list {
			if name == "" || names[name] {
				return nil, fmt.Errorf("learn: model function %q is empty or appears twice", name)
			}
			names[name] = true
		}
	}
	m.Always, m.Never = slices.Sorted(slices.Values(f.Always)), slices.Sorted(slices.Values(f.Never))
	m.finish()
	return m, nil
}

// validRootPath reports whether p is a path of gr of 1 to DefaultRootDepth
// symbols: every symbol exists and every step is an edge of the graph.
func validRootPath(gr *grammar.Graph, p grammar.KPath) bool {
	if len(p) == 0 || len(p) > DefaultRootDepth {
		return false
	}
	pt, err := gr.PathTable(2)
	if err != nil {
		return false
	}
	if _, ok := pt.ID(p[:1]); !ok {
		return false
	}
	for i := 1; i < len(p); i++ {
		if _, ok := pt.ID(p[i-1 : i+1]); !ok {
			return false
		}
	}
	return true
}

// checkTree validates a tree read from a model file: every internal node
// tests a feature and has two children after it, and every node but the
// root is the child of exactly one node.
func checkTree(nodes []nodeJSON, features int) ([]Node, error) {
	if len(nodes) == 0 {
		return nil, fmt.Errorf("empty tree")
	}
	parents := make([]int, len(nodes))
	tree := make([]Node, len(nodes))
	for i, n := range nodes {
		if n.Pos < 0 || n.Neg < 0 {
			return nil, fmt.Errorf("node %d: negative counts", i)
		}
		tree[i] = Node{Feature: -1, Pos: n.Pos, Neg: n.Neg}
		if n.Feature == -1 {
			continue
		}
		if n.Feature < 0 || n.Feature >= features {
			return nil, fmt.Errorf("node %d tests feature %d of %d", i, n.Feature, features)
		}
		for _, c := range []int{n.Yes, n.No} {
			if c <= i || c >= len(nodes) {
				return nil, fmt.Errorf("node %d has child %d outside %d..%d", i, c, i+1, len(nodes)-1)
			}
			parents[c]++
		}
		if n.Yes == n.No {
			return nil, fmt.Errorf("node %d has the same child twice", i)
		}
		tree[i] = Node{Feature: n.Feature, Yes: n.Yes, No: n.No, Pos: n.Pos, Neg: n.Neg}
	}
	for i := 1; i < len(nodes); i++ {
		if parents[i] != 1 {
			return nil, fmt.Errorf("node %d has %d parents", i, parents[i])
		}
	}
	return tree, nil
}
