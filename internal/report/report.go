// Package report writes what kfuzz learn learned, with its evidence, as a
// Markdown and a self-contained HTML report: per function the rules under
// which inputs reach it, as grammar patterns with example inputs, the
// model's accuracy, precision and recall on the test inputs, the training
// inputs by source and the k-path coverage they reached.
package report

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/learn"
)

// reportExamples is how many example inputs the report shows per rule.
const reportExamples = 3

// report is what the learn reports show, prepared from a pipeline.Learned.
type report struct {
	Target, ImportPath string
	Measured           string // the measured packages, comma-separated
	Options            pipeline.LearnOptions
	Tree               learn.Config // the trees' settings, defaults filled in
	Sources            []count      // training inputs by source
	Test               int
	Skipped            []count // inputs left out, by status
	Micro              metrics
	Mean               metrics
	PathCoverage       []pathCov
	Learned            int // functions with a tree
	Functions          int // functions of the measured packages
	Funcs              []funcReport
	Always, Never      []string
	Refinements        []refinement
}

type count struct {
	Name string
	N    int
}

type metrics struct {
	Accuracy, Precision, Recall string
	// Classes name the CSS classes of the three values: good, fair or poor.
	AccClass, PrecClass, RecClass string
}

type pathCov struct {
	L              int
	Covered, Total int
	Percent        string
}

type funcReport struct {
	Name       string
	Anchor     string
	Pos, Total int // training inputs that covered it, and all
	metrics
	TP, FP, TN, FN int
	Rules          []ruleReport
}

type ruleReport struct {
	Covered, Total int
	Gini           string
	Clauses        []clause
	Examples       []string // quoted
}

type clause struct {
	Verb    string // requires or forbids
	Rule    string // the nonterminal of the pattern
	Pattern string
	Path    string
}

type refinement struct {
	Round int
	Funcs []refinedFunc
}

type refinedFunc struct {
	Name               string
	Generated, Reached int
}

// measuredNames returns the measured packages of l for the report's title:
// their import paths, comma-separated, or the fuzz test's package when l
// does not say.
func measuredNames(l *pipeline.Learned) string {
	if len(l.Measured) == 0 {
		return l.ImportPath
	}
	return strings.Join(l.Measured, ", ")
}

