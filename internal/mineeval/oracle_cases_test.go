package mineeval

import "testing"

// oracleCases are hand-written inputs per subject that the oracle must
// accept (valid) and reject (invalid), each also checked against the
// reference grammar's Earley parser.
var oracleCases = map[string]struct{ valid, invalid []string }{
	"url": {
		valid: []string{"http://example.com/a/b?c=d#e", "mailto:a@b", "a:", "a://", "ftp://u:p@[::1]:21/", "x+y.z-1:/%41b",
			"http://1.2.3.4:80", "s://h?q/?#f/?", "urn:isbn:0451450523"},
		invalid: []string{"", "example.com", "1a:b", "http://a b", "http://a/%4", "http://a/%zz", "http://a#b#c",
			"http://[::1", "http://a:b", "http://a@b@c", "http://a:1:2", "a:/[x]", "http://[v1.x]/", "http://ex%41mple/",
			"http://a/\x7f", "http://a/é"},
	},
	"grep": {
		valid: []string{"", "abc", "^a.*b$", `a\{2\}`, `a\{2,\}`, `a\{2,7\}`, `\(ab\)*\|c`, "[a-z0-9_]", "[^[:alpha:] ]",
			`\.\*\[\]\\\^\$`, `x\(\)`, "{}|+?()"},
		invalid: []string{"*a", "a^", "a$b", `a\{7,2\}`, `a\{x\}`, `\{1\}`, "[]", "[z-a]", "[a-]", "[[:foo:]]", `\(a`,
			`a\)`, `\q`, "[abc", `a\|*`},
	},
	"lisp": {
		valid: []string{"a", "()", "(a b c)", "(a . b)", "(+ 1 2.5)", `("s t" 'x)`, "'(a (b c) . d)", "car-2"},
		invalid: []string{"", "(", ")", "(a  b)", "( a)", "(a )", "(. a)", "(a . b c)", "1a", "A", `"a`, "1.", "(a)(b)",
			"a b"},
	},
	"xml": {
		valid: []string{"<a/>", "<a>x</a>", "<a>x</b>", `<p:a x="1" y:z="&amp;">t<b/>u</p:a>`, "<a><b/></a>",
			"<_a.b-c>&#123;&#x1AB;é</_a.b-c>"},
		invalid: []string{"", "<a>", "<a></a>", "<a >x</a>", `<a x='1'/>`, `<a x=""/>`, "<a>x&y</a>", "<a>]</a>",
			"<a>x</a>y", "<1a/>", "<a:b:c/>", "<a>&#012;</a>", "<!-- c --><a/>", "<a>x</a >"},
	},
	"json": {
		valid:   []string{"0", " [1, -2.5e+3, true] ", `{"a": {"b": null}}`, `"\u00e9\n"`, "[]", "{ }"},
		invalid: []string{"", "01", "[1,]", "{a: 1}", `"\x"`, "tru", "[1] [2]", "\"\xff\"", "1.", "-", "{\"a\" 1}"},
	},
	"expr": {
		valid:   []string{"x", "12", "(x+1)*-y", "++x--y", "x%(y/z)", "+-+-0"},
		invalid: []string{"", "a", "x+", "(x", "x)", "x y", "x**y", "1.5", "()"},
	},
	"while": {
		valid: []string{"skip", "x := 1", "x1 := (y + 2); skip", "while !x < 10 && true do x := (x + 1) end",
			"if true then skip else y := 0 end"},
		invalid: []string{"", "x := 01", "x:=1", "skip;skip", "skip; ", "while true do skip", "if true then skip end",
			"x := (1+2)", "X := 1", "x := y + 1", "skip;  skip"},
	},
	"calc": {
		valid:   []string{"1", "-2", "1+2*3", "(1-2)/-3", "1/0", "5/(2/8)", "007", "1/0+(2)"},
		invalid: []string{"", "1+", "(1", "--1", "1 + 2", "+1", "()", "1)", "1*/2", "1/0)", "-(1/0", "2/0x"},
	},
	"cgidecode": {
		valid:   []string{"", "abc", "a+b", "%41%4a%Ff", "\x00\xff", "100%25"},
		invalid: []string{"%", "%4", "%4g", "a%zz", "%%41"},
	},
	"jsonparse": {
		valid:   []string{"1", "-.5e+3", "NaN", "-Infinity", "inf", `"a"`, "[]", "[1,[2]]", "{}", `{1:"x",null:[]}`, "true"},
		invalid: []string{"", "[1,]", "{1}", "nul", "\"abc", "1e", ".", "[ 1]", "1.", `""x`, "{1:2,}"},
	},
	"tinyc": {
		valid:   []string{";", "a=1;", "{ i=1; while (i<100) i=i+i; }", "do;while(1);", "if(a)b;else c;", " {}\n"},
		invalid: []string{"", "a", "1=a;", "doa=1;while(a);", "if(a)b;elsec;", "ab;", "a+b=1;", "(a)=1;"},
	},
}

func TestOracleCases(t *testing.T) {
	for _, s := range Subjects() {
		cases, ok := oracleCases[s.Name]
		if !ok {
			t.Errorf("no hand-written cases for subject %s", s.Name)
			continue
		}
		_, p := referenceParser(t, s)
		for _, in := range cases.valid {
			if !s.Oracle([]byte(in)) {
				t.Errorf("%s: oracle rejects valid %q", s.Name, in)
			}
			if err := p.Recognize([]byte(in)); err != nil {
				t.Errorf("%s: reference grammar rejects valid %q: %v", s.Name, in, err)
			}
		}
		for _, in := range cases.invalid {
			if s.Oracle([]byte(in)) {
				t.Errorf("%s: oracle accepts invalid %q", s.Name, in)
			}
			if p.Recognize([]byte(in)) == nil {
				t.Errorf("%s: reference grammar accepts invalid %q", s.Name, in)
			}
		}
	}
}
