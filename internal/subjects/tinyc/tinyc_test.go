package tinyc

import "testing"

func TestParse(t *testing.T) {
	for _, src := range []string{
		"{ i=1; while (i<100) i=i+i; }",
		"{ i=125; j=100; while (i-j) if (i<j) j=j-i; else i=i-j; }",
		"{ i=1; do i=i+10; while (i<50); }",
		"{ i=1; while ((i=i+10)<50) ; }",
		"{ i=7; if (i<5) x=1; if (i<10) y=2; }",
		"do;while(1);", " \n;\n ",
	} {
		if err := Parse(src); err != nil {
			t.Errorf("Parse(%q) = %v", src, err)
		}
	}
	for _, src := range []string{"", "i", "i=1", "1=i;", "doi=1;while(1);", "ab;", "i=1;}", "(i)=1;"} {
		if Parse(src) == nil {
			t.Errorf("Parse(%q) accepts", src)
		}
	}
}

func TestToken(t *testing.T) {
	for src, want := range map[string]token{"while": whileSym, " do": doSym, "a": id, "42": intTok, "": eoi, "\n ": eoi, "{": lbra} {
		if tok, ok := Token(src); !ok || token(tok) != want {
			t.Errorf("Token(%q) = %d, %v; want %d", src, tok, ok, want)
		}
	}
	for _, src := range []string{"ab", "if ", "1a", "?"} {
		if _, ok := Token(src); ok {
			t.Errorf("Token(%q) is ok", src)
		}
	}
}