// newReport prepares the report of l.
func newReport(l *pipeline.Learned) *report {
	r := &report{
		Target: l.Target, ImportPath: l.ImportPath, Measured: measuredNames(l), Options: l.Options, Tree: l.Model.Config, Test: len(l.Test),
		Learned: len(l.Model.Funcs), Functions: l.Functions,
		Always: l.Model.Always, Never: l.Model.Never,
	}
	bySource := map[string]int{}
	for _, o := range l.Train {
		bySource[o.Source]++
	}
	for _, src := range []string{pipeline.SourceSeed, pipeline.SourceCorpus, pipeline.SourceRandom, pipeline.SourceRefine} {
		if n := bySource[src]; n > 0 {
			r.Sources = append(r.Sources, count{src, n})
		}
	}
	byStatus := map[string]int{}
	for _, o := range l.Skipped {
		byStatus[string(o.Status)]++
	}
	for st, n := range byStatus {
		r.Skipped = append(r.Skipped, count{st, n})
	}
	slices.SortFunc(r.Skipped, func(a, b count) int { return strings.Compare(a.Name, b.Name) })
	r.Micro = newMetrics(l.Eval.Micro.Accuracy(), l.Eval.Micro.Precision(), l.Eval.Micro.Recall())
	r.Mean = newMetrics(l.Eval.MeanAccuracy, l.Eval.MeanPrecision, l.Eval.MeanRecall)
	for _, pc := range l.PathCoverage {
		r.PathCoverage = append(r.PathCoverage, pathCov{pc.L, pc.Covered, pc.Total, percent(pc.Covered, pc.Total)})
	}
	pt := l.Model.Table
	for i, fn := range l.Model.Funcs {
		ev := l.Eval.Funcs[i]
		fr := funcReport{
			Name: fn.Name, Anchor: fmt.Sprintf("f%d", i+1), Pos: fn.Pos, Total: fn.Pos + fn.Neg,
			metrics: newMetrics(ev.Accuracy(), ev.Precision(), ev.Recall()),
			TP:      ev.TP, FP: ev.FP, TN: ev.TN, FN: ev.FN,
		}
		// The rules whose leaves the most covering inputs reached first.
		rules := slices.Clone(fn.Rules)
		slices.SortStableFunc(rules, func(a, b *learn.Rule) int { return b.Pos - a.Pos })
		for _, rule := range rules {
			rr := ruleReport{Covered: rule.Pos, Total: rule.Pos + rule.Neg, Gini: fmt.Sprintf("%.2f", rule.Gini())}
			add := func(verb string, ids []int) {
				for _, id := range ids {
					if f := rule.Extra(pt, id); f != nil {
						rr.Clauses = append(rr.Clauses, clause{Verb: verb, Path: f.Format(pt.Graph)})
						continue
					}
					p := pt.Path(id)
					c := clause{Verb: verb, Path: learn.PathLabel(pt.Graph, p)}
					if pat, err := learn.NewPattern(pt.Graph, p); err == nil {
						c.Rule, c.Pattern = pat.Rule, pat.String()
					}
					rr.Clauses = append(rr.Clauses, c)
				}
			}
			add("requires", rule.Required)
			add("forbids", rule.Forbidden)
			for _, o := range pipeline.Examples(l.Model, l.Train, fn.Name, rule, reportExamples) {
				rr.Examples = append(rr.Examples, strconv.Quote(o.Text))
			}
			fr.Rules = append(fr.Rules, rr)
		}
		r.Funcs = append(r.Funcs, fr)
	}
	for _, ref := range l.Refinements {
		rf := refinement{Round: ref.Round}
		for i, name := range ref.Funcs {
			rf.Funcs = append(rf.Funcs, refinedFunc{name, ref.Generated[i], ref.Reached[i]})
		}
		r.Refinements = append(r.Refinements, rf)
	}
	return r
}

func newMetrics(acc, prec, rec float64) metrics {
	return metrics{
		Accuracy: num(acc), Precision: num(prec), Recall: num(rec),
		AccClass: grade(acc), PrecClass: grade(prec), RecClass: grade(rec),
	}
}

// num formats a ratio with three decimals, or "–" if it is undefined.
func num(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.3f", x)
}

// grade classes a ratio for the HTML report's colours.
func grade(x float64) string {
	switch {
	case math.IsNaN(x):
		return "none"
	case x >= 0.9:
		return "good"
	case x >= 0.7:
		return "fair"
	}
	return "poor"
}

