package mineeval

import (
	"embed"
	"fmt"
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/subjects/calc"
	"github.com/seed72891827/kfuzz/internal/subjects/cgidecode"
	"github.com/seed72891827/kfuzz/internal/subjects/jsonparse"
	"github.com/seed72891827/kfuzz/internal/subjects/tinyc"
)

// A Subject is an input language to mine: a reference grammar and an oracle
// that decides membership without the grammar.
type Subject struct {
	// Name identifies the subject on the command line ("url", "grep", ...).
	Name string
	// Description says what the language is and where the subject comes
	// from.
	Description string
	// Oracle is the subject's membership test. It is safe for concurrent
	// use and never panics.
	Oracle func(input []byte) bool
	// OracleDoc says what the oracle accepts.
	OracleDoc string
	// Code is where the subject's parser is, for miners that read code
	// (ConfigSymbolic); nil if the subject is not a Go parser of the kfuzz
	// module.
	Code *Code

	grammarName string // built-in grammar, or a file under grammars/
	builtin     bool
	golden      string // the reference grammar's text, if given here
}

// A Code names a Go parser of the kfuzz module: its package, as the go
// command names it relative to the module root, and its entry function,
// which takes the input as a string or []byte and accepts it by returning a
// nil error.
type Code struct {
	Package string // such as "./internal/subjects/calc"
	Entry   string // such as "Eval"
	// Oracle is the subject's oracle (Subject.Oracle), which Run sets for
	// the code miners that refine their grammar against the parser
	// (ConfigSymbolicRefined).
	Oracle func([]byte) bool
}

//go:embed grammars/*.bnf
var grammarFiles embed.FS

var subjects = []*Subject{
	{
		Name:        "url",
		Description: "absolute URIs (RFC 3986), kfuzz's built-in grammar url; GLADE's and Arvada's URL subject",
		Oracle:      AcceptURL,
		OracleDoc:   "net/url.Parse succeeds with a scheme, and the text keeps to RFC 3986 where net/url is lax",
		grammarName: "url", builtin: true,
	},
	{
		Name:        "grep",
		Description: "grep's basic regular expressions (POSIX BRE with GNU \\|); GLADE's Grep subject",
		Oracle:      AcceptGrep,
		OracleDoc:   "a hand-written recursive-descent recognizer of BRE syntax",
		grammarName: "grep",
	},
	{
		Name:        "lisp",
		Description: "s-expressions: symbols, numbers, strings, quotes, proper and dotted lists; GLADE's and Arvada's Lisp subject",
		Oracle:      AcceptLisp,
		OracleDoc:   "a hand-written s-expression reader",
		grammarName: "lisp",
	},
	{
		Name:        "xml",
		Description: "XML documents as the ISLa paper's grammar (kfuzz's built-in xml): tags not matched by name; GLADE's and Arvada's XML subject",
		Oracle:      AcceptXML,
		OracleDoc:   "a hand-written recognizer of elements, attributes, text and references",
		grammarName: "xml", builtin: true,
	},
	{
		Name:        "json",
		Description: "JSON texts (RFC 8259), kfuzz's built-in json; Arvada's JSON subject",
		Oracle:      AcceptJSON,
		OracleDoc:   "encoding/json.Valid, and valid UTF-8",
		grammarName: "json", builtin: true,
	},
	{
		Name:        "expr",
		Description: "arithmetic expressions of the TRIBBLE paper (kfuzz's built-in expr); Arvada's arith subject",
		Oracle:      AcceptExpr,
		OracleDoc:   "a hand-written recursive-descent recognizer",
		grammarName: "expr", builtin: true,
	},
	{
		Name:        "while",
		Description: "a small While language: assignments, if, while, integer and Boolean expressions; Arvada's while subject",
		Oracle:      AcceptWhile,
		OracleDoc:   "a hand-written recursive-descent recognizer",
		grammarName: "while",
	},
	{
		Name:        "calc",
		Description: "integer arithmetic with + - * / and parentheses: kfuzz's Go port of STALAGMITE's CALC (internal/subjects/calc)",
		Oracle:      AcceptCalc,
		OracleDoc:   "calc.Eval, the parser itself; its division-by-zero error counts as accepted (syntactically valid)",
		Code:        &Code{Package: "./internal/subjects/calc", Entry: "Eval"},
		grammarName: "calc", golden: calc.Golden,
	},
	{
		Name:        "cgidecode",
		Description: "CGI-encoded text (%XX escapes): kfuzz's Go port of STALAGMITE's CGI-DECODE (internal/subjects/cgidecode)",
		Oracle:      AcceptCGIDecode,
		OracleDoc:   "cgidecode.Decode, the parser itself",
		Code:        &Code{Package: "./internal/subjects/cgidecode", Entry: "Decode"},
		grammarName: "cgidecode", golden: cgidecode.Golden,
	},
	{
		Name:        "jsonparse",
		Description: "lenient JSON (any value as a key, NaN, Infinity, no white space): kfuzz's Go port of STALAGMITE's HARRYDC-JSON (internal/subjects/jsonparse)",
		Oracle:      AcceptJSONParse,
		OracleDoc:   "jsonparse.Parse, the parser itself",
		Code:        &Code{Package: "./internal/subjects/jsonparse", Entry: "Parse"},
		grammarName: "jsonparse", golden: jsonparse.Golden,
	},
	{
		Name:        "tinyc",
		Description: "a tiny C (if, while, do, blocks, assignments, + - <): kfuzz's Go port of STALAGMITE's TINY-C (internal/subjects/tinyc)",
		Oracle:      AcceptTinyC,
		OracleDoc:   "tinyc.Parse, the parser itself",
		Code:        &Code{Package: "./internal/subjects/tinyc", Entry: "Parse"},
		grammarName: "tinyc", golden: tinyc.Golden,
	},
}

// Subjects returns all subjects in the order of the evaluation table.
func Subjects() []*Subject { return slices.Clone(subjects) }

// Names returns the names of all subjects.
func Names() []string {
	names := make([]string, len(subjects))
	for i, s := range subjects {
		names[i] = s.Name
	}
	return names
}

// Lookup returns the subject called name.
func Lookup(name string) (*Subject, error) {
	for _, s := range subjects {
		if s.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("unknown subject %q (have %s)", name, strings.Join(Names(), ", "))
}

// Grammar returns the subject's reference grammar, freshly parsed.
func (s *Subject) Grammar() (*grammar.Grammar, error) {
	if s.builtin {
		return grammar.Builtin(s.grammarName)
	}
	if s.golden != "" {
		return grammar.Parse(s.grammarName+"/golden.bnf", []byte(s.golden))
	}
	name := "grammars/" + s.grammarName + ".bnf"
	src, err := grammarFiles.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return grammar.Parse(name, src)
}

// Graph returns the compiled reference grammar.
func (s *Subject) Graph() (*grammar.Graph, error) {
	g, err := s.Grammar()
	if err != nil {
		return nil, err
	}
	return grammar.Compile(g)
}

// GrammarEnv is the environment variable by which kfuzz eval mine -cover
// gives the fuzz tests of this package (FuzzURLGrammar, FuzzJSONGrammar) a
// mined grammar file; without it they use the subject's reference grammar.
const GrammarEnv = "KFUZZ_MINEEVAL_GRAMMAR"
