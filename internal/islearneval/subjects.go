// Package islearneval evaluates the constraint miner of package
// learn/islearn on the subjects of ISLearn's evaluation (Steinhöfel and
// Zeller, "Input Invariants", ESEC/FSE 2022: Table 3's DOT, ICMP echo and
// Racket, and the XML balance and Scriptsize-C def-use constraints of the
// ISLa evaluation): it mines a constraint from training samples and
// reports its recall and specificity on held-out samples, next to the
// paper's figures, and measures how a mined constraint raises the share of
// valid executions of a fuzz harness (ValidShare).
package islearneval

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/learn/islearn"
)

var (
	//go:embed testdata/dot.bnf
	dotBNF []byte
	//go:embed testdata/icmp.bnf
	icmpBNF []byte
	//go:embed testdata/racket.bnf
	racketBNF []byte
	//go:embed testdata/xml-balance.isla
	xmlBalance []byte
	//go:embed testdata/scriptsizec-def-use.isla
	scriptcDefUse []byte
)

// Paper holds a subject's figures in the paper (Table 3 for DOT, ICMP and
// Racket); Recall and Specificity are -1 where the paper gives none.
type Paper struct {
	Recall, Specificity float64
	Note                string
}

// A Subject is an input language with a validity oracle (the program, or
// for XML and Scriptsize-C the reference constraint of the ISLa paper) and
// the way its samples are made.
type Subject struct {
	Name    string
	Grammar *grammar.Grammar
	// Valid is the oracle: whether the program accepts the input.
	Valid func([]byte) bool
	// Predicates are the semantic predicates the catalog may use.
	Predicates []isla.Predicate
	// Options configure the miner (disjunctions, say).
	Options []islearn.Option
	// TrainPos and TrainNeg are the numbers of training samples; Held is
	// the number of held-out samples of each class.
	TrainPos, TrainNeg, Held int
	Paper                    Paper
	// Slow marks subjects whose samples take the solver long to make.
	Slow bool

	samples func(ctx context.Context, s *Subject, seed uint64) (*Samples, error)
}

// Samples are a subject's training and held-out inputs.
type Samples struct {
	TrainPos, TrainNeg, HeldPos, HeldNeg [][]byte
}

// Subjects returns the evaluation's subjects: xml, scriptsizec, dot, icmp
// and racket.
func Subjects() ([]*Subject, error) {
	var errs []string
	load := func(name string, src []byte) *grammar.Grammar {
		g, err := grammar.Parse(name+".bnf", src)
		if err != nil {
			errs = append(errs, err.Error())
		}
		return g
	}
	dot, icmp, racket := load("dot", dotBNF), load("icmp", icmpBNF), load("racket", racketBNF)
	xmlRef, err := reference("xml", "xml-balance.isla", xmlBalance)
	if err != nil {
		errs = append(errs, err.Error())
	}
	cRef, err := reference("scriptsizec", "scriptsizec-def-use.isla", scriptcDefUse)
	if err != nil {
		errs = append(errs, err.Error())
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("islearneval: %s", strings.Join(errs, "; "))
	}
	return []*Subject{
		{
			Name: "xml", Grammar: grammar.MustBuiltin("xml"), Valid: holds(xmlRef),
			TrainPos: 20, Held: 50, samples: solverSamples(xmlRef),
			Paper: Paper{-1, -1, "ISLa's Listing 2 (balance), written by hand there"},
		},
		{
			Name: "scriptsizec", Grammar: grammar.MustBuiltin("scriptsizec"), Valid: holds(cRef),
			TrainPos: 20, Held: 50, samples: solverSamples(cRef), Slow: true,
			Paper: Paper{-1, -1, "ISLa's def-use constraint, written by hand there"},
		},
		{
			Name: "dot", Grammar: dot, Valid: dotValid, Options: []islearn.Option{islearn.MaxDisjunction(2)},
			TrainPos: 50, TrainNeg: 50, Held: 50, samples: generatedSamples(10),
			Paper: Paper{1, 0.84, "edge operators match the graph type, one edge per statement"},
		},
		{
			Name: "icmp", Grammar: icmp, Valid: icmpValid, Predicates: []isla.Predicate{islearn.InternetChecksum},
			Options:  []islearn.Option{islearn.MaxDisjunction(2)},
			TrainPos: 50, TrainNeg: 50, Held: 50, samples: icmpSamples,
			Paper: Paper{1, 0.94, "type 00 or 08; 100% specificity with internet_checksum"},
		},
		{
			Name: "racket", Grammar: racket, Valid: racketValid,
			TrainPos: 50, TrainNeg: 50, Held: 50, samples: generatedSamples(7),
			Paper: Paper{0.72, 0.90, "def-use of variables and functions (XML + reST patterns)"},
		},
	}, nil
}