func percent(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// mdCode returns s as a Markdown code span, with a fence of backticks longer
// than any run of backticks in s.
func mdCode(s string) string {
	run, longest := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

var templateFuncs = map[string]any{
	"code": mdCode,
	"join": strings.Join,
	"inc":  func(i int) int { return i + 1 },
}

// WriteMarkdown writes the report of a learned model in Markdown: overall
// figures, the k-path coverage of the training set, and per function its
// accuracy, precision and recall on the test set, its rules as patterns of
// the grammar and example inputs.
func WriteMarkdown(w io.Writer, l *pipeline.Learned) error {
	var b bytes.Buffer
	if err := markdownTemplate.Execute(&b, newReport(l)); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteHTML writes the report of WriteMarkdown as a self-contained HTML page
// (inline style, no scripts or external resources).
func WriteHTML(w io.Writer, l *pipeline.Learned) error {
	var b bytes.Buffer
	if err := htmlTemplate.Execute(&b, newReport(l)); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

var markdownTemplate = template.Must(template.New("md").Funcs(templateFuncs).Parse(`# What reaches the functions of {{.Measured}}

A model learned by kfuzz from the fuzz test {{code .Target}} of {{code .ImportPath}}: for every function of the measured
packages, a decision tree over the k-paths (k ≤ {{.Options.K}}) of the inputs that predicts whether an
input covers the function, and the rules read off its covering leaves.

## Overall

| | accuracy | precision | recall |
|---|---|---|---|
| all (input, function) pairs | {{.Micro.Accuracy}} | {{.Micro.Precision}} | {{.Micro.Recall}} |
| mean over functions | {{.Mean.Accuracy}} | {{.Mean.Precision}} | {{.Mean.Recall}} |

- Training inputs: {{range $i, $s := .Sources}}{{if $i}}, {{end}}{{$s.N}} {{$s.Name}}{{end}}; test inputs: {{.Test}} random (another seed){{if .Skipped}}; left out: {{range $i, $s := .Skipped}}{{if $i}}, {{end}}{{$s.N}} {{$s.Name}}{{end}}{{end}}.
- Functions: {{.Learned}} learned, {{len .Always}} covered by every training input, {{len .Never}} by none, of {{.Functions}}.
- Settings: {{.Options.N}} random inputs of depth ≤ {{.Options.Depth}}, seed {{.Options.Seed}}, k = {{.Options.K}}, trees of depth ≤ {{.Tree.MaxDepth}}, rules from leaves of Gini ≤ {{.Tree.RuleGini}}, {{.Options.Refine}} refinement rounds for functions covered by fewer than {{.Options.Rare}} inputs.

### k-path coverage of the training inputs

| l | l-paths covered | of | coverage |
|---|---|---|---|
{{range .PathCoverage}}| {{.L}} | {{.Covered}} | {{.Total}} | {{.Percent}} |
{{end}}
{{- if .Refinements}}
### Refinement

{{range .Refinements}}- Round {{.Round}}: {{range $i, $f := .Funcs}}{{if $i}}; {{end}}{{code $f.Name}} {{$f.Reached}} of {{$f.Generated}}{{end}} inputs reached their function.
{{end}}{{end}}
## Functions

| function | covered in training | accuracy | precision | recall | rules |
|---|---|---|---|---|---|
{{range .Funcs}}| {{code .Name}} | {{.Pos}} of {{.Total}} | {{.Accuracy}} | {{.Precision}} | {{.Recall}} | {{len .Rules}} |
{{end}}
{{range .Funcs}}
### {{code .Name}}

Covered by {{.Pos}} of {{.Total}} training inputs. On the test set: accuracy {{.Accuracy}}, precision {{.Precision}}, recall {{.Recall}} (TP {{.TP}}, FP {{.FP}}, TN {{.TN}}, FN {{.FN}}).
{{if not .Rules}}
No rule: no leaf of its tree predicts coverage purely enough.
{{end}}{{range $i, $r := .Rules}}
Rule {{inc $i}}: {{$r.Covered}} of {{$r.Total}} training inputs at its leaf covered the function (Gini {{$r.Gini}}).
{{if not $r.Clauses}}
- any input
{{end}}{{range $r.Clauses}}
- {{.Verb}} {{if .Pattern}}{{code (printf "<%s>: %s" .Rule .Pattern)}}{{else}}{{code .Path}}{{end}}  
  path {{code .Path}}
{{- end}}
{{if $r.Examples}}
Examples: {{range $k, $e := $r.Examples}}{{if $k}}, {{end}}{{code $e}}{{end}}
{{end}}{{end}}{{end}}
## Functions without a tree
{{if .Always}}
Covered by every training input:
{{range .Always}}
- {{code .}}{{end}}
{{end}}{{if .Never}}
Covered by no training input:
{{range .Never}}
- {{code .}}{{end}}
{{end}}
`))

var htmlTemplate = htmltemplate.Must(htmltemplate.New("html").Funcs(templateFuncs).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>kfuzz: what reaches the functions of {{.Measured}}</title>
<style>
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; background: #f6f7f9; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem 2rem 4rem; }
h1 { font-size: 1.6rem; margin: 0.5rem 0 0.2rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 0.6rem; border-bottom: 1px solid #d9dde5; padding-bottom: 0.2rem; }
p.lead { color: #4a5468; margin-top: 0; }
code, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
.cards { display: flex; flex-wrap: wrap; gap: 0.8rem; margin: 1rem 0; }
.card { background: #fff; border: 1px solid #d9dde5; border-radius: 8px; padding: 0.7rem 1rem; min-width: 9rem; }
.card .v { font-size: 1.5rem; font-weight: 600; }
.card .k { color: #5b6578; font-size: 0.85rem; }
table { border-collapse: collapse; background: #fff; border: 1px solid #d9dde5; width: 100%; }
th, td { padding: 0.35rem 0.6rem; border-bottom: 1px solid #e8ebf0; text-align: left; vertical-align: top; }
th { background: #eef1f5; font-weight: 600; font-size: 0.9rem; }
th.n { text-align: right; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.good { color: #11713b; } .fair { color: #9a6700; } .poor { color: #b42318; font-weight: 600; } .none { color: #8a93a5; }
ul.facts { padding-left: 1.2rem; }
details { background: #fff; border: 1px solid #d9dde5; border-radius: 8px; margin: 0.6rem 0; padding: 0.2rem 1rem; }
details[open] { padding-bottom: 0.8rem; }
summary { cursor: pointer; padding: 0.4rem 0; font-weight: 600; }
summary .stat { font-weight: 400; color: #5b6578; margin-left: 0.6rem; }
.rule { border-left: 3px solid #3b6fd8; padding: 0.3rem 0 0.3rem 0.8rem; margin: 0.8rem 0; }
.rule h4 { margin: 0 0 0.3rem; font-size: 0.95rem; }
.clause { margin: 0.25rem 0; }
.verb { display: inline-block; min-width: 4.6rem; font-weight: 600; }
.verb.forbids { color: #b42318; } .verb.requires { color: #11713b; }
.pattern { background: #f1f4fa; border-radius: 4px; padding: 0.05rem 0.35rem; }
.path { color: #6b7487; font-size: 0.8rem; margin-left: 4.8rem; }
.examples code { background: #fff7e0; border-radius: 4px; padding: 0.05rem 0.35rem; margin-right: 0.4rem; }
.muted { color: #6b7487; }
</style>
</head>
<body>
<main>
<h1>What reaches the functions of <code>{{.Measured}}</code></h1>
<p class="lead">A model learned by kfuzz from the fuzz test <code>{{.Target}}</code> of <code>{{.ImportPath}}</code>: for every function of the measured packages, a decision tree over the k-paths (k ≤ {{.Options.K}}) of the inputs that predicts whether an input covers the function, and the rules read off its covering leaves.</p>

<div class="cards">
<div class="card"><div class="v {{.Micro.AccClass}}">{{.Micro.Accuracy}}</div><div class="k">accuracy (all pairs)</div></div>
<div class="card"><div class="v {{.Micro.PrecClass}}">{{.Micro.Precision}}</div><div class="k">precision (all pairs)</div></div>
<div class="card"><div class="v {{.Micro.RecClass}}">{{.Micro.Recall}}</div><div class="k">recall (all pairs)</div></div>
<div class="card"><div class="v">{{.Learned}}</div><div class="k">functions learned of {{.Functions}}</div></div>
<div class="card"><div class="v">{{.Test}}</div><div class="k">test inputs</div></div>
</div>

<h2>Overall</h2>
<table>
<tr><th></th><th class="n">accuracy</th><th class="n">precision</th><th class="n">recall</th></tr>
<tr><td>all (input, function) pairs</td><td class="n {{.Micro.AccClass}}">{{.Micro.Accuracy}}</td><td class="n {{.Micro.PrecClass}}">{{.Micro.Precision}}</td><td class="n {{.Micro.RecClass}}">{{.Micro.Recall}}</td></tr>
<tr><td>mean over functions</td><td class="n {{.Mean.AccClass}}">{{.Mean.Accuracy}}</td><td class="n {{.Mean.PrecClass}}">{{.Mean.Precision}}</td><td class="n {{.Mean.RecClass}}">{{.Mean.Recall}}</td></tr>
</table>
<ul class="facts">
<li>Training inputs: {{range $i, $s := .Sources}}{{if $i}}, {{end}}{{$s.N}} {{$s.Name}}{{end}}; test inputs: {{.Test}} random (another seed){{if .Skipped}}; left out: {{range $i, $s := .Skipped}}{{if $i}}, {{end}}{{$s.N}} {{$s.Name}}{{end}}{{end}}.</li>
<li>Functions: {{.Learned}} learned, {{len .Always}} covered by every training input, {{len .Never}} by none, of {{.Functions}}.</li>
<li>Settings: {{.Options.N}} random inputs of depth ≤ {{.Options.Depth}}, seed {{.Options.Seed}}, k = {{.Options.K}}, trees of depth ≤ {{.Tree.MaxDepth}}, rules from leaves of Gini ≤ {{.Tree.RuleGini}}, {{.Options.Refine}} refinement rounds for functions covered by fewer than {{.Options.Rare}} inputs.</li>
</ul>

<h2>k-path coverage of the training inputs</h2>
<table>
<tr><th class="n">l</th><th class="n">l-paths covered</th><th class="n">of</th><th class="n">coverage</th></tr>
{{range .PathCoverage}}<tr><td class="n">{{.L}}</td><td class="n">{{.Covered}}</td><td class="n">{{.Total}}</td><td class="n">{{.Percent}}</td></tr>
{{end}}</table>
{{if .Refinements}}
<h2>Refinement</h2>
<p class="muted">Inputs generated from the rules of rarely covered functions and mutants of the inputs that covered them, measured and added to the training set.</p>
<table>
<tr><th class="n">round</th><th>function</th><th class="n">reached</th><th class="n">of inputs</th></tr>
{{range $r := .Refinements}}{{range .Funcs}}<tr><td class="n">{{$r.Round}}</td><td><code>{{.Name}}</code></td><td class="n">{{.Reached}}</td><td class="n">{{.Generated}}</td></tr>
{{end}}{{end}}</table>
{{end}}
<h2>Functions</h2>
<table>
<tr><th>function</th><th class="n">covered in training</th><th class="n">accuracy</th><th class="n">precision</th><th class="n">recall</th><th class="n">rules</th></tr>
{{range .Funcs}}<tr><td><a href="#{{.Anchor}}"><code>{{.Name}}</code></a></td><td class="n">{{.Pos}} of {{.Total}}</td><td class="n {{.AccClass}}">{{.Accuracy}}</td><td class="n {{.PrecClass}}">{{.Precision}}</td><td class="n {{.RecClass}}">{{.Recall}}</td><td class="n">{{len .Rules}}</td></tr>
{{end}}</table>

<h2>Rules</h2>
{{range .Funcs}}<details id="{{.Anchor}}"{{if .Rules}} open{{end}}>
<summary><code>{{.Name}}</code><span class="stat">covered by {{.Pos}} of {{.Total}} training inputs · accuracy <span class="{{.AccClass}}">{{.Accuracy}}</span> · precision <span class="{{.PrecClass}}">{{.Precision}}</span> · recall <span class="{{.RecClass}}">{{.Recall}}</span></span></summary>
<div class="muted">On the test set: TP {{.TP}}, FP {{.FP}}, TN {{.TN}}, FN {{.FN}}.</div>
{{if not .Rules}}<p class="muted">No rule: no leaf of its tree predicts coverage purely enough.</p>{{end}}
{{range $i, $r := .Rules}}<div class="rule">
<h4>Rule {{inc $i}} <span class="muted">· {{$r.Covered}} of {{$r.Total}} training inputs at its leaf covered the function (Gini {{$r.Gini}})</span></h4>
{{if not $r.Clauses}}<div class="clause">any input</div>{{end}}
{{range $r.Clauses}}<div class="clause"><span class="verb {{.Verb}}">{{.Verb}}</span> {{if .Pattern}}<code class="pattern">&lt;{{.Rule}}&gt;: {{.Pattern}}</code>{{else}}<code class="pattern">{{.Path}}</code>{{end}}</div>
<div class="path mono">{{.Path}}</div>
{{end}}{{if $r.Examples}}<div class="examples">examples: {{range $r.Examples}}<code>{{.}}</code>{{end}}</div>{{end}}
</div>
{{end}}</details>
{{end}}
<h2>Functions without a tree</h2>
{{if .Always}}<p>Covered by every training input:</p>
<ul>{{range .Always}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}
{{if .Never}}<p>Covered by no training input:</p>
<ul>{{range .Never}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}
</main>
</body>
</html>
`))
