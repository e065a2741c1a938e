package z3

import "fmt"

// checkTerm reports an error unless text is exactly one SMT-LIB term: a
// single atom or one balanced parenthesized expression, with optional white
// space and ;-comments around it. Text that could end the term and start
// another command (such as "true) (set-option ...") is rejected, and so are
// bytes outside printable ASCII other than tab, newline and carriage return
// (write string literals with [Quote]). Positions in errors are "line L,
// column C", both counted from 1, columns in bytes.
func checkTerm(text string) error {
	line, col := 1, 1
	pos := func() string { return fmt.Sprintf("line %d, column %d", line, col) }
	advance := func(c byte) {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	depth, terms := 0, 0
	for i := 0; i < len(text); {
		c := text[i]
		if (c < 0x20 || c > 0x7E) && c != '\t' && c != '\n' && c != '\r' {
			return fmt.Errorf("%s: byte %#02x is not printable ASCII; write string literals with Quote", pos(), c)
		}
		if c == ')' && depth == 0 {
			return fmt.Errorf("%s: unexpected ')'", pos())
		}
		if depth == 0 && terms == 1 && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ';' {
			return fmt.Errorf("%s: unexpected text after the term", pos())
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			advance(c)
			i++
		case ';':
			for i < len(text) && text[i] != '\n' {
				if b := text[i]; (b < 0x20 || b > 0x7E) && b != '\t' && b != '\r' {
					return fmt.Errorf("%s: byte %#02x is not printable ASCII", pos(), b)
				}
				advance(text[i])
				i++
			}
		case '(':
			depth++
			advance(c)
			i++
		case ')':
			depth--
			if depth == 0 {
				terms++
			}
			advance(c)
			i++
		case '"', '|':
			startLine, startCol := line, col
			advance(c)
			i++
			closed := false
			for i < len(text) {
				b := text[i]
				if (b < 0x20 || b > 0x7E) && b != '\t' && b != '\n' && b != '\r' {
					return fmt.Errorf("%s: byte %#02x is not printable ASCII; write string literals with Quote", pos(), b)
				}
				if c == '|' && b == '\\' {
					return fmt.Errorf("%s: backslash in a quoted symbol", pos())
				}
				advance(b)
				i++
				if b == c {
					if c == '"' && i < len(text) && text[i] == '"' {
						advance('"')
						i++
						continue
					}
					closed = true
					break
				}
			}
			if !closed {
				what := "string literal"
				if c == '|' {
					what = "quoted symbol"
				}
				return fmt.Errorf("line %d, column %d: unterminated %s", startLine, startCol, what)
			}
			if depth == 0 {
				terms++
			}
		default:
			for i < len(text) && !isDelimiter(text[i]) {
				if b := text[i]; b < 0x20 || b > 0x7E {
					return fmt.Errorf("%s: byte %#02x is not printable ASCII", pos(), b)
				}
				advance(text[i])
				i++
			}
			if depth == 0 {
				terms++
			}
		}
	}
	switch {
	case depth > 0:
		return fmt.Errorf("%s: missing ')'", pos())
	case terms == 0:
		return fmt.Errorf("empty term")
	}
	return nil
}

// isDelimiter reports whether c ends an atom.
func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '(', ')', '"', '|', ';':
		return true
	}
	return false
}
