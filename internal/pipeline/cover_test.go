package pipeline

import (
	"context"
	"path/filepath"
	"testing"
)

func TestCorpusDirConfig(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("GOCACHE", cache)
	pkg := t.TempDir()
	for _, tc := range []struct {
		dir  string
		want Config
	}{
		{filepath.Join(pkg, "testdata", "fuzz", "FuzzX"), Config{Dir: pkg, Package: ".", Target: "FuzzX"}},
		{filepath.Join(cache, "fuzz", "example.com", "m", "p", "FuzzY"), Config{Package: "example.com/m/p", Target: "FuzzY"}},
	} {
		got, err := corpusDirConfig(context.Background(), tc.dir)
		if err != nil || got.Dir != tc.want.Dir || got.Package != tc.want.Package || got.Target != tc.want.Target {
			t.Errorf("corpusDirConfig(%s) = %+v, %v; want %+v", tc.dir, got, err, tc.want)
		}
	}
	for _, dir := range []string{
		filepath.Join(pkg, "testdata", "fuzz", "NotFuzz"),
		filepath.Join(pkg, "corpus", "FuzzX"),
		filepath.Join(cache, "fuzz", "FuzzZ"),
		filepath.Join(cache, "other", "FuzzZ"),
	} {
		if cfg, err := corpusDirConfig(context.Background(), dir); err == nil {
			t.Errorf("corpusDirConfig(%s) = %+v, want an error", dir, cfg)
		}
	}
}
