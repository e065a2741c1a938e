package fuzzharness

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// An Input is one structured input: the text a derivation tree derives,
// together with the tree. Codec.Decode makes one from fuzzer bytes; the
// harness passes one to the fuzz target.
type Input struct {
	s  string
	b  []byte // the text as bytes, or nil: Bytes makes them on the first call
	st *inputState
}

// inputState is the part of an Input that the tree is built into on demand.
type inputState struct {
	tree  *grammar.Tree
	used  int
	codec *Codec // with raw: the tree is yet to be decoded
	raw   []byte
	// edited is set if byte edits changed the text; orig is then the
	// tree's own text.
	edited bool
	orig   string
	bytes  []byte // Bytes of an Input without b, once made
}

// String returns the input text.
func (in Input) String() string { return in.s }

// Bytes returns the input text as bytes. The slice belongs to the caller,
// who may modify it; it is the same slice on every call, and modifying it
// changes neither String nor the tree. Like Tree, it is not safe for
// concurrent use with itself on the first call.
func (in Input) Bytes() []byte {
	switch {
	case in.b != nil:
		return in.b
	case in.st == nil:
		return []byte(in.s)
	case in.st.bytes == nil:
		in.st.bytes = []byte(in.s)
	}
	return in.st.bytes
}

// Len returns the length of the input text in bytes.
func (in Input) Len() int { return len(in.s) }

// Edited reports whether byte edits (Bounds.MaxEdits) changed the text, so
// that it may lie outside the grammar's language; Tree then derives the text
// before the edits, Original.
func (in Input) Edited() bool { return in.st != nil && in.st.edited }

// Original returns the text that the tree derives: String before byte
// edits, or String itself if Edited is false.
func (in Input) Original() string {
	if in.Edited() {
		return in.st.orig
	}
	return in.s
}

// Tree returns the derivation tree of the input. The harness builds it on
// the first call, not while decoding, unless a validity predicate needs it;
// every call returns the same tree. The tree must not be modified while the
// harness may still use it (during the fuzz target's call). Tree is not safe
// for concurrent use with itself on the first call.
func (in Input) Tree() *grammar.Tree {
	st := in.st
	if st == nil {
		return nil
	}
	if st.tree == nil && st.codec != nil {
		st.tree = st.codec.Decode(st.raw).st.tree
		st.codec, st.raw = nil, nil
	}
	return st.tree
}

// Used returns how many bytes the decisions read: bytes after them do not
// influence the input. It is more than the length of the decoded data if the
// decisions ran past its end and read zeros.
func (in Input) Used() int {
	if in.st == nil {
		return 0
	}
	return in.st.used
}

// maxOutlineLines bounds the tree outline that Describe prints.
const maxOutlineLines = 200

// Describe returns a report of the input for humans: its length, the text
// quoted as a Go string, and the outline of its tree (grammar.Tree.Outline),
// cut after a few hundred lines.
func (in Input) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "input (%d bytes): %s\n", len(in.s), strconv.Quote(in.s))
	if in.Edited() {
		fmt.Fprintf(&b, "byte edits of (%d bytes): %s\n", len(in.st.orig), strconv.Quote(in.st.orig))
	}
	tree := in.Tree()
	if tree == nil {
		return b.String()
	}
	b.WriteString("tree:\n")
	outline := tree.Outline()
	lines := strings.SplitAfter(outline, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if i == maxOutlineLines {
			fmt.Fprintf(&b, "  ... (%d more lines)\n", len(lines)-i)
			break
		}
		b.WriteString("  ")
		b.WriteString(l)
	}
	return b.String()
}
