package evalharness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadCoverProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cover.out")
	profile := `mode: set
a/x.go:1.1,2.2 3 1
a/x.go:3.1,4.2 2 0
a/y.go:1.1,1.9 1 0
a/y.go:1.1,1.9 1 1
b/z.go:5.1,6.2 4 0
`
	if err := os.WriteFile(path, []byte(profile), 0o644); err != nil {
		t.Fatal(err)
	}
	covered, total, err := readCoverProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A block listed twice counts once, covered if either line says so.
	if total != 10 || len(covered) != 2 || covered["a/x.go:1.1,2.2"] != 3 || covered["a/y.go:1.1,1.9"] != 1 {
		t.Errorf("readCoverProfile = %v, %d", covered, total)
	}
	other := map[string]int{"a/y.go:1.1,1.9": 1, "b/z.go:5.1,6.2": 4}
	if n, files := OnlyIn(covered, other); n != 3 || files != "x.go 3" {
		t.Errorf("OnlyIn = %d, %q", n, files)
	}
	if n, files := OnlyIn(other, covered); n != 4 || files != "z.go 4" {
		t.Errorf("OnlyIn = %d, %q", n, files)
	}

	if err := os.WriteFile(path, []byte("mode: set\na/x.go:1.1,2.2 three 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readCoverProfile(path); err == nil || !strings.Contains(err.Error(), ":2: malformed") {
		t.Errorf("malformed profile: %v", err)
	}
}

func TestFuzzProgressLine(t *testing.T) {
	m := fuzzProgressRE.FindStringSubmatch("fuzz: elapsed: 21s, execs: 84672 (4170/sec), new interesting: 54 (total: 120)")
	if m == nil || m[1] != "21" || m[2] != "84672" {
		t.Errorf("match %q", m)
	}
	if fuzzProgressRE.MatchString("fuzz: elapsed: 0s, gathering baseline coverage: 0/66 completed") {
		t.Error("matched a baseline line")
	}
}
