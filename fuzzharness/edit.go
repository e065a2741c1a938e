package fuzzharness

// Byte edits let a harness step just outside its grammar, where a parser's
// syntax-error handling lives. With Bounds.MaxEdits = m > 0, the bytes after
// those the decisions read (the tail) edit the decoded text: the tail's
// first byte b gives the number of edits, b mod (m+1), and each edit reads
// the next four bytes (zeros past the end):
//
//   - the kind, byte mod 3: insert a byte, delete a byte, replace a byte;
//   - the position, a big-endian 16-bit number p scaled to the text, p*(n+1)
//     >> 16 for a text of n bytes, so that the same bytes point to the same
//     relative place whatever the text's length (a deletion or replacement
//     at the end edits the last byte);
//   - the byte inserted or written.
//
// Edits apply in order, each to the text the previous ones left. An empty
// tail, or one whose first byte is a multiple of m+1 (zero among them),
// edits nothing, so bytes that Codec.Encode writes, and any input with zeros
// appended, decode to the tree's own text.

// editWidth is the number of tail bytes one edit reads.
const editWidth = 4

// Kinds of edit.
const (
	editInsert = iota
	editDelete
	editReplace
	editKinds
)

// applyEdits applies the edits that tail describes, at most maxEdits of
// them, to text, reusing its array, and returns the result. It reports
// whether any edit was made.
func applyEdits(text, tail []byte, maxEdits int) ([]byte, bool) {
	if maxEdits <= 0 || len(tail) == 0 {
		return text, false
	}
	n := int(tail[0]) % (maxEdits + 1)
	at := func(i int) byte {
		if i < len(tail) {
			return tail[i]
		}
		return 0
	}
	for e := range n {
		i := 1 + e*editWidth
		kind := at(i) % editKinds
		p := int(at(i+1))<<8 | int(at(i+2))
		v := at(i + 3)
		pos := p * (len(text) + 1) >> 16
		switch {
		case kind == editInsert:
			text = append(text, 0)
			copy(text[pos+1:], text[pos:])
			text[pos] = v
		case len(text) == 0:
			// nothing to delete or replace
		case kind == editDelete:
			pos = min(pos, len(text)-1)
			text = append(text[:pos], text[pos+1:]...)
		default:
			text[min(pos, len(text)-1)] = v
		}
	}
	return text, n > 0
}
