package fuzzharness

import (
	"hash/fnv"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// WithInvalidShare makes the harness pass a share p (from 0 to 1) of the
// inputs to the target deliberately invalid: the text of the input as
// decoded, before any repair or validity check, with one near-valid
// mutation, so that the fuzzer also reaches the target's handling of
// syntax errors and broken constraints, which no input of the grammar and
// constraint can reach, while the other inputs stay valid. A mutated input
// is not repaired (its text may break the constraint as well as the
// grammar), so the repairs' CPU time goes to the inputs that stay valid.
// The default 0 mutates none. A share outside [0, 1] stops the fuzz test
// with f.Fatal.
//
// The mutation works on the input's derivation tree: it deletes,
// duplicates or truncates the text of a subtree (a token, or a phrase of
// several), swaps the texts of two adjacent siblings, deletes, duplicates
// or replaces one byte, or inserts one byte, or a short run of delimiters
// (bytes of the text that are neither letters, digits nor spaces) or
// other bytes, next to a subtree; a quarter of the mutated inputs get one
// or two byte mutations more. The hash of the fuzzer's bytes that the
// decoding reads decides whether an input is mutated and how, so the same
// bytes give the same input. The bytes after them then make up to four
// byte edits more, read as WithMaxEdits reads them (zeros, or no bytes,
// edit nothing): a mutated input that the fuzzer keeps for its coverage
// is mutated again, with its mutations kept, when the fuzzer changes or
// appends bytes after the decisions, so that mutations can stack under
// coverage guidance (where the decoding leaves bytes unread: a decoding
// that reads all the bytes completes the tree with them instead). A
// mutation that leaves the text as it was leaves the input valid.
//
// The target tells a mutated input by Input.Edited, and gets the text
// before the mutation from Input.Original and the tree (which derives it)
// from Input.Tree; a target that checks a property of valid inputs should
// check it only where Edited is false. Stats counts the mutated inputs
// apart (Stats.Invalid), and ValidPerSecond and ValidRate leave them out.
// Byte edits (WithMaxEdits) are the fuzzer-driven alternative; an input
// that byte edits changed is not mutated again.
func WithInvalidShare(p float64) Option {
	return func(c *config) { c.invalidShare = p }
}

// Kinds of near-valid mutation.
const (
	mutDeleteNode = iota
	mutDuplicateNode
	mutSwapSiblings
	mutTruncate
	mutDeleteByte
	mutDuplicateByte
	mutReplaceByte
	mutInsertByte
	mutInsertString
	mutKinds
)

// mutRand is the deterministic random source of one mutation: SplitMix64
// seeded with the hash of the fuzzer's bytes.
type mutRand struct{ x uint64 }

func (r *mutRand) next() uint64 {
	r.x += 0x9e3779b97f4a7c15
	z := r.x
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number in [0, n), n > 0.
func (r *mutRand) intn(n int) int { return int(r.next() % uint64(n)) }

// invalidRand returns the random source of the input whose decisions read
// the fuzzer bytes data, and whether the input is one of the invalid
// share.
func (c *config) invalidRand(data []byte) (*mutRand, bool) {
	if c.invalidShare <= 0 {
		return nil, false
	}
	h := fnv.New64a()
	h.Write(data)
	r := &mutRand{x: h.Sum64()}
	// The top 53 bits as a number in [0, 1).
	return r, float64(r.next()>>11)/(1<<53) < c.invalidShare
}

// span is the text of one subtree: bytes [start, end) of the input, and
// next, the end of the text of its next sibling with any text (-1 if it
// has none).
type span struct{ start, end, next int }

// spans returns the spans of the subtrees of t that derive some text, in
// preorder.
func spans(t *grammar.Tree) []span {
	var out []span
	var walk func(t *grammar.Tree, at int) int
	walk = func(t *grammar.Tree, at int) int {
		if len(t.Children) == 0 {
			if len(t.Value) > 0 {
				out = append(out, span{at, at + len(t.Value), -1})
			}
			return at + len(t.Value)
		}
		i := len(out)
		out = append(out, span{at, at, -1})
		prev := -1 // index in out of the previous child with text
		end := at
		for _, c := range t.Children {
			k := len(out)
			e := walk(c, end)
			if e > end {
				if prev >= 0 {
					out[prev].next = e
				}
				prev = k
			}
			end = e
		}
		if end == at {
			out = out[:i] // no text: drop the node and its (empty) subtrees
		} else {
			out[i].end = end
		}
		return end
	}
	walk(t, 0)
	return out
}

// mutate returns text with one near-valid mutation that r picks, made on
// the spans of the text's tree (nil if the tree is not known), in a new
// array.
func mutate(text []byte, sp []span, r *mutRand) []byte {
	n := len(text)
	if n == 0 {
		// Only an insertion changes an empty text.
		return []byte{byte(r.next())}
	}
	kind := r.intn(mutKinds)
	if len(sp) == 0 && kind < mutDeleteByte {
		kind = mutDeleteByte + r.intn(mutKinds-mutDeleteByte)
	}
	out := make([]byte, 0, n+n/2+1)
	switch kind {
	case mutDeleteNode:
		s := sp[r.intn(len(sp))]
		return append(append(out, text[:s.start]...), text[s.end:]...)
	case mutDuplicateNode:
		s := sp[r.intn(len(sp))]
		return append(append(append(out, text[:s.end]...), text[s.start:s.end]...), text[s.end:]...)
	case mutSwapSiblings:
		// A subtree with a next sibling; the first one from a random
		// place, if there is any.
		k := r.intn(len(sp))
		for i := range sp {
			if s := sp[(k+i)%len(sp)]; s.next >= 0 {
				out = append(out, text[:s.start]...)
				out = append(out, text[s.end:s.next]...)
				out = append(out, text[s.start:s.end]...)
				return append(out, text[s.next:]...)
			}
		}
		s := sp[k] // no siblings: delete the subtree instead
		return append(append(out, text[:s.start]...), text[s.end:]...)
	case mutTruncate:
		s := sp[r.intn(len(sp))]
		cut := s.start
		if r.next()&1 == 1 {
			cut = s.end
		}
		return append(out, text[:cut]...)
	}
	// A byte of the text elsewhere (a delimiter, a quote), or any byte.
	v := text[r.intn(n)]
	if r.next()&1 == 1 {
		v = byte(r.next())
	}
	if kind == mutInsertByte || kind == mutInsertString {
		// At the start or end of a subtree: next to a token.
		pos := r.intn(n + 1)
		if len(sp) > 0 {
			s := sp[r.intn(len(sp))]
			pos = s.start
			if r.next()&1 == 1 {
				pos = s.end
			}
		}
		out = append(append(out, text[:pos]...), v)
		if kind == mutInsertString {
			// One to three bytes more, each a delimiter of the text or any
			// byte: markup opens with such runs ("<!-", "?>", "]]").
			for range 1 + r.intn(3) {
				out = append(out, delimiter(text, r))
			}
		}
		return append(out, text[pos:]...)
	}
	// Byte mutations, at a byte of a random subtree so that short tokens
	// weigh as much as long runs of text.
	pos := r.intn(n)
	if len(sp) > 0 {
		s := sp[r.intn(len(sp))]
		pos = s.start + r.intn(s.end-s.start)
	}
	switch kind {
	case mutDeleteByte:
		return append(append(out, text[:pos]...), text[pos+1:]...)
	case mutDuplicateByte:
		return append(append(out, text[:pos+1]...), text[pos:]...)
	}
	out = append(out, text...)
	out[pos] = v
	return out
}

// delimiterTries is how many bytes of the text delimiter looks at.
const delimiterTries = 8

// delimiter returns a byte of text that is printable ASCII but neither a
// letter, a digit nor a space (a delimiter, a quote, an operator), the
// first of delimiterTries bytes that r picks, or any byte if none is one or
// with odds 1 in 4.
func delimiter(text []byte, r *mutRand) byte {
	if r.intn(4) == 0 {
		return byte(r.next())
	}
	for range delimiterTries {
		if c := text[r.intn(len(text))]; c > ' ' && c < 0x7f && !isAlnum(c) {
			return c
		}
	}
	return byte(r.next())
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// A mutated input gets another mutation with odds 1 in stackOdds, up to
// maxStacked in all, so that the fuzzer also reaches errors that take two
// or three changed bytes in a row (an XML comment's "<!-"). Then the
// fuzzer's bytes after the decisions make up to maxTailEdits byte edits
// more, as WithMaxEdits's edits do.
const (
	stackOdds    = 4
	maxStacked   = 3
	maxTailEdits = 4
)

// invalidate makes in one of the invalid share, if data selects it (see
// WithInvalidShare), and reports whether it did. An input that byte edits
// changed is left as it is.
func (h *Harness) invalidate(in Input, data []byte) (Input, bool) {
	if in.Edited() || in.st == nil {
		return in, false
	}
	used := min(in.Used(), len(data))
	r, ok := h.cfg.invalidRand(data[:used])
	if !ok {
		return in, false
	}
	text := in.b
	if text == nil {
		text = []byte(in.s) // the decoder leaves b to Bytes
	}
	var sp []span
	if t := in.Tree(); t != nil && t.Len() == len(text) {
		sp = spans(t)
	}
	b := mutate(text, sp, r)
	// Now and then a few more, of bytes: the spans no longer fit.
	for range maxStacked - 1 {
		if r.intn(stackOdds) != 0 {
			break
		}
		b = mutate(b, nil, r)
	}
	// The bytes the decoding did not read edit the result, so that the
	// fuzzer's mutations of those bytes, in an input it kept for the
	// coverage it found, stack edits on the same mutated text.
	b, _ = applyEdits(b, data[used:], maxTailEdits)
	if string(b) == in.s {
		return in, false
	}
	in.st.edited, in.st.orig = true, in.s
	in.s, in.b = string(b), b
	return in, true
}