// Samples makes the subject's samples, deterministically for a seed.
func (s *Subject) Samples(ctx context.Context, seed uint64) (*Samples, error) {
	return s.samples(ctx, s, seed)
}

func reference(grammarName, file string, src []byte) (*isla.Spec, error) {
	c, err := isla.Parse(file, src)
	if err != nil {
		return nil, err
	}
	return isla.Compile(c, grammar.MustCompile(grammar.MustBuiltin(grammarName)))
}

func holds(spec *isla.Spec) func([]byte) bool {
	return func(b []byte) bool {
		r, err := spec.Check(b)
		return err == nil && r.Valid
	}
}

// A collector keeps inputs apart from those it has seen.
type collector struct {
	seen map[string]bool
}

// add appends b to dst unless dst has n inputs or b was seen.
func (c *collector) add(dst *[][]byte, b []byte, n int) bool {
	if len(*dst) >= n || c.seen[string(b)] {
		return false
	}
	c.seen[string(b)] = true
	*dst = append(*dst, b)
	return true
}

// generatedSamples labels grammar inputs (of at most maxDepth nested
// expansions) with the subject's oracle.
func generatedSamples(maxDepth int) func(context.Context, *Subject, uint64) (*Samples, error) {
	return func(_ context.Context, s *Subject, seed uint64) (*Samples, error) {
		gr, err := grammar.Compile(s.Grammar)
		if err != nil {
			return nil, err
		}
		gn := grammar.NewGenerator(gr, seed)
		gn.MaxDepth = maxDepth
		var pos, neg [][]byte
		c := collector{seen: map[string]bool{}}
		np, nn := s.TrainPos+s.Held, s.TrainNeg+s.Held
		for tries := 0; (len(pos) < np || len(neg) < nn) && tries < 400*(np+nn); tries++ {
			t, err := gn.Generate()
			if err != nil {
				continue
			}
			b := t.Bytes()
			if s.Valid(b) {
				c.add(&pos, b, np)
			} else {
				c.add(&neg, b, nn)
			}
		}
		return split(s, pos, neg)
	}
}

func split(s *Subject, pos, neg [][]byte) (*Samples, error) {
	if len(pos) < s.TrainPos+s.Held || len(neg) < s.TrainNeg+s.Held {
		return nil, fmt.Errorf("islearneval: %s: only %d valid and %d invalid samples", s.Name, len(pos), len(neg))
	}
	return &Samples{
		TrainPos: pos[:s.TrainPos], HeldPos: pos[s.TrainPos:],
		TrainNeg: neg[:s.TrainNeg], HeldNeg: neg[s.TrainNeg:],
	}, nil
}

// dotValid is what dot checks of the edges: a digraph's edges are
// directed (->), a graph's undirected (--).
func dotValid(b []byte) bool {
	directed := bytes.HasPrefix(b, []byte("digraph"))
	if directed {
		return !bytes.Contains(b, []byte("--"))
	}
	return !bytes.Contains(b, []byte("->"))
}

// icmpValid accepts an ICMP echo request or reply (type 8 or 0, code 0)
// with the right Internet checksum, written as hexadecimal bytes.
func icmpValid(b []byte) bool {
	data, err := hex.DecodeString(strings.ReplaceAll(string(b), " ", ""))
	if err != nil || len(data) < 8 || (data[0] != 0 && data[0] != 8) || data[1] != 0 {
		return false
	}
	return checksum(data) == 0
}

