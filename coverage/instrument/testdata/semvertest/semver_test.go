// Package semvertest measures golang.org/x/mod/semver, a dependency in the
// module cache, per input.
package semvertest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/seed72891827/kfuzz/coverage"
	"golang.org/x/mod/semver"
)

var inputs = []string{
	"v1.2.3", "v1.2", "v1", "1.2.3", "v1.2.3-rc.1+build.5", "v1.0.0-alpha.10",
	"v2.0.0+incompatible", "v01.2.3", "", "v1.2.3-", "vX", "v1.2.3-beta.x.007",
}

// exercise calls the package's API on v; it sorts only versions with a
// prerelease.
func exercise(v string) {
	if !semver.IsValid(v) {
		return
	}
	semver.Canonical(v)
	semver.Major(v)
	semver.MajorMinor(v)
	semver.Build(v)
	semver.Compare(v, "v1.2.3-rc.1")
	if semver.Prerelease(v) != "" {
		semver.Sort([]string{v, "v1.0.0", "v1.0.0-alpha", "v0.9.0"})
	}
}

func out(t *testing.T, name string) string {
	dir := os.Getenv("COVTEST_OUT")
	if dir == "" {
		t.Skip("COVTEST_OUT not set")
	}
	return filepath.Join(dir, name)
}

// TestAll runs every input; go test -coverprofile measures it.
func TestAll(t *testing.T) {
	out(t, "")
	for _, v := range inputs {
		exercise(v)
	}
	if _, err := coverage.Current(); !errors.Is(err, coverage.ErrNotInstrumented) {
		t.Fatalf("Current() error = %v, want ErrNotInstrumented", err)
	}
}

type measured struct {
	Input string
	Funcs []string
	Hits  map[string]uint64
	Err   string
}

// TestMeasure measures every input.
func TestMeasure(t *testing.T) {
	file := out(t, "measure.json")
	p, err := coverage.Current("golang.org/x/mod/semver")
	if err != nil {
		t.Fatal(err)
	}
	var initProfile, totalProfile bytes.Buffer
	total := p.Snapshot()
	if err := total.WriteProfile(&initProfile); err != nil {
		t.Fatal(err)
	}
	var results []measured
	for _, v := range inputs {
		res, err := p.Measure(func() { exercise(v) })
		if err != nil {
			t.Fatal(err)
		}
		m := measured{Input: v, Funcs: res.Funcs.Names(), Hits: make(map[string]uint64)}
		for fn := range res.Funcs.All() {
			m.Hits[p.Table().Func(fn).Name] = res.Counts.Hits(fn)
		}
		results = append(results, m)
		total.Add(res.Counts)
	}
	if err := total.WriteProfile(&totalProfile); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"Inputs": results, "Init": initProfile.String(), "Total": totalProfile.String()})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
