package isla

import (
	"fmt"
	"strconv"
	"strings"
)

// The semantic predicates of ISLa's library (src/isla/isla_predicates.py)
// beyond count, and the padding predicates of its TAR formalization
// (src/isla_formalizations/tar.py), built in under ISLa's names:
//
//	crop(tree, width)                 the text has at most width bytes
//	ljust(tree, width, fill)          the text has width bytes
//	ljust_crop(tree, width, fill)     the text has width bytes
//	rjust(tree, width, fill)          the text has width bytes
//	rjust_crop(tree, width, fill)     the text has width bytes
//	extend_crop(tree, width)          the text has width bytes
//	ljust_crop_tar(tree, width, fill) as ljust_crop
//	rjust_crop_tar(tree, width, fill) as rjust_crop
//	octal_to_decimal(octal, decimal)  the text of octal, read in base 8, is decimal
//
// As in ISLa, a padding predicate holds when the text has the width; the
// fill character (one byte) and the side only say how the solver makes it
// hold: it pads the derived text on the left (ljust) or right (rjust) with
// the fill character, or with the text's first byte for extend_crop, crops
// it from the right (ljust) or the left (rjust) for the _crop variants, and
// parses the result back into the node. A numeric quantifier's variable in
// the width takes the text's length. ISLa's _tar variants differ from the
// others only in the parser ISLa uses; kfuzz parses from the node's
// nonterminal in the constraint's grammar, so they mean the same.
//
// octal_to_decimal computes the decimal number from a derived octal text, and
// writes the octal text (without leading zeros) from a known number.
var library = []Predicate{
	justPred{name: "crop", left: true, crop: true, atMost: true},
	justPred{name: "ljust", left: true, fill: true},
	justPred{name: "ljust_crop", left: true, crop: true, fill: true},
	justPred{name: "rjust", fill: true},
	justPred{name: "rjust_crop", crop: true, fill: true},
	justPred{name: "extend_crop", left: true, crop: true},
	justPred{name: "ljust_crop_tar", left: true, crop: true, fill: true},
	justPred{name: "rjust_crop_tar", crop: true, fill: true},
	octalPred{},
}

// An argWriter is a TreeSolver that writes the nodes of some of its own
// tree arguments, whatever their nonterminal: the compiler adds their
// nonterminals to CompiledPred.Writes.
type argWriter interface {
	TreeSolver
	writesArgs() []int
}

// justPred is a padding or cropping predicate of ISLa's library.
type justPred struct {
	name   string
	left   bool // pad on the right, crop on the right (ljust); else rjust
	crop   bool // crop a longer text
	fill   bool // a third argument gives the fill character; else the text's first byte
	atMost bool // crop: holds for a text no longer than the width
}

// Name returns the predicate's name.
func (p justPred) Name() string { return p.name }

// Params returns a tree, the width and, if it has one, the fill character.
func (p justPred) Params() []Param {
	if p.fill {
		return []Param{TreeParam, NumParam, StringParam}
	}
	return []Param{TreeParam, NumParam}
}

// Writes returns none: the written node is the tree argument (writesArgs).
func (justPred) Writes() []string { return nil }

func (justPred) writesArgs() []int { return []int{0} }

func (p justPred) width(args []Arg) (int, error) {
	w, err := strconv.Atoi(args[1].Num)
	if err != nil {
		return 0, fmt.Errorf("%s: width %q is not a number", p.name, args[1].Num)
	}
	return w, nil
}

// Eval reports whether the text has the width (at most the width for crop).
func (p justPred) Eval(args []Arg) (bool, error) {
	w, err := p.width(args)
	if err != nil {
		return false, err
	}
	if p.fill && len(args[2].Str) != 1 {
		return false, fmt.Errorf("%s: the fill character %q is not one byte", p.name, args[2].Str)
	}
	n := len(args[0].Node.Text())
	if p.atMost {
		return n <= w, nil
	}
	return n == w, nil
}

// SolveNum returns the text's length as the width.
func (p justPred) SolveNum(args []Arg, i int) ([]string, error) {
	if i != 1 {
		return nil, fmt.Errorf("%s: argument %d is not the width", p.name, i+1)
	}
	return []string{strconv.Itoa(len(args[0].Node.Text()))}, nil
}

// Solve pads and crops the derived text of the tree argument to the width.
func (p justPred) Solve(args []Arg) ([]Fix, error) {
	t := args[0].Node
	if !t.Complete() {
		return nil, ErrNotReady
	}
	w, err := p.width(args)
	if err != nil {
		return nil, err
	}
	text, err := p.justify(t.Text(), w, args)
	if err != nil {
		return nil, err
	}
	return []Fix{{Node: t, Text: text}}, nil
}

// justify pads and crops text to the width w.
func (p justPred) justify(text string, w int, args []Arg) (string, error) {
	var fill string
	switch {
	case p.fill:
		fill = args[2].Str
		if len(fill) != 1 {
			return "", fmt.Errorf("%s: the fill character %q is not one byte", p.name, fill)
		}
	case p.atMost:
	case text == "":
		return "", fmt.Errorf("%s: an empty text has no character to extend", p.name)
	default:
		fill = text[:1]
	}
	if len(text) < w && fill != "" {
		pad := strings.Repeat(fill, w-len(text))
		if p.left {
			text += pad
		} else {
			text = pad + text
		}
	}
	if p.crop && len(text) > w {
		if p.left {
			text = text[:w]
		} else {
			text = text[len(text)-w:]
		}
	}
	return text, nil
}

// octalPred is ISLa's octal_to_decimal(octal, decimal).
type octalPred struct{}

// Name returns "octal_to_decimal".
func (octalPred) Name() string { return "octal_to_decimal" }

// Params returns a tree (the octal digits) and a number.
func (octalPred) Params() []Param { return []Param{TreeParam, NumParam} }

// Writes returns none: the written node is the octal argument (writesArgs).
func (octalPred) Writes() []string { return nil }

func (octalPred) writesArgs() []int { return []int{0} }

func (octalPred) value(t Node) (uint64, bool) {
	v, err := strconv.ParseUint(t.Text(), 8, 63)
	return v, err == nil
}

// Eval reports whether the octal text is the number.
func (p octalPred) Eval(args []Arg) (bool, error) {
	v, ok := p.value(args[0].Node)
	if !ok {
		return false, nil
	}
	return strconv.FormatUint(v, 10) == strings.TrimLeft(args[1].Num, "0") ||
		v == 0 && strings.Trim(args[1].Num, "0") == "", nil
}

// SolveNum returns the number the octal text stands for.
func (p octalPred) SolveNum(args []Arg, i int) ([]string, error) {
	if i != 1 {
		return nil, fmt.Errorf("octal_to_decimal: argument %d is not the decimal number", i+1)
	}
	v, ok := p.value(args[0].Node)
	if !ok {
		return nil, fmt.Errorf("octal_to_decimal: %q is not an octal number", args[0].Node.Text())
	}
	return []string{strconv.FormatUint(v, 10)}, nil
}

// Solve writes the octal text of the number.
func (octalPred) Solve(args []Arg) ([]Fix, error) {
	v, err := strconv.ParseUint(args[1].Num, 10, 63)
	if err != nil {
		return nil, fmt.Errorf("octal_to_decimal: %q is not a number", args[1].Num)
	}
	return []Fix{{Node: args[0].Node, Text: strconv.FormatUint(v, 8)}}, nil
}
