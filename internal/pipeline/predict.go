package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/internal/changes"
	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/learn"
)

// A TextInput is an input read from a file: a corpus entry decoded with the
// harness's codec, or a file that holds the input text.
type TextInput struct {
	// Name is the file's path.
	Name string
	// Text is the input.
	Text string
}

// ReadInputs reads inputs from files and directories, in the order given
// (see measure.FileInputs): a directory stands for its files in name order;
// a file that starts with "go test fuzz v1" is one corpus entry; any other
// file is a plain input that holds the input text. Corpus entries
// hold the harness's encoding ([]byte), which h decodes, or text (string).
func (h *Harness) ReadInputs(paths ...string) ([]TextInput, error) {
	ins, err := measure.FileInputs(paths...)
	if err != nil {
		return nil, err
	}
	out := make([]TextInput, len(ins))
	for i, in := range ins {
		out[i] = TextInput{Name: in.ID, Text: in.Text}
		if in.Data != nil {
			out[i].Text = h.Codec.Decode(in.Data).String()
		}
	}
	return out, nil
}

// An InputPrediction is what a model predicts for one input.
type InputPrediction struct {
	TextInput
	// Predictions holds the functions the input is predicted to cover,
	// sorted by name, with the rule of the leaf it reached (see
	// learn.Model.Predict).
	Predictions []learn.Prediction
	// Err says why the input could not be predicted: its text is not in
	// the grammar's language.
	Err error
}

// Predict predicts the functions each input covers. An input that does not
// parse gets an error; the others are predicted all the same.
func Predict(m *learn.Model, h *Harness, inputs []TextInput) []InputPrediction {
	out := make([]InputPrediction, len(inputs))
	for i, in := range inputs {
		out[i].TextInput = in
		ps, err := m.InputFeatures(h.Parser, []byte(in.Text))
		if err == nil {
			out[i].Predictions, err = m.Predict(ps)
		}
		out[i].Err = err
	}
	return out
}

// A Selected is an input predicted to cover some of the functions asked for.
type Selected struct {
	TextInput
	// Predictions holds one prediction per function the input is predicted
	// to cover (with a recall target: per function it was selected for), in
	// the order of the functions asked for.
	Predictions []learn.Prediction
	// Prob is the mean Prob of the predictions.
	Prob float64
}

// Select ranks the inputs predicted to cover at least one of the functions
// (see learn.Model.Select), best first. Functions may be given as
// ResolveFunc accepts them. Inputs that do not parse are returned in
// skipped with their errors.
func Select(m *learn.Model, h *Harness, funcs []string, inputs []TextInput) (sel []Selected, skipped []InputPrediction, err error) {
	sel, _, skipped, err = selectInputs(m, h, funcs, inputs, 0)
	return sel, skipped, err
}

// SelectRecall selects inputs until the expected recall of every function
// reaches recall, taking inputs by their trees' leaf probabilities (see
// learn.Model.SelectRecall), and ranks them as Select does. stats holds what
// was chosen per function, in the order of the resolved functions.
func SelectRecall(m *learn.Model, h *Harness, funcs []string, inputs []TextInput, recall float64) (sel []Selected, stats []learn.TargetRecall, skipped []InputPrediction, err error) {
	if !(recall > 0 && recall <= 1) {
		return nil, nil, nil, fmt.Errorf("the recall target %g is outside (0, 1]", recall)
	}
	return selectInputs(m, h, funcs, inputs, recall)
}

