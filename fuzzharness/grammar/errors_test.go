package grammar

import (
	"errors"
	"testing"
)

func TestErrorList(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Error("empty list: Err is not nil")
	}
	if l.Error() != "no errors" {
		t.Errorf("empty list: %q", l.Error())
	}
	l.Add(Pos{File: "b", Line: 1, Col: 1}, "in b")
	l.Add(Pos{File: "a", Line: 2, Col: 5}, "second")
	l.Add(Pos{File: "a", Line: 2, Col: 1}, "first")
	l.Add(Pos{File: "a", Line: 1, Col: 9}, "zeroth")
	l.Sort()
	want := []string{"a:1:9: zeroth", "a:2:1: first", "a:2:5: second", "b:1:1: in b"}
	for i, e := range l {
		if e.Error() != want[i] {
			t.Errorf("%d: %s, want %s", i, e, want[i])
		}
	}
	if got := l.Error(); got != "a:1:9: zeroth (and 3 more errors)" {
		t.Errorf("Error: %q", got)
	}
	err := l.Err()
	var e *Error
	if !errors.As(err, &e) || e.Msg != "zeroth" {
		t.Errorf("errors.As: %v", e)
	}
	l.removeMultiples()
	if len(l) != 3 || l[1].Msg != "first" {
		t.Errorf("removeMultiples kept %v", l)
	}
	if one := (ErrorList{l[0]}); one.Error() != "a:1:9: zeroth" {
		t.Errorf("one error: %q", one.Error())
	}
	if s := (&Error{Msg: "no position"}).Error(); s != "no position" {
		t.Errorf("no position: %q", s)
	}
	if s := (&Error{Pos: Pos{File: "f"}, Msg: "file only"}).Error(); s != "f: file only" {
		t.Errorf("file only: %q", s)
	}
}
