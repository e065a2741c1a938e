package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A layer orders packages: a package may import packages of its own and
// lower layers. The examples are the top layer.
type layer float64

// examples is the layer of the packages under examples/: they may import
// anything, and nothing may import them.
var examples = layer(math.Inf(1))

func (l layer) String() string {
	if l == examples {
		return "examples"
	}
	return strconv.FormatFloat(float64(l), 'g', -1, 64)
}

// A rule gives the packages at and below path (relative to the module) a
// layer. Of the rules that match a package, the longest path wins.
type rule struct {
	path  string
	layer layer
}

// kfuzzLayers is the layering of kfuzz (docs/architecture.md). Rules for
// packages below a rule's path (fuzzharness/grammar/algebra, learn/glade,
// internal/protocol/...) take the rule's layer.
var kfuzzLayers = []rule{
	// Leaf utilities, without kfuzz imports.
	{"internal/z3", 0},
	{"internal/gocmd", 0},
	{"internal/atomicfile", 0},
	{"internal/cputime", 0},
	{"coverage/rt", 0},
	// The parsers the grammar miners are evaluated on: plain Go, no kfuzz.
	{"internal/subjects", 0},

	{"fuzzharness/grammar", 1},

	{"fuzzharness/isla", 2},
	{"fuzzharness/isla/solver", 2.5},

	{"fuzzharness", 3},
	{"internal/protocol", 3},
	{"corpus", 3},
	{"coverage", 3},

	{"learn", 4},

	{"internal", 5},

	{"cmd", 6},

	{"examples", examples},
}

// An edge is an import of package to by package from, both relative to the
// module.
type edge struct{ from, to string }

// A denial forbids the packages at and below from to import the packages at
// and below to, whatever their layers.
type denial struct {
	edge
	why string
}

// kfuzzDenials are the imports the layers allow but the design does not.
var kfuzzDenials = []denial{
	{edge{"learn", "coverage/instrument"}, "learn depends on grammars and coverage result types only"},
}

// knownViolations are the violations on main that a change under way
// removes; each names its issue. Remove an entry when its change lands:
// the test fails on an entry that no longer occurs.
var knownViolations = []struct {
	edge
	issue string
}{}

// matches reports whether pkg is path or below it.
func matches(path, pkg string) bool {
	return pkg == path || strings.HasPrefix(pkg, path+"/")
}

// layerOf returns the layer of pkg by the longest matching rule, and
// whether a rule matched.
func layerOf(rules []rule, pkg string) (layer, bool) {
	best := -1
	for i, r := range rules {
		if matches(r.path, pkg) && (best < 0 || len(r.path) > len(rules[best].path)) {
			best = i
		}
	}
	if best < 0 {
		return 0, false
	}
	return rules[best].layer, true
}

// A violation is an import that the layers or a denial forbid, or a
// package without a layer (to empty).
type violation struct {
	edge
	msg string
}

// check returns the violations of the import graph (each package of the
// module with the packages of the module it imports) against the rules and
// denials, sorted by package and import.
func check(imports map[string][]string, rules []rule, denials []denial) []violation {
	var vs []violation
	for from, tos := range imports {
		lf, ok := layerOf(rules, from)
		if !ok {
			vs = append(vs, violation{edge{from, ""}, fmt.Sprintf("%s has no layer: add it to the rules", from)})
			continue
		}
		for _, to := range tos {
			lt, ok := layerOf(rules, to)
			if !ok {
				continue // reported as a package of its own
			}
			msg := fmt.Sprintf("%s (layer %v) imports %s (layer %v)", from, lf, to, lt)
			if lt > lf {
				vs = append(vs, violation{edge{from, to}, msg})
				continue
			}
			for _, d := range denials {
				if matches(d.from, from) && matches(d.to, to) {
					vs = append(vs, violation{edge{from, to}, msg + ": " + d.why})
					break
				}
			}
		}
	}
	slices.SortFunc(vs, func(a, b violation) int {
		return strings.Compare(a.from+"\x00"+a.to, b.from+"\x00"+b.to)
	})
	return vs
}

// withoutKnown returns the violations that are not known, and the known
// edges that are not among the violations.
func withoutKnown(vs []violation, known []edge) (rest []violation, stale []edge) {
	seen := make(map[edge]bool)
	for _, v := range vs {
		if slices.Contains(known, v.edge) {
			seen[v.edge] = true
		} else {
			rest = append(rest, v)
		}
	}
	for _, e := range known {
		if !seen[e] {
			stale = append(stale, e)
		}
	}
	return rest, stale
}