// checksum returns the Internet checksum of data: 0 if data holds its own.
func checksum(data []byte) uint16 {
	var s uint32
	for i := 0; i < len(data); i += 2 {
		w := uint32(data[i]) << 8
		if i+1 < len(data) {
			w |= uint32(data[i+1])
		}
		s += w
	}
	for s>>16 != 0 {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

// icmpSamples makes echo requests and replies as the valid samples (as
// ISLearn's evaluation did with pythonping) and arbitrary ICMP messages as
// the invalid ones (half of them of an echo type), a fifth of them with a
// wrong checksum; the oracle labels them all.
func icmpSamples(_ context.Context, s *Subject, seed uint64) (*Samples, error) {
	rng := rand.New(rand.NewPCG(seed, 0x69636d70))
	msg := func(typ, code byte, badSum bool) []byte {
		d := []byte{typ, code, 0, 0}
		for range 4 + rng.IntN(13) {
			d = append(d, byte(rng.IntN(256)))
		}
		sum := checksum(d)
		if badSum {
			sum ^= uint16(1 + rng.IntN(0xfffe))
		}
		d[2], d[3] = byte(sum>>8), byte(sum)
		var out []byte
		for _, x := range d {
			out = append(out, fmt.Sprintf("%02x ", x)...)
		}
		return out
	}
	types := []byte{0, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14}
	var pos, neg [][]byte
	c := collector{seen: map[string]bool{}}
	np, nn := s.TrainPos+s.Held, s.TrainNeg+s.Held
	for tries := 0; (len(pos) < np || len(neg) < nn) && tries < 100*(np+nn); tries++ {
		var b []byte
		if tries%2 == 0 {
			b = msg([]byte{0, 8}[rng.IntN(2)], 0, false)
		} else {
			// Half of the arbitrary messages have an echo type, most
			// of them code 0, so that the checksum matters.
			typ, code := types[rng.IntN(len(types))], byte(rng.IntN(4))
			if rng.IntN(2) == 0 {
				typ, code = []byte{0, 8}[rng.IntN(2)], byte(rng.IntN(4)/3)
			}
			b = msg(typ, code, rng.IntN(5) == 0)
		}
		if s.Valid(b) {
			c.add(&pos, b, np)
		} else {
			c.add(&neg, b, nn)
		}
	}
	return split(s, pos, neg)
}

// solverSamples makes the valid samples with the solver of the reference
// constraint and the invalid held-out ones with the grammar generator.
func solverSamples(ref *isla.Spec) func(context.Context, *Subject, uint64) (*Samples, error) {
	return func(ctx context.Context, s *Subject, seed uint64) (*Samples, error) {
		pos, err := solve(ctx, ref, seed, s.TrainPos+s.Held)
		if err != nil {
			return nil, err
		}
		gn := grammar.NewGenerator(ref.Graph(), seed)
		var neg [][]byte
		c := collector{seen: map[string]bool{}}
		for tries := 0; len(neg) < s.TrainNeg+s.Held && tries < 200*(s.TrainNeg+s.Held); tries++ {
			if t, err := gn.Generate(); err == nil && !s.Valid(t.Bytes()) {
				c.add(&neg, t.Bytes(), s.TrainNeg+s.Held)
			}
		}
		return split(s, pos, neg)
	}
}

// racketBuiltins are the predefined functions of the racket subject.
var racketBuiltins = map[string]bool{"+": true, "-": true, "*": true, "max": true, "min": true,
	"abs": true, "sqrt": true, "add1": true, "sub1": true, "expt": true}

// racketValid accepts a program in which every name used is predefined, a
// parameter of the enclosing definition, or defined by an earlier
// definition.
func racketValid(b []byte) bool {
	toks := strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ").Replace(string(b)))
	defined := map[string]bool{}
	i := 0
	// expr checks one expression starting at toks[i] with the given scope.
	var expr func(scope map[string]bool) bool
	expr = func(scope map[string]bool) bool {
		if i >= len(toks) {
			return false
		}
		t := toks[i]
		i++
		switch {
		case t == "(":
			for i < len(toks) && toks[i] != ")" {
				if !expr(scope) {
					return false
				}
			}
			i++
			return true
		case t[0] >= '0' && t[0] <= '9':
			return true
		}
		return racketBuiltins[t] || scope[t] || defined[t]
	}
	for i < len(toks) {
		if i+2 < len(toks) && toks[i] == "(" && toks[i+1] == "define" && toks[i+2] == "(" {
			i += 3
			if i >= len(toks) {
				return false
			}
			name := toks[i]
			params := map[string]bool{}
			for i++; i < len(toks) && toks[i] != ")"; i++ {
				params[toks[i]] = true
			}
			i++
			if !expr(params) {
				return false
			}
			i++ // the definition's ")"
			defined[name] = true
			continue
		}
		if !expr(nil) {
			return false
		}
	}
	return true
}
