package learn

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func TestModelSaveLoad(t *testing.T) {
	gr, _ := exprSetup(t)
	m := exprModel(t)
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	saved := buf.String()
	for _, want := range []string{`"format": "kfuzz-learn-model"`, `"version": 1`, `"grammar": "sha256:`, `"k": 4`,
		`"label": "<UnaryExpr>#47 -> <AddExpr>#25 -> <AddExpr>#49"`,
		`"pattern": "<MultExpr> (\"*\" | \"/\" | \"%\") \"(\" <AddExpr> (\"+\" | \"-\") <MultExpr> \")\""`} {
		if !strings.Contains(saved, want) {
			t.Errorf("the model file lacks %s", want)
		}
	}
	m2, err := Load(strings.NewReader(saved), gr)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Names(), m2.Names()) || !reflect.DeepEqual(m.Always, m2.Always) || !reflect.DeepEqual(m.Never, m2.Never) {
		t.Errorf("functions differ: %v / %v", m.Names(), m2.Names())
	}
	if m2.Config.MaxDepth != m.Config.MaxDepth || m2.Config.RuleGini != m.Config.RuleGini || m2.Config.Seed != m.Config.Seed || m2.Config.NoBalance != m.Config.NoBalance {
		t.Errorf("config %+v, want %+v", m2.Config, m.Config)
	}
	// Same predictions, same rules.
	_, test := exprSamples(t, 300, 3)
	for _, s := range test {
		for _, name := range m.Names() {
			p1, err1 := m.Classify(name, s.Paths)
			p2, err2 := m2.Classify(name, s.Paths)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if p1.Covered != p2.Covered || p1.Prob != p2.Prob || (p1.Rule == nil) != (p2.Rule == nil) ||
				p1.Rule != nil && (!reflect.DeepEqual(p1.Rule.Required, p2.Rule.Required) || !reflect.DeepEqual(p1.Rule.Forbidden, p2.Rule.Forbidden)) {
				t.Fatalf("%s: prediction %+v after loading, %+v before", name, p2, p1)
			}
		}
	}
	for _, fn := range m.Funcs {
		r1, _ := m.Rules(fn.Name)
		r2, _ := m2.Rules(fn.Name)
		if len(r1) != len(r2) {
			t.Errorf("%s: %d rules after loading, %d before", fn.Name, len(r2), len(r1))
		}
	}
	// Saving again gives the same file.
	var buf2 bytes.Buffer
	if err := m2.Save(&buf2); err != nil {
		t.Fatal(err)
	}
	if buf2.String() != saved {
		t.Error("saving a loaded model gives another file")
	}
}