// selectInputs is Select (recall 0) and SelectRecall.
func selectInputs(m *learn.Model, h *Harness, funcs []string, inputs []TextInput, recall float64) (sel []Selected, stats []learn.TargetRecall, skipped []InputPrediction, err error) {
	targets := make([]string, 0, len(funcs))
	var errs []error
	for _, f := range funcs {
		name, err := ResolveFunc(m, f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !slices.Contains(targets, name) {
			targets = append(targets, name)
		}
	}
	if len(errs) > 0 {
		return nil, nil, nil, errors.Join(errs...)
	}
	var corpus []learn.Input
	var kept []TextInput
	for _, in := range inputs {
		ps, err := m.InputFeatures(h.Parser, []byte(in.Text))
		if err != nil {
			skipped = append(skipped, InputPrediction{TextInput: in, Err: err})
			continue
		}
		corpus = append(corpus, learn.Input{Name: in.Name, Paths: ps, Size: len(in.Text)})
		kept = append(kept, in)
	}
	var ranked []learn.Selection
	if recall > 0 {
		ranked, stats, err = m.SelectRecall(targets, corpus, recall)
	} else {
		ranked, err = m.Select(targets, corpus)
	}
	if err != nil {
		return nil, nil, skipped, err
	}
	sel = make([]Selected, len(ranked))
	for i, r := range ranked {
		sel[i] = Selected{TextInput: kept[r.Index], Predictions: r.Predictions, Prob: r.Prob}
	}
	return sel, stats, skipped, nil
}

// ChangedFuncs returns the functions a unified diff (git diff, diff -u)
// changes, as package changes finds them (changes.ChangedFuncs), split into those
// the model knows and those it does not (functions of packages that were not
// measured, or new functions). root is the directory the diff's paths are
// relative to; if empty, the top of the git work tree of the current
// directory, or else the current directory.
func ChangedFuncs(ctx context.Context, m *learn.Model, name string, diff []byte, root string) (known, unknown []string, err error) {
	fcs, err := changes.ParseDiff(name, diff)
	if err != nil {
		return nil, nil, err
	}
	if root == "" {
		root = "."
		if top, err := (gocmd.Runner{}).GitTopLevel(ctx); err == nil {
			root = filepath.FromSlash(top)
		}
	}
	importPath := func(dir string) (string, error) {
		path, err := changes.ImportPath(ctx, dir)
		if err == nil {
			return path, nil
		}
		// Not in a module the go command can list (a checkout without its
		// go.mod, a copy made for diff -u): the package the model knows whose
		// functions these are.
		known, kerr := modelImportPath(m, dir)
		if kerr != nil {
			return "", fmt.Errorf("%w; and %v", err, kerr)
		}
		return known, nil
	}
	funcs, err := changes.ChangedFuncs(fcs, root, importPath)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	for _, f := range funcs {
		if m.Knows(f) {
			known = append(known, f)
		} else {
			unknown = append(unknown, f)
		}
	}
	return known, unknown, nil
}

// modelImportPath returns the import path of the package in dir among the
// packages m knows: the one that has the most of the directory's functions
// (named without an import path). It fails when no known package has any of
// them or when two have equally many.
func modelImportPath(m *learn.Model, dir string) (string, error) {
	const placeholder = "kfuzz.invalid/dir"
	funcs, err := changes.PackageFuncs(dir, placeholder)
	if err != nil {
		return "", err
	}
	matches := map[string]int{}
	for _, name := range m.Names() {
		matches[funcImportPath(name)] += 0
	}
	for pkg := range matches {
		for _, f := range funcs {
			if m.Knows(pkg + strings.TrimPrefix(f.Name, placeholder)) {
				matches[pkg]++
			}
		}
	}
	best, tied := "", []string(nil)
	for _, pkg := range slices.Sorted(maps.Keys(matches)) {
		switch n := matches[pkg]; {
		case n == 0:
		case best == "" || n > matches[best]:
			best, tied = pkg, nil
		case n == matches[best]:
			tied = append(tied, pkg)
		}
	}
	switch {
	case best == "":
		return "", fmt.Errorf("none of the %d functions in %s is one the model knows", len(funcs), dir)
	case len(tied) > 0:
		return "", fmt.Errorf("the functions in %s are as much those of %s as of %s in the model; run kfuzz select in the module (with its go.mod)", dir, best, strings.Join(tied, " and "))
	}
	return best, nil
}

// funcImportPath returns the import path part of a function name as the
// coverage package spells it: example.com/p for example.com/p.(*T).M.
func funcImportPath(name string) string {
	slash := strings.LastIndex(name, "/") + 1
	if dot := strings.IndexByte(name[slash:], '.'); dot >= 0 {
		return name[:slash+dot]
	}
	return name
}
