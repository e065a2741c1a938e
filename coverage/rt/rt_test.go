package rt

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

func TestRegister(t *testing.T) {
	if len(Packages()) != 0 {
		t.Fatal("packages registered before any Register")
	}
	a := make([]uint32, 3)
	if !Register(Format, "example.com/a", a, "mode count\n") {
		t.Fatal("Register returned false")
	}
	Register(Format+1, "example.com/b", nil, "from the future")
	pkgs := Packages()
	if len(pkgs) != 2 || pkgs[0].Path != "example.com/a" || pkgs[1].Path != "example.com/b" {
		t.Fatalf("packages %v", pkgs)
	}
	a[1] = 7
	if pkgs[0].Counters[1] != 7 || pkgs[0].Meta != "mode count\n" {
		t.Error("counters are not shared with the registering package")
	}
	if pkgs[1].Meta != "" {
		t.Error("metadata of an unknown format kept")
	}
	// Earlier results are not changed by later registrations.
	Register(Format, "example.com/c", nil, "")
	if len(pkgs) != 2 || len(Packages()) != 3 {
		t.Error("registration changed an earlier result")
	}
}

// link does what an instrumented standard package does while it is
// initialized.
func link(p *StdPackage) {
	p.Next = stdList
	stdList = unsafe.Pointer(p)
}

func TestStdList(t *testing.T) {
	old, oldStd := registry.Load(), stdList
	defer func() { registry.Store(old); stdList = oldStd }()
	registry.Store(nil)
	stdList = nil

	ctr := make([]uint32, 2)
	link(&StdPackage{Format: Format, Path: "encoding/json", Counters: ctr, Meta: "mode hits\n"})
	link(&StdPackage{Format: Format, Path: "net/url", Meta: "mode set\n"})
	Register(Format, "example.com/a", nil, "mode count\n")
	got := Packages()
	if paths(got) != "example.com/a encoding/json net/url" {
		t.Fatalf("packages %s, want example.com/a encoding/json net/url", paths(got))
	}
	ctr[1] = 5
	if got[1].Counters[1] != 5 || got[1].Meta != "mode hits\n" {
		t.Error("standard package's counters are not shared")
	}
	if p := Packages(); &p[0] != &got[0] {
		t.Error("Packages without changes returned a new slice")
	}

	// Later registrations and standard packages come after the earlier
	// ones; a standard package of another format keeps its path only.
	Register(Format, "example.com/b", nil, "mode count\n")
	link(&StdPackage{Format: Format + 1, Path: "go/parser", Counters: ctr, Meta: "from the future"})
	link(&StdPackage{Format: Format, Path: "go/scanner", Meta: "mode hits\n"})
	got = Packages()
	if paths(got) != "example.com/a encoding/json net/url example.com/b go/parser go/scanner" {
		t.Fatalf("packages %s", paths(got))
	}
	if got[4].Meta != "" || got[4].Counters != nil {
		t.Errorf("package of another format: %+v", got[4])
	}
}

func paths(pkgs []*Package) string {
	var s []string
	for _, p := range pkgs {
		s = append(s, p.Path)
	}
	return strings.Join(s, " ")
}

func TestStdListName(t *testing.T) {
	if want := reflect.TypeFor[Package]().PkgPath() + ".stdList"; StdList != want {
		t.Errorf("StdList = %q, want %q", StdList, want)
	}
}
