package rt

import "testing"

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
