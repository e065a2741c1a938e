package fuzzharness

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// TestSpans checks that every span holds the text of a subtree, in
// preorder, and that next is the end of the next sibling with text.
func TestSpans(t *testing.T) {
	gr := grammar.MustCompile(grammar.MustBuiltin("json"))
	c, err := NewCodec(gr)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Parse(`{"a": [1, true], "b": ""}`)
	if err != nil {
		t.Fatal(err)
	}
	text := tree.String()
	var want []span
	var walk func(t *grammar.Tree, at int)
	walk = func(t *grammar.Tree, at int) {
		if t.Len() == 0 {
			return
		}
		want = append(want, span{at, at + t.Len(), -1})
		prev := -1
		for _, ch := range t.Children {
			if ch.Len() == 0 {
				continue
			}
			if prev >= 0 {
				want[prev].next = at + ch.Len()
			}
			prev = len(want)
			walk(ch, at)
			at += ch.Len()
		}
	}
	walk(tree, 0)
	got := spans(tree)
	if len(got) != len(want) {
		t.Fatalf("%d spans, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("span %d = %+v (%q), want %+v (%q)", i, got[i], text[got[i].start:got[i].end], want[i], text[want[i].start:want[i].end])
		}
	}
}

// jsonCodec returns a codec of the built-in JSON grammar.
func jsonCodec(t *testing.T) *Codec {
	t.Helper()
	c, err := NewCodec(grammar.MustCompile(grammar.MustBuiltin("json")))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// randomData returns 8 to 127 random fuzzer bytes.
func randomData(rng *rand.Rand) []byte {
	data := make([]byte, 8+rng.IntN(120))
	for k := range data {
		data[k] = byte(rng.Uint32())
	}
	return data
}

// decisions returns the bytes of data that the decoding reads.
func decisions(c *Codec, data []byte) []byte {
	return data[:min(c.Decode(data).Used(), len(data))]
}

// TestInvalidShare checks that the share of inputs made invalid is close
// to the option's, that the same bytes give the same input, that the
// mutated inputs are counted apart and keep the valid text as Original,
// and that a share of 0 mutates nothing.
func TestInvalidShare(t *testing.T) {
	c := jsonCodec(t)
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := make([][]byte, 2000)
	for i := range inputs {
		inputs[i] = randomData(rng)
	}
	for _, p := range []float64{0, 0.1, 1} {
		h := &Harness{cfg: config{invalidShare: p}, codec: c}
		kinds := map[string]bool{}
		for _, data := range inputs {
			in, o := h.check(h.decode(data), data)
			h.count(o)
			again, o2 := h.check(h.decode(data), data)
			if again.String() != in.String() || o2 != o {
				t.Fatalf("share %v: %x gives %q (%v) and then %q (%v)", p, data, in, o, again, o2)
			}
			valid := c.Decode(data).String()
			switch {
			case o == outcomeInvalid:
				if !in.Edited() || in.Original() != valid || in.String() == valid || in.Tree().String() != valid {
					t.Fatalf("share %v: invalid input %q (edited %v) of %q, tree %q; want an edit of %q",
						p, in, in.Edited(), in.Original(), in.Tree(), valid)
				}
				d := len(in.String()) - len(valid)
				kinds[map[bool]string{true: "longer", false: "shorter"}[d > 0]] = true
			case o == outcomeValid:
				if in.Edited() || in.String() != valid {
					t.Fatalf("share %v: valid input %q (edited %v), want %q", p, in, in.Edited(), valid)
				}
			default:
				t.Fatalf("share %v: outcome %v", p, o)
			}
		}
		s := h.Stats()
		share := float64(s.Invalid) / float64(s.Inputs)
		switch {
		case p == 0 && s.Invalid != 0,
			p == 0.1 && (share < 0.08 || share > 0.12),
			p == 1 && share < 0.9: // a few mutations leave the text as it was
			t.Errorf("share %v: %d of %d inputs made invalid", p, s.Invalid, s.Inputs)
		}
		if want := float64(s.Inputs-s.Invalid) / float64(s.Inputs); s.ValidRate() != want {
			t.Errorf("share %v: ValidRate %v, want %v", p, s.ValidRate(), want)
		}
		if p == 1 && (!kinds["longer"] || !kinds["shorter"]) {
			t.Errorf("share 1: the mutations made only %v inputs", kinds)
		}
	}
}

// TestMutateKinds checks each kind of mutation on a known tree.
func TestMutateKinds(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Parse("x+12")
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(tree.String())
	sp := spans(tree)
	seen := map[string]bool{}
	for seed := range uint64(4000) {
		seen[string(mutate(text, sp, &mutRand{x: seed}))] = true
	}
	for _, want := range []string{
		"+12", "x12", "x+", // a token deleted
		"xx+12", "x++12", // a token duplicated
		"x12+",     // two siblings swapped
		"x", "x+1", // truncated
		"x+2",    // a byte deleted
		"x+112",  // a byte duplicated
		"x+x2",   // a byte replaced by one of the text
		"x1+12",  // a byte of the text inserted after a token
		"x+++12", // a string of delimiters inserted after a token
	} {
		if !seen[want] {
			t.Errorf("no mutation of %q gives %q", text, want)
		}
	}
	if string(text) != "x+12" {
		t.Errorf("mutate changed its argument to %q", text)
	}
	if got := mutate(nil, nil, &mutRand{}); len(got) != 1 {
		t.Errorf("the mutation of the empty text is %q, want one byte", got)
	}
	for seed := range uint64(200) {
		if got := mutate(text, nil, &mutRand{x: seed}); len(got) < 3 || len(got) > 8 {
			t.Errorf("without a tree, seed %d: %q is not a byte mutation or insertion of %q", seed, got, text)
		}
	}
}

// TestInvalidShareOption checks that a share outside [0, 1] stops the
// fuzz test with an error naming the option.
func TestInvalidShareOption(t *testing.T) {
	for _, p := range []float64{-0.1, 1.5} {
		f := &fakeF{t: t}
		func() {
			defer func() { recover() }()
			NewGraph(f, exprGraph, WithInvalidShare(p))
		}()
		if !strings.Contains(f.fatal, "WithInvalidShare") {
			t.Errorf("share %v gives the error %q, want one naming WithInvalidShare", p, f.fatal)
		}
	}
	f := &fakeF{t: t}
	if h := NewGraph(f, exprGraph, WithInvalidShare(0.5)); f.fatal != "" || h.cfg.invalidShare != 0.5 {
		t.Errorf("share 0.5: error %q", f.fatal)
	}
}

// TestInvalidStacked checks that about a quarter of the mutated inputs get
// more than the first mutation.
func TestInvalidStacked(t *testing.T) {
	c := jsonCodec(t)
	h := &Harness{cfg: config{invalidShare: 1}, codec: c}
	rng := rand.New(rand.NewPCG(3, 4))
	mutated, stacked := 0, 0
	for range 2000 {
		// Without the bytes after the decisions, which edit the text more.
		data := decisions(c, randomData(rng))
		valid := c.Decode(data)
		in, ok := h.invalidate(c.Decode(data), data)
		if !ok {
			continue
		}
		mutated++
		r, _ := h.cfg.invalidRand(data)
		if first := mutate(valid.b, spans(valid.Tree()), r); string(first) != in.String() {
			stacked++
		}
	}
	if share := float64(stacked) / float64(mutated); share < 0.15 || share > 0.35 {
		t.Errorf("%d of %d mutated inputs got more than one mutation, want about 1 in %d", stacked, mutated, stackOdds)
	}
}

// TestInvalidTailEdits checks that the bytes after the decisions decide
// neither whether an input is mutated nor its first mutations, and that
// they make byte edits on the mutated text: a mutated input that the
// fuzzer keeps can be mutated again by changing those bytes.
func TestInvalidTailEdits(t *testing.T) {
	c := jsonCodec(t)
	h := &Harness{cfg: config{invalidShare: 0.3}, codec: c}
	rng := rand.New(rand.NewPCG(5, 6))
	withTail, edited := 0, 0
	for range 2000 {
		data := randomData(rng)
		head := decisions(c, data)
		tail := data[len(head):]
		in, ok := h.invalidate(c.Decode(data), data)
		if _, member := h.cfg.invalidRand(head); !member {
			if ok {
				t.Fatalf("%x is mutated to %q, but its decisions %x are not of the share", data, in, head)
			}
			continue
		}
		base, _ := h.invalidate(c.Decode(head), head)
		if len(tail) == 0 {
			continue
		}
		withTail++
		want, _ := applyEdits([]byte(base.String()), tail, maxTailEdits)
		if string(want) == in.Original() {
			continue // the edits undid the mutation
		}
		if !ok || in.String() != string(want) {
			t.Fatalf("%x gives %q (mutated %v); want %q, the mutation %q of the decisions %x with the edits of %x",
				data, in, ok, want, base, head, tail)
		}
		if in.String() != base.String() {
			edited++
		}
		// Zeros appended change nothing: the edits read zeros past the end.
		more := append(data[:len(data):len(data)], 0)
		if again, _ := h.invalidate(c.Decode(more), more); again.String() != in.String() {
			t.Fatalf("%x with a zero byte appended gives %q, not %q", data, again, in)
		}
	}
	if withTail == 0 || edited < withTail/2 {
		t.Errorf("%d mutated inputs with a tail, %d of them edited by it; want some, most", withTail, edited)
	}
}

// countingNoY is noY counting its repairs.
type countingNoY struct {
	noY
	repairs *int
}

func (c countingNoY) Repair(t *grammar.Tree, seed uint64) (*grammar.Tree, bool) {
	*c.repairs++
	return c.noY.Repair(t, seed)
}

// TestInvalidShareBeforeRepair checks that the invalid share is decided
// before the constraint: a mutated input is the decoded text mutated, with
// no repair attempted, while the other inputs are repaired as usual.
func TestInvalidShareBeforeRepair(t *testing.T) {
	c, err := NewCodec(exprGraph)
	if err != nil {
		t.Fatal(err)
	}
	repairs := 0
	h := &Harness{cfg: config{invalidShare: 0.5, constraint: countingNoY{noY{c}, &repairs}}, codec: c}
	rng := rand.New(rand.NewPCG(3, 4))
	var mutatedWithY, repairedWithY int
	for range 3000 {
		data := make([]byte, 4+rng.IntN(60))
		for k := range data {
			data[k] = byte(rng.Uint32())
		}
		decoded := c.Decode(data).String()
		before := repairs
		in, o := h.check(h.decode(data), data)
		switch o {
		case outcomeInvalid:
			if repairs != before {
				t.Fatalf("%q: repaired before it was mutated to %q", decoded, in)
			}
			if in.Original() != decoded {
				t.Fatalf("mutated input %q has Original %q, want the decoded %q", in, in.Original(), decoded)
			}
			if strings.Contains(decoded, "y") {
				mutatedWithY++
			}
		case outcomeRepaired:
			if strings.Contains(in.String(), "y") {
				t.Fatalf("repaired input %q still breaks the constraint", in)
			}
			repairedWithY++
		}
	}
	if mutatedWithY == 0 || repairedWithY == 0 {
		t.Fatalf("%d mutated and %d repaired inputs that broke the constraint as decoded; want some of each", mutatedWithY, repairedWithY)
	}
}
