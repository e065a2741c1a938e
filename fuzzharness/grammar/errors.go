package grammar

import (
	"fmt"
	"sort"
)

// An Error is a problem in a grammar source, at a position: a syntax error
// found by Parse or ParseJSON, or an error found by Check.
type Error struct {
	Pos Pos
	Msg string
}

// Error formats the error as "file:line:col: message".
func (e *Error) Error() string {
	if e.Pos.File != "" || e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// An ErrorList is a list of errors, usually sorted by position. Its zero
// value is an empty list ready to use. Parse, ParseJSON and Check return an
// ErrorList as their error.
type ErrorList []*Error

// Add appends an error with the given position and message.
func (l *ErrorList) Add(pos Pos, msg string) {
	*l = append(*l, &Error{Pos: pos, Msg: msg})
}

// Len returns the number of errors; it is part of sort.Interface.
func (l ErrorList) Len() int { return len(l) }

// Swap exchanges two errors; it is part of sort.Interface.
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }

// Less orders errors by file, then line, then column, then message; it is
// part of sort.Interface.
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Col != b.Col {
		return a.Col < b.Col
	}
	return l[i].Msg < l[j].Msg
}

// Sort sorts the list by position. Errors at the same position keep a
// deterministic order by message.
func (l ErrorList) Sort() { sort.Stable(l) }

// removeMultiples sorts the list and keeps only the first error of every
// line: later errors on a line are usually consequences of the first.
func (l *ErrorList) removeMultiples() {
	l.Sort()
	var last Pos
	i := 0
	for _, e := range *l {
		if i == 0 || e.Pos.File != last.File || e.Pos.Line != last.Line {
			last = e.Pos
			(*l)[i] = e
			i++
		}
	}
	*l = (*l)[:i]
}

// Error describes the first error and, if there are more, how many.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil if the list is empty and the list itself otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap returns the errors of the list, so that errors.As finds an *Error
// in it.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}
