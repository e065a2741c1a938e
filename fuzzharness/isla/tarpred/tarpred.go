// Package tarpred provides the semantic predicates of ISLa constraints over
// tape archives (the built-in grammar "tar" of package grammar):
// tar_checksum, the header checksum, and tar_size, the number of data
// blocks an entry's size field needs. Both evaluate (for the validator) and
// solve (for the solver): they implement isla.TreeSolver and set the
// checksum and size fields once the rest of their header or entry is
// derived.
//
// Register them when compiling a constraint:
//
//	spec, err := isla.Compile(c, grammar, tarpred.Predicates())
//
// Constraint is a constraint for the tar grammar under which every input is
// an archive that archive/tar reads without error.
package tarpred

import (
	_ "embed"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// Constraint is an ISLa constraint for the built-in tar grammar: the
// checksum of every header (tar_checksum), as many data blocks as each size
// field needs (tar_size), every numeric field an octal number between
// optional spaces and NULs, a printable file name padded with NULs, and the
// type flag of a regular file ("0" or "7"), so that archive/tar reads every
// entry's data.
//
//go:embed ustar.isla
var Constraint string

// Predicates returns the option that registers Checksum and Size with
// isla.Compile.
func Predicates() isla.Option { return isla.WithPredicates(Checksum, Size) }

// Checksum is the semantic predicate tar_checksum(header, checksum): the
// unsigned sum of the 512 bytes of header, with the 8 bytes of its checksum
// field counted as spaces, equals the octal number in the checksum field
// (between optional spaces and NULs). It solves itself by writing the
// checksum field as six octal digits, a NUL and a space, once the rest of
// the header is derived.
var Checksum isla.TreeSolver = checksum{}

// Size is the semantic predicate tar_size(entry): the entry has as many
// 512-byte data blocks as its size field needs, the size rounded up to a
// multiple of 512. It solves itself by writing the size field (eleven octal
// digits and a NUL) once the entry's data blocks are derived; the size in
// the last block is chosen from a hash of the entry, so the same entry
// always gets the same size.
var Size isla.TreeSolver = size{}

// Field widths and layout of a header.
const (
	blockSize     = 512
	checksumWidth = 8
	sizeWidth     = 12
)

type checksum struct{}

// Name returns "tar_checksum".
func (checksum) Name() string { return "tar_checksum" }

// Params returns two tree parameters: the header and its checksum field.
func (checksum) Params() []isla.Param { return []isla.Param{isla.TreeParam, isla.TreeParam} }

// Writes returns the nonterminal of the checksum field.
func (checksum) Writes() []string { return []string{"checksum"} }

// Eval reports whether the checksum field holds the header's checksum; an
// error if the header does not have 512 bytes or the field is not in it.
func (checksum) Eval(args []isla.Arg) (bool, error) {
	h, c := args[0].Node, args[1].Node
	if len(h.Text()) != blockSize {
		return false, fmt.Errorf("tar_checksum: a header has %d bytes, not %d", len(h.Text()), blockSize)
	}
	if err := inside(h, c); err != nil {
		return false, err
	}
	want, ok := octal(c.Text())
	return ok && want == headerSum(h, c), nil
}

// Solve returns the checksum field's text once every other node of the
// header is derived; isla.ErrNotReady before.
func (checksum) Solve(args []isla.Arg) ([]isla.Fix, error) {
	h, c := args[0].Node, args[1].Node
	if err := inside(h, c); err != nil {
		return nil, err
	}
	if !completeExcept(h, "checksum") {
		return nil, isla.ErrNotReady
	}
	if n := len(h.Text()) - len(c.Text()); n != blockSize-checksumWidth {
		return nil, fmt.Errorf("tar_checksum: a header has %d bytes around its checksum, not %d", n, blockSize-checksumWidth)
	}
	return []isla.Fix{{Node: c, Text: fmt.Sprintf("%06o\x00 ", headerSum(h, c))}}, nil
}

// headerSum returns the unsigned sum of the header's bytes, those of the
// checksum field counted as spaces (whatever its text, so that it may be
// open while solving).
func headerSum(h, c isla.Node) int64 {
	text := h.Text()
	from, to := c.Offset()-h.Offset(), c.End()-h.Offset()
	sum := int64(' ') * checksumWidth
	for i := 0; i < len(text); i++ {
		if i < from || i >= to {
			sum += int64(text[i])
		}
	}
	return sum
}

// inside checks that c is a node of h's subtree.
func inside(h, c isla.Node) error {
	for p := c; p.IsValid(); p = p.Parent() {
		if p == h {
			return nil
		}
	}
	return errors.New("tar_checksum: the checksum field is not inside the header")
}

type size struct{}

// Name returns "tar_size".
func (size) Name() string { return "tar_size" }

// Params returns one tree parameter: the entry.
func (size) Params() []isla.Param { return []isla.Param{isla.TreeParam} }

// Writes returns the nonterminal of the size field.
func (size) Writes() []string { return []string{"file-size"} }

// Eval reports whether the entry has as many data blocks as its size field
// needs; an error if the entry does not have one size field.
func (size) Eval(args []isla.Arg) (bool, error) {
	f, err := sizeField(args[0].Node)
	if err != nil {
		return false, err
	}
	n, ok := octal(f.Text())
	if !ok {
		return false, nil
	}
	return int64(len(args[0].Node.Find("data-block"))) == (n+blockSize-1)/blockSize, nil
}

// Solve returns a size field that the entry's data blocks hold, once every
// node of the entry but the size and checksum fields is derived;
// isla.ErrNotReady before.
func (size) Solve(args []isla.Arg) ([]isla.Fix, error) {
	e := args[0].Node
	f, err := sizeField(e)
	if err != nil {
		return nil, err
	}
	if !completeExcept(e, "file-size", "checksum") {
		return nil, isla.ErrNotReady
	}
	blocks := int64(len(e.Find("data-block")))
	n := int64(0)
	if blocks > 0 {
		h := fnv.New64a()
		for _, d := range e.Find("data-block") {
			h.Write([]byte(d.Text()))
		}
		for _, name := range e.Find("file-name") {
			h.Write([]byte(name.Text()))
		}
		n = blocks*blockSize - int64(h.Sum64()%blockSize)
	}
	return []isla.Fix{{Node: f, Text: fmt.Sprintf("%0*o\x00", sizeWidth-1, n)}}, nil
}

// sizeField returns the size field of an entry.
func sizeField(e isla.Node) (isla.Node, error) {
	fs := e.Find("file-size")
	if len(fs) != 1 {
		return isla.Node{}, fmt.Errorf("tar_size: an entry has one size field, not %d", len(fs))
	}
	return fs[0], nil
}

// octal parses a numeric field: octal digits between optional spaces and
// NULs.
func octal(field string) (int64, bool) {
	digits := strings.Trim(field, " \x00")
	if digits == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 8, 64)
	return n, err == nil
}

// completeExcept reports whether n's subtree is derived, the subtrees of
// the nonterminals skip aside.
func completeExcept(n isla.Node, skip ...string) bool {
	for _, s := range skip {
		if n.Nonterminal() == s {
			return true
		}
	}
	if n.Complete() {
		return true
	}
	kids := n.Children()
	if len(kids) == 0 {
		return false
	}
	for _, k := range kids {
		if !completeExcept(k, skip...) {
			return false
		}
	}
	return true
}
