package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/gomod"
	"github.com/seed72891827/kfuzz/internal/pipeline"
)

// The third-party module of TestThirdPartyWalkthrough: a JSON parser that no
// other test of kfuzz uses, measured as a dependency of the user's module.
const (
	fastjsonModule  = "github.com/valyala/fastjson"
	fastjsonVersion = "v1.6.10"
)

// fastjsonFuzzTest is the user's fuzz test: valid JSON from the grammar,
// parsed by fastjson.
const fastjsonFuzzTest = `package fjfuzz

import (
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/valyala/fastjson"
)

var jsonGraph = grammar.MustCompile(grammar.MustBuiltin("json"))

func FuzzFastJSON(f *testing.F) {
	fuzzharness.NewGraph(f, jsonGraph).FuzzString(func(t *testing.T, s string) {
		var p fastjson.Parser
		v, err := p.Parse(s)
		if err != nil {
			t.Fatalf("fastjson rejects valid JSON %q: %v", s, err)
		}
		walk(v)
		_ = v.String()
	})
}

// walk reads every value, as a program using fastjson would.
func walk(v *fastjson.Value) {
	switch v.Type() {
	case fastjson.TypeObject:
		o, _ := v.Object()
		o.Visit(func(key []byte, v *fastjson.Value) { walk(v) })
	case fastjson.TypeArray:
		a, _ := v.Array()
		for _, e := range a {
			walk(e)
		}
	case fastjson.TypeString:
		_, _ = v.StringBytes()
	case fastjson.TypeNumber:
		_, _ = v.Float64()
		_, _ = v.Int64()
	}
}
`

// TestThirdPartyWalkthrough is the walkthrough of docs/thirdparty.md, run
// as a user would: a module outside the kfuzz repository whose fuzz test
// exercises a module from the proxy. kfuzz learn measures the dependency
// (-cover), then kfuzz seed (without -cover: the model says what to
// measure), predict and select work from the model alone, and kfuzz cover
// confirms that the seeds written reach the function they were written for.
func TestThirdPartyWalkthrough(t *testing.T) {
	needGo(t)
	ctx := context.Background()
	src, err := gomod.FindSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(t.TempDir(), "fjfuzz")
	if err := os.MkdirAll(mod, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "fjfuzz_test.go"), []byte(fastjsonFuzzTest), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := gomod.WriteGoMod(ctx, mod, "example.com/fjfuzz", src); err != nil {
		t.Fatal(err)
	}
	goCmd := gocmd.Runner{Dir: mod, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")}
	if out, err := goCmd.Go(ctx, "get", fastjsonModule+"@"+fastjsonVersion); err != nil {
		t.Skipf("the module proxy does not serve %s@%s here: %v\n%s", fastjsonModule, fastjsonVersion, err, out)
	}

	// 1. Learn, measuring the dependency. Without -cover there is nothing
	// to measure, and the error says what to do.
	model := filepath.Join(t.TempDir(), "fastjson.model.json")
	if _, errOut, code := kfuzz(t, "learn", mod, "-fuzz", "FuzzFastJSON", "-o", model); code != 1 || !strings.Contains(errOut, "has no code outside its tests to measure") || !strings.Contains(errOut, "-cover") {
		t.Errorf("kfuzz learn without -cover: code %d, stderr:\n%s", code, errOut)
	}
	if _, errOut, code := kfuzz(t, "learn", mod, "-fuzz", "FuzzFastJSON", "-cover", fastjsonModule, "-n", "300", "-o", model); code != 0 {
		t.Fatalf("kfuzz learn -cover: code %d\n%s", code, errOut)
	}
	mf, _, err := pipeline.LoadModelFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(mf.Measured, []string{fastjsonModule}) {
		t.Fatalf("the model records the measured packages %q, want %s", mf.Measured, fastjsonModule)
	}
	// The function to seed: the parsing of object keys, which only
	// non-empty objects reach (about 4% of random inputs of the grammar);
	// the model must have learned a rule for it.
	const target = fastjsonModule + ".parseRawKey"
	if fn := mf.Model.Func(target); fn == nil || len(fn.Rules) == 0 || fn.Pos == 0 || fn.Neg == 0 {
		t.Fatalf("the model has no rule for %s", target)
	}

	// 2. Seed, without -cover: the model says what to measure.
	out, errOut, code := kfuzz(t, "seed", "-model", model, "-target", "parseRawKey", "-n", "4", "-json")
	if code != 0 {
		t.Fatalf("kfuzz seed: code %d\n%s", code, errOut)
	}
	var seeds seedsJSON
	if err := json.Unmarshal([]byte(out), &seeds); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	corpusDir := filepath.Join(mod, "testdata", "fuzz", "FuzzFastJSON")
	var written []string
	for _, s := range seeds.Inputs {
		if s.Added {
			written = append(written, filepath.Join(corpusDir, s.Entry))
		}
	}
	if seeds.Function != target || seeds.Reached < 4 || len(written) != 4 {
		t.Fatalf("kfuzz seed wrote %d entries (%d reached %s), want 4:\n%s", len(written), seeds.Reached, seeds.Function, out)
	}

	// 3. Cover confirms it, measured independently of the model.
	out, errOut, code = kfuzz(t, append([]string{"cover", "-run", "FuzzFastJSON", "-pkg", fastjsonModule, "-json", mod}, written...)...)
	if code != 0 {
		t.Fatalf("kfuzz cover: code %d\n%s", code, errOut)
	}
	var cov coverJSON
	if err := json.Unmarshal([]byte(out), &cov); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(cov.Inputs) != len(written) {
		t.Fatalf("kfuzz cover measured %d inputs, want %d", len(cov.Inputs), len(written))
	}
	for _, in := range cov.Inputs {
		if !slices.Contains(in.Funcs, target) {
			t.Errorf("the seed %s (%q) does not reach %s", in.ID, in.Input, target)
		}
	}

	// 4. Predict: the seeds are predicted to reach it.
	out, errOut, code = kfuzz(t, "predict", "-model", model, "-json", corpusDir)
	if code != 0 {
		t.Fatalf("kfuzz predict: code %d\n%s", code, errOut)
	}
	var preds []inputPredictionJSON
	if err := json.Unmarshal([]byte(out), &preds); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	predicted := 0
	for _, p := range preds {
		if slices.ContainsFunc(p.Functions, func(f predictionJSON) bool { return f.Func == target }) {
			predicted++
		}
	}
	if len(preds) != len(written) || predicted < len(written)*3/4 {
		t.Errorf("kfuzz predict: %d of %d seeds predicted to reach %s", predicted, len(preds), target)
	}

	// 5. Select: a change to the function selects the seeds (the corpus of
	// the package the model was learned in, by default).
	out, errOut, code = kfuzz(t, "select", "-model", model, "-changed", "parseRawKey", "-json")
	if code != 0 {
		t.Fatalf("kfuzz select: code %d\n%s", code, errOut)
	}
	var sel selectJSON
	if err := json.Unmarshal([]byte(out), &sel); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if sel.Inputs != len(written) || len(sel.Selected) < len(written)*3/4 || !strings.HasPrefix(sel.Selected[0].Name, corpusDir) {
		t.Errorf("kfuzz select: %d of %d inputs selected: %+v", len(sel.Selected), sel.Inputs, sel)
	}
}
