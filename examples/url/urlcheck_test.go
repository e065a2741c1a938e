package urlcheck_test

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"testing"

	urlcheck "github.com/seed72891827/kfuzz/examples/url"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

var urlGraph = grammar.MustCompile(grammar.MustBuiltin("url"))

// examples are URLs of the url grammar added as seeds: each reaches a
// different part of net/url.
var examples = []string{
	"https://u:p%20w@example.com:8443/a/b%2Fc/./../d;p?q=1&r=%7E+x#f%21",
	"mailto:gopher@go.dev?subject=hi",
	"HTTP://[2001:db8::7]:80/?",
	"ftp://192.168.0.1/%C3%A9t%C3%A9#",
	"file:///etc/passwd",
	"urn:isbn:0451450523",
	"s://%c3%a9x%25/?a=1;b=2",
}

// FuzzURL checks net/url with URIs of the url grammar.
func FuzzURL(f *testing.F) {
	fuzzharness.NewGraph(f, urlGraph, fuzzharness.WithKPathSeeds(2), fuzzharness.WithExamples(examples...)).
		Fuzz(func(t *testing.T, in fuzzharness.Input) {
			p, err := urlcheck.PartsOf(in.Tree())
			if err != nil {
				t.Fatal(err)
			}
			if err := urlcheck.Check(in.String(), &p); err != nil {
				t.Fatalf("Check(%q): %v", in, err)
			}
		})
}

// TestGenerated runs Check over random URIs of the grammar, made by the
// grammar's generator and by decoding random bytes as the fuzzer's would be.
func TestGenerated(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	gen := grammar.NewGenerator(urlGraph, 1)
	codec, err := fuzzharness.NewCodec(urlGraph)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	for i := range n {
		var tree *grammar.Tree
		if i%2 == 0 {
			if tree, err = gen.Generate(); err != nil {
				t.Fatal(err)
			}
		} else {
			data := make([]byte, rng.IntN(200))
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			tree = codec.Decode(data).Tree()
		}
		p, err := urlcheck.PartsOf(tree)
		if err != nil {
			t.Fatal(err)
		}
		if err := urlcheck.Check(tree.String(), &p); err != nil {
			t.Errorf("Check(%q): %v", tree, err)
		}
	}
}

func parts(t *testing.T, raw string) urlcheck.Parts {
	t.Helper()
	c, err := fuzzharness.NewCodec(urlGraph)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	p, err := urlcheck.PartsOf(tree)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPartsOf(t *testing.T) {
	got := parts(t, "HTTPS://u:p@[::1]:80/a%2Fb?q#f")
	want := urlcheck.Parts{
		Scheme: "HTTPS", HasAuthority: true, HasUser: true, User: "u:p", Host: "[::1]", HasPort: true, Port: "80",
		Path: "/a%2Fb", HasQuery: true, Query: "q", HasFrag: true, Fragment: "f",
	}
	if got != want {
		t.Errorf("PartsOf = %+v, want %+v", got, want)
	}
	got = parts(t, "urn:a:b?")
	want = urlcheck.Parts{Scheme: "urn", Path: "a:b", Rootless: true, HasQuery: true}
	if got != want {
		t.Errorf("PartsOf = %+v, want %+v", got, want)
	}
	other, err := grammar.NewGenerator(grammar.MustCompile(grammar.MustBuiltin("expr")), 1).Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, tree := range []*grammar.Tree{nil, other} {
		if _, err := urlcheck.PartsOf(tree); err == nil {
			t.Errorf("PartsOf(%v) = nil error, want one: not a tree of the url grammar", tree)
		}
	}
}

// TestCheckDetects makes sure that Check reports URLs that do not hold the
// parts they should, and URLs that do not parse.
func TestCheckDetects(t *testing.T) {
	raw := "s://u@h:1/p?q#f"
	p := parts(t, raw)
	if err := urlcheck.Check(raw, &p); err != nil {
		t.Fatalf("Check(%q): %v", raw, err)
	}
	for _, change := range []func(p *urlcheck.Parts){
		func(p *urlcheck.Parts) { p.Host = "H" },
		func(p *urlcheck.Parts) { p.Host, p.Port = "h:1", "" },
		func(p *urlcheck.Parts) { p.Path, p.Query = "/p?q", "" },
		func(p *urlcheck.Parts) { p.HasQuery = false },
		func(p *urlcheck.Parts) { p.User, p.Host = "", "u@h" },
	} {
		q := p
		change(&q)
		if err := urlcheck.Check(raw, &q); err == nil {
			t.Errorf("Check(%q, %+v) = nil, want an error", raw, q)
		}
	}
	if err := urlcheck.Check("s://[::1/", nil); err == nil {
		t.Errorf("Check of an unclosed IPv6 literal = nil, want the parse error")
	}
}

func ExampleCheck() {
	fmt.Println(urlcheck.Check("https://go.dev/doc?x=1;y=2#top", nil))
	fmt.Println(urlcheck.Check("https://go.dev:port/", nil))
	// Output:
	// <nil>
	// parse "https://go.dev:port/": invalid port ":port" after host
}

// TestJoinPathEmpty pins a flaw of net/url that Check works around: joined
// to a URL with a scheme but neither host nor path, a path element becomes
// the host when the result is printed and parsed again.
func TestJoinPathEmpty(t *testing.T) {
	s, err := url.JoinPath("s:", "c", "d")
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	if s != "s://c/d" || u.Host != "c" {
		t.Errorf(`JoinPath("s:", "c", "d") = %q, parsed with host %q; if net/url no longer puts the path in the host, checkJoinPath can test these URLs too`, s, u.Host)
	}
}