func TestModelLoadRefusesOtherGrammar(t *testing.T) {
	m := exprModel(t)
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	tiny, _ := tinyGraph(t)
	byName := grammar.MustCompile(grammar.MustBuiltin("expr"), grammar.WithIdentity(grammar.ByNonterminal))
	fromUnary := grammar.MustCompile(grammar.MustBuiltin("expr"), grammar.WithStart("UnaryExpr"))
	for name, gr := range map[string]*grammar.Graph{"tiny": tiny, "by nonterminal": byName, "other start": fromUnary} {
		_, err := Load(bytes.NewReader(buf.Bytes()), gr)
		if err == nil || !strings.Contains(err.Error(), "another grammar") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestModelLoadErrors(t *testing.T) {
	gr, _ := exprSetup(t)
	m := exprModel(t)
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(map[string]any)) string {
		var v map[string]any
		if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		f(v)
		b, _ := json.Marshal(v)
		return string(b)
	}
	firstTree := func(v map[string]any) []any {
		return v["functions"].([]any)[0].(map[string]any)["tree"].([]any)
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"not JSON", "{", "reading the model"},
		{"format", edit(func(v map[string]any) { v["format"] = "x" }), "not a model file"},
		{"version", edit(func(v map[string]any) { v["version"] = 3 }), "version 3"},
		{"k", edit(func(v map[string]any) { v["k"] = 0 }), "model k is 0"},
		{"huge k", edit(func(v map[string]any) { v["k"] = 1 << 40 }), "outside 1..32"},
		{"gini", edit(func(v map[string]any) { v["config"].(map[string]any)["rule_gini"] = 0 }), "rule_gini"},
		{"path", edit(func(v map[string]any) {
			v["features"].([]any)[0].(map[string]any)["path"] = []int{0, 0}
		}), "not a path of the grammar"},
		{"duplicate feature", edit(func(v map[string]any) {
			fs := v["features"].([]any)
			fs[1] = fs[0]
		}), "appears twice"},
		{"duplicate function", edit(func(v map[string]any) {
			fs := v["functions"].([]any)
			fs[1] = fs[0]
		}), "appears twice"},
		{"always and learned", edit(func(v map[string]any) {
			v["always"] = []string{v["functions"].([]any)[0].(map[string]any)["name"].(string)}
		}), "appears twice"},
		{"feature index", edit(func(v map[string]any) { firstTree(v)[0].(map[string]any)["feature"] = 1e6 }), "tests feature"},
		{"child backwards", edit(func(v map[string]any) { firstTree(v)[0].(map[string]any)["yes"] = 0 }), "outside"},
		{"child twice", edit(func(v map[string]any) {
			n := firstTree(v)[0].(map[string]any)
			n["no"] = n["yes"]
		}), "same child"},
		{"empty tree", edit(func(v map[string]any) {
			v["functions"].([]any)[0].(map[string]any)["tree"] = []any{}
		}), "empty tree"},
		{"negative", edit(func(v map[string]any) { firstTree(v)[0].(map[string]any)["pos"] = -1 }), "negative"},
		{"count in version 1", edit(func(v map[string]any) {
			v["features"].([]any)[0].(map[string]any)["kind"] = "count"
		}), "which version 1 files do not have"},
		{"bad count", edit(func(v map[string]any) {
			v["version"] = 2
			f := v["features"].([]any)[0].(map[string]any)
			f["kind"], f["name"], f["min"] = "count", "NoSuchRule", 2
		}), `not a valid feature of kind "count"`},
		{"bad root", edit(func(v map[string]any) {
			v["version"] = 2
			f := v["features"].([]any)[0].(map[string]any)
			f["kind"], f["path"] = "root", []any{1e6}
		}), `not a valid feature of kind "root"`},
	} {
		_, err := Load(strings.NewReader(tc.file), gr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzLoad(f *testing.F) {
	gr, pt := tinyGraph(f)
	var samples []Sample
	for i, in := range []struct{ a, b string }{{"x", ""}, {"y", ""}, {"x", "!"}, {"y", "!"}} {
		cov := []string{"main"}
		if in.a == "x" && in.b == "!" {
			cov = append(cov, "both")
		}
		if i%2 == 0 {
			cov = append(cov, "onX")
		}
		samples = append(samples, NewSample(pt, tinyTree(gr, in.a, in.b), cov))
	}
	ds, err := NewDataset(pt, samples, []string{"never"})
	if err != nil {
		f.Fatal(err)
	}
	m, err := Learn(ds, Config{NoBalance: true})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"kfuzz-learn-model","version":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(bytes.NewReader(data), gr)
		if err != nil {
			return
		}
		// A model that loads predicts without panicking and saves back to
		// a file that loads to the same predictions.
		var out bytes.Buffer
		if err := m.Save(&out); err != nil {
			t.Fatal(err)
		}
		m2, err := Load(&out, gr)
		if err != nil {
			t.Fatalf("reloading: %v", err)
		}
		for _, s := range samples {
			p1, err1 := m.Predict(s.Paths)
			p2, err2 := m2.Predict(s.Paths)
			if err1 != nil || err2 != nil || len(p1) != len(p2) {
				t.Fatalf("predictions differ after reloading: %v %v / %v %v", p1, err1, p2, err2)
			}
		}
		// Generation from whatever rules it has ends within its budget.
		for _, name := range m.Names() {
			trees, err := m.Generate(name, 1, &GenerateOptions{MaxStates: 5})
			if err == nil && len(trees) != 1 {
				t.Fatalf("%s: %d trees", name, len(trees))
			}
		}
	})
}