// moduleImports runs go list on every package of the module and returns
// each package's imports within the module (non-test files only), with
// paths relative to the module.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not available:", err)
	}
	cmd := exec.CommandContext(t.Context(), gotool, "env", "GOMOD")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == "/dev/null" {
		t.Fatalf("go env GOMOD = %q: the test runs outside the kfuzz module", gomod)
	}
	cmd = exec.CommandContext(t.Context(), gotool, "list", "-e", "-json=ImportPath,Imports,Module,Error", "./...")
	cmd.Dir = strings.TrimSuffix(gomod, "go.mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err = cmd.Output(); err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	type pkg struct {
		ImportPath string
		Imports    []string
		Module     *struct{ Path string }
		Error      *struct{ Err string }
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Error != nil {
			t.Errorf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 || pkgs[0].Module == nil {
		t.Fatalf("go list found no packages of a module in %s", cmd.Dir)
	}
	mod := pkgs[0].Module.Path
	rel := func(path string) (string, bool) {
		if path == mod {
			return ".", true
		}
		return strings.CutPrefix(path, mod+"/")
	}
	imports := make(map[string][]string)
	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		if !ok {
			t.Fatalf("go list ./... listed %s, outside the module %s", p.ImportPath, mod)
		}
		imports[from] = nil
		for _, imp := range p.Imports {
			if to, ok := rel(imp); ok {
				imports[from] = append(imports[from], to)
			}
		}
	}
	return imports
}

// TestLayers checks every import of the module's packages (of their
// non-test files: tests may import what they test with) against
// kfuzzLayers and kfuzzDenials, less the known violations.
func TestLayers(t *testing.T) {
	imports := moduleImports(t)
	var known []edge
	for _, k := range knownViolations {
		known = append(known, k.edge)
	}
	vs, stale := withoutKnown(check(imports, kfuzzLayers, kfuzzDenials), known)
	for _, v := range vs {
		t.Error(v.msg)
	}
	for _, e := range stale {
		t.Errorf("the known violation %s imports %s no longer occurs: remove it from knownViolations", e.from, e.to)
	}
	if !t.Failed() {
		t.Logf("%d packages, all in their layers (%d known violations)", len(imports), len(known))
	}
}

// TestCheck checks the checker on a made-up module.
func TestCheck(t *testing.T) {
	rules := []rule{
		{"a", 0},
		{"a/up", 2},
		{"b", 1},
		{"ex", examples},
	}
	denials := []denial{{edge{"b", "a/deny"}, "b keeps off a/deny"}}
	imports := map[string][]string{
		"a":        {"b"},          // up a layer
		"a/up":     {"b", "a"},     // the longer rule wins: layer 2 imports 1 and 0
		"a/upper":  {"b"},          // a/up does not match a/upper: layer 0 imports 1
		"a/deny/x": nil,            //
		"b":        {"a/deny/x"},   // allowed by layers, denied
		"b/sub":    {"b", "ex/d"},  // same layer; nothing imports examples
		"ex/d":     {"a/up", "ex"}, // examples import anything
		"ex":       nil,            //
		"z":        {"a"},          // no layer
	}
	var got []string
	for _, v := range check(imports, rules, denials) {
		got = append(got, v.msg)
	}
	want := []string{
		"a (layer 0) imports b (layer 1)",
		"a/upper (layer 0) imports b (layer 1)",
		"b (layer 1) imports a/deny/x (layer 0): b keeps off a/deny",
		"b/sub (layer 1) imports ex/d (layer examples)",
		"z has no layer: add it to the rules",
	}
	if !slices.Equal(got, want) {
		t.Errorf("check found\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}

	vs := check(imports, rules, denials)
	rest, stale := withoutKnown(vs, []edge{{"a", "b"}, {"b", "a"}})
	if len(rest) != len(vs)-1 || slices.ContainsFunc(rest, func(v violation) bool { return v.edge == edge{"a", "b"} }) {
		t.Errorf("withoutKnown kept %v", rest)
	}
	if !slices.Equal(stale, []edge{{"b", "a"}}) {
		t.Errorf("withoutKnown: stale %v, want [{b a}]", stale)
	}
}

// TestKfuzzRules checks the table itself: every path is listed once.
func TestKfuzzRules(t *testing.T) {
	seen := make(map[string]bool)
	for _, r := range kfuzzLayers {
		if seen[r.path] {
			t.Errorf("%s has two rules", r.path)
		}
		seen[r.path] = true
	}
}
