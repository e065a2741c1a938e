package meta

import (
	"fmt"
	"strings"
	"testing"
)

func sample() *Package {
	return &Package{
		Path:  "example.com/p",
		Mode:  "hits",
		Files: []string{"example.com/p/a b.go", "example.com/p/\"q\".go"},
		Funcs: []Func{
			{Name: "example.com/p.(*T).M", File: 0, Start: Pos{3, 1}, End: Pos{9, 2}, Entry: 0},
			{Name: "example.com/p.(*T).M.func1", File: 0, Start: Pos{4, 7}, End: Pos{6, 3}, Entry: 1, Closure: true},
			{Name: "example.com/p.init.func1", File: 1, Start: Pos{1, 9}, End: Pos{1, 20}, Entry: -1, Closure: true},
		},
		Blocks: []Block{
			{Func: 0, Start: Pos{3, 20}, End: Pos{4, 7}, Stmts: 1},
			{Func: 1, Start: Pos{4, 14}, End: Pos{6, 3}, Stmts: 2},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	p := sample()
	q, err := Decode(p.Path, p.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", *q) != fmt.Sprintf("%+v", *p) {
		t.Errorf("decoded\n%+v\nwant\n%+v", *q, *p)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", `unknown record ""`},
		{"mode fast", "no valid mode"},
		{"mode set\nfile x", "record 2: bad file name x"},
		{"mode set\nfunc 0 \"x", "record 2: bad function name"},
		{"mode set\nfunc 0 \"x\" 1 2", "bad function record"},
		{"mode set\nblock 1 2", "bad block record"},
		{"mode set\nblock a b c d e f", "bad block record"},
		{"mode set\nwhat", `unknown record "what"`},
		{"mode set\nfunc 3 \"x\" 1 1 1 1 0 0", "function 0 out of range"},
		{"mode set\nfile \"f\"\nfunc 0 \"x\" 1 1 1 1 4 0", "function 0 out of range"},
		{"mode set\nblock 7 1 1 1 1 1", "block 0 out of range"},
	} {
		_, err := Decode("p", tt.text)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decode(%q) error %v, want %q", tt.text, err, tt.want)
		}
	}
}

// FuzzDecode checks that bad metadata never panics and that what decodes
// encodes back to the same.
func FuzzDecode(f *testing.F) {
	f.Add(sample().Encode())
	f.Add("mode count\nfile \"a b.go\"\nfunc 0 \"p.F\" 1 1 2 2 -1 1\n")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Decode("p", s)
		if err != nil {
			return
		}
		q, err := Decode("p", p.Encode())
		if err != nil {
			t.Fatalf("re-decoding: %v", err)
		}
		if fmt.Sprintf("%+v", *p) != fmt.Sprintf("%+v", *q) {
			t.Fatalf("round trip changed\n%+v\n%+v", *p, *q)
		}
	})
}
