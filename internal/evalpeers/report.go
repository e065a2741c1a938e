package evalpeers

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/seed72891827/kfuzz/internal/evalharness"
)

// A Cell is the runs of one tool on one subject.
type Cell struct {
	Subject Subject
	Tool    Tool
	Runs    []*Run
}

// Cells groups the result's runs by subject and tool, in the order of the
// configuration; a tool that did not run on a subject has no cell.
func (r *Result) Cells() []*Cell {
	var out []*Cell
	for _, s := range r.Config.Subjects {
		for _, t := range r.Config.Tools {
			c := &Cell{Subject: s, Tool: t}
			for _, run := range r.Runs {
				if run.Subject == s.Name && run.Tool == t.Name {
					c.Runs = append(c.Runs, run)
				}
			}
			if len(c.Runs) > 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// Cell returns the cell of the subject and tool, or nil.
func (r *Result) Cell(subject, tool string) *Cell {
	for _, c := range r.Cells() {
		if c.Subject.Name == subject && c.Tool.Name == tool {
			return c
		}
	}
	return nil
}

// A Spread is the median, least and greatest of a measure over runs.
type Spread = evalharness.Spread

// Coverage returns the spread of the statement coverage (percent) at the
// i-th measuring time.
func (c *Cell) Coverage(i int) Spread {
	var xs []float64
	for _, r := range c.Runs {
		xs = append(xs, r.Points[i].Percent())
	}
	return evalharness.SpreadOf(xs)
}

// Found returns the spread of the number of seeded faults detected per
// run.
func (c *Cell) Found() Spread {
	var xs []float64
	for _, r := range c.Runs {
		xs = append(xs, float64(len(r.Detected)))
	}
	return evalharness.SpreadOf(xs)
}

// Detection returns how many runs detected the fault and the median time
// to its first detection over those runs.
func (c *Cell) Detection(id int) (runs int, median time.Duration) {
	var xs []float64
	for _, r := range c.Runs {
		if at, ok := r.Detected[id]; ok {
			xs = append(xs, float64(at))
		}
	}
	return len(xs), time.Duration(evalharness.SpreadOf(xs).Median)
}

func formatSpread(s Spread, unit string, prec int) string {
	if s.Min == s.Max {
		return fmt.Sprintf("%.*f%s", prec, s.Median, unit)
	}
	return fmt.Sprintf("%.*f%s (%.*f–%.*f)", prec, s.Median, unit, prec, s.Min, prec, s.Max)
}

// WriteMarkdown writes the result as Markdown tables: coverage at the end
// of the budget and at a quarter of it, seeded faults found, time to first
// detection per fault, and per subject whether a kfuzz configuration is
// ahead of every peer.
func (r *Result) WriteMarkdown(w io.Writer) error {
	cfg := r.Config
	var b strings.Builder
	last := len(cfg.Points) - 1
	quarter := 0
	for i, p := range cfg.Points {
		if p <= cfg.Budget/4 {
			quarter = i
		}
	}
	header := func(first string) {
		b.WriteString("| " + first + " |")
		for _, s := range cfg.Subjects {
			b.WriteString(" " + s.Name + " |")
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(cfg.Subjects)) + "\n")
	}
	row := func(t Tool, cell func(c *Cell) string) {
		b.WriteString("| " + t.Name + " |")
		for _, s := range cfg.Subjects {
			c := r.Cell(s.Name, t.Name)
			if c == nil {
				b.WriteString(" – |")
				continue
			}
			b.WriteString(" " + cell(c) + " |")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Statement coverage of the subject package after %v (median of %d runs, least–greatest in parentheses):\n\n", cfg.Budget, cfg.Runs)
	header("tool")
	for _, t := range cfg.Tools {
		row(t, func(c *Cell) string { return formatSpread(c.Coverage(last), "%", 1) })
	}
	fmt.Fprintf(&b, "\nStatement coverage after %v:\n\n", cfg.Points[quarter])
	header("tool")
	for _, t := range cfg.Tools {
		row(t, func(c *Cell) string { return formatSpread(c.Coverage(quarter), "%", 1) })
	}
	fmt.Fprintf(&b, "\nSeeded faults detected in %v (median per run, least–greatest; each subject has %d; all: the sum of the medians over the subjects the tool ran on):\n\n", cfg.Budget, len(FaultsOf(cfg.Subjects[0].Name)))
	b.WriteString("| tool |")
	for _, s := range cfg.Subjects {
		b.WriteString(" " + s.Name + " |")
	}
	b.WriteString(" all |\n|---|" + strings.Repeat("---|", len(cfg.Subjects)+1) + "\n")
	for _, t := range cfg.Tools {
		b.WriteString("| " + t.Name + " |")
		all, of := 0.0, 0
		for _, s := range cfg.Subjects {
			c := r.Cell(s.Name, t.Name)
			if c == nil {
				b.WriteString(" – |")
				continue
			}
			all += c.Found().Median
			of += len(FaultsOf(s.Name))
			b.WriteString(" " + formatSpread(c.Found(), "", 0) + " |")
		}
		fmt.Fprintf(&b, " %g of %d |\n", all, of)
	}
	fmt.Fprintf(&b, "\nTime to first detection per seeded fault: median seconds over the runs that detected it, and in how many of %d runs it was detected (– : never):\n\n", cfg.Runs)
	b.WriteString("| fault | subject | input shape |")
	for _, t := range cfg.Tools {
		b.WriteString(" " + t.Name + " |")
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(cfg.Tools)) + "\n")
	for _, s := range cfg.Subjects {
		for _, f := range FaultsOf(s.Name) {
			fmt.Fprintf(&b, "| %d | %s | %s |", f.ID, s.Name, strings.ReplaceAll(f.Shape, "|", `\|`))
			for _, t := range cfg.Tools {
				c := r.Cell(s.Name, t.Name)
				n, med := 0, time.Duration(0)
				if c != nil {
					n, med = c.Detection(f.ID)
				}
				if n == 0 {
					b.WriteString(" – |")
				} else {
					fmt.Fprintf(&b, " %.1f (%d/%d) |", med.Seconds(), n, len(c.Runs))
				}
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\nPer subject, the best kfuzz configuration (by median) against the best peer:\n\n")
	b.WriteString("| subject | coverage: kfuzz / best peer | ahead | faults: kfuzz / best peer | ahead |\n|---|---|---|---|---|\n")
	for _, s := range cfg.Subjects {
		v := r.Verdict(s.Name)
		fmt.Fprintf(&b, "| %s | %.1f%% (%s) / %.1f%% (%s) | %s | %.0f (%s) / %.0f (%s) | %s |\n", s.Name,
			v.KfuzzCoverage, v.KfuzzCoverageTool, v.PeerCoverage, v.PeerCoverageTool, yesNo(v.CoverageAhead),
			v.KfuzzFaults, v.KfuzzFaultsTool, v.PeerFaults, v.PeerFaultsTool, yesNo(v.FaultsAhead))
	}
	if len(r.Prepared) > 0 {
		b.WriteString("\nTargeted seeds of kfuzz-targeted (learning and generation, once per subject, outside the budget):\n\n")
		for _, p := range r.Prepared {
			fmt.Fprintf(&b, "- %s: %d seeds for %d rarely covered functions in %v\n", p.Subject, p.Seeds, len(p.Funcs), p.Time.Round(time.Second))
		}
	}
	if len(r.Skips) > 0 {
		b.WriteString("\nNot run:\n\n")
		for _, s := range r.Skips {
			fmt.Fprintf(&b, "- %s: %s\n", s.Tool, s.Reason)
		}
	}
	for _, run := range r.Runs {
		if run.Failure != "" {
			fmt.Fprintf(&b, "\nRun %d of %s on %s stopped early: %s\n", run.N, run.Tool, run.Subject, run.Failure)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

// A Verdict compares, on one subject, the best kfuzz configuration with the
// best peer by median coverage at the end of the budget and by median
// seeded faults detected. Ahead means strictly more; a tie is not ahead.
type Verdict struct {
	KfuzzCoverage, PeerCoverage         float64
	KfuzzCoverageTool, PeerCoverageTool string
	CoverageAhead                       bool
	KfuzzFaults, PeerFaults             float64
	KfuzzFaultsTool, PeerFaultsTool     string
	FaultsAhead                         bool
}

// Verdict returns the verdict of the subject.
func (r *Result) Verdict(subject string) Verdict {
	var v Verdict
	v.KfuzzCoverage, v.PeerCoverage, v.KfuzzFaults, v.PeerFaults = -1, -1, -1, -1
	last := len(r.Config.Points) - 1
	for _, c := range r.Cells() {
		if c.Subject.Name != subject {
			continue
		}
		cov, found := c.Coverage(last).Median, c.Found().Median
		if c.Tool.IsKfuzz() {
			if cov > v.KfuzzCoverage {
				v.KfuzzCoverage, v.KfuzzCoverageTool = cov, c.Tool.Name
			}
			if found > v.KfuzzFaults {
				v.KfuzzFaults, v.KfuzzFaultsTool = found, c.Tool.Name
			}
		} else {
			if cov > v.PeerCoverage {
				v.PeerCoverage, v.PeerCoverageTool = cov, c.Tool.Name
			}
			if found > v.PeerFaults {
				v.PeerFaults, v.PeerFaultsTool = found, c.Tool.Name
			}
		}
	}
	v.CoverageAhead = v.KfuzzCoverage > v.PeerCoverage
	v.FaultsAhead = v.KfuzzFaults > v.PeerFaults
	return v
}

// toolColors are the plot's colours, one per tool in the order of Tools.
var toolColors = []string{"#7f7f7f", "#8c564b", "#e377c2", "#bcbd22", "#17becf", "#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e"}

// WriteSVG plots the median statement coverage over time of each tool, one
// panel per subject (two panels a row), with the least–greatest band of
// the runs shaded, as an SVG image.
func (r *Result) WriteSVG(w io.Writer) error {
	cfg := r.Config
	const pw, ph, ml, mr, mt, mb = 440.0, 280.0, 50.0, 10.0, 30.0, 40.0
	cols := 2
	rows := (len(cfg.Subjects) + cols - 1) / cols
	legendH := 20.0 * float64((len(cfg.Tools)+3)/4)
	width, height := pw*float64(cols), ph*float64(rows)+legendH+10
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%.0f" height="%.0f" fill="white"/>`+"\n", width, height)
	color := func(t Tool) string {
		for i, u := range Tools {
			if u.Name == t.Name {
				return toolColors[i%len(toolColors)]
			}
		}
		return "black"
	}
	for si, s := range cfg.Subjects {
		ox, oy := pw*float64(si%cols), ph*float64(si/cols)
		x0, y0, x1, y1 := ox+ml, oy+mt, ox+pw-mr, oy+ph-mb
		// The y range: from the least to the greatest coverage of the
		// subject, widened to whole multiples of 5 percent.
		lo, hi := 100.0, 0.0
		for _, c := range r.Cells() {
			if c.Subject.Name != s.Name {
				continue
			}
			for i := range cfg.Points {
				sp := c.Coverage(i)
				lo, hi = math.Min(lo, sp.Min), math.Max(hi, sp.Max)
			}
		}
		if lo > hi {
			lo, hi = 0, 100
		}
		lo, hi = math.Floor(lo/5)*5, math.Ceil(hi/5)*5
		if hi == lo {
			hi = lo + 5
		}
		xOf := func(d time.Duration) float64 { return x0 + (x1-x0)*d.Seconds()/cfg.Budget.Seconds() }
		yOf := func(p float64) float64 { return y1 - (y1-y0)*(p-lo)/(hi-lo) }
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="13" font-weight="bold">%s</text>`+"\n", x0, oy+18, s.Name)
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`+"\n", x0, y0, x1-x0, y1-y0)
		for p := lo; p <= hi+1e-9; p += 5 {
			y := yOf(p)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/><text x="%.1f" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", x0, y, x1, y, x0-4, y+4, p)
		}
		for _, at := range cfg.Points {
			x := xOf(at)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%g</text>`+"\n", x, y1+14, at.Seconds())
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">seconds of fuzzing</text>`+"\n", (x0+x1)/2, y1+30)
		for _, c := range r.Cells() {
			if c.Subject.Name != s.Name {
				continue
			}
			col := color(c.Tool)
			var upper, lower, median []string
			for i, at := range cfg.Points {
				sp := c.Coverage(i)
				x := xOf(at)
				upper = append(upper, fmt.Sprintf("%.1f,%.1f", x, yOf(sp.Max)))
				lower = append([]string{fmt.Sprintf("%.1f,%.1f", x, yOf(sp.Min))}, lower...)
				median = append(median, fmt.Sprintf("%.1f,%.1f", x, yOf(sp.Median)))
			}
			fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.12" stroke="none"/>`+"\n", strings.Join(append(upper, lower...), " "), col)
			dash := ""
			if !c.Tool.IsKfuzz() {
				dash = ` stroke-dasharray="5,3"`
			}
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s><title>%s</title></polyline>`+"\n", strings.Join(median, " "), col, dash, c.Tool.Name)
		}
	}
	ly := ph*float64(rows) + 8
	for i, t := range cfg.Tools {
		x, y := 20+float64(i%4)*(width-20)/4, ly+20*float64(i/4)
		dash := ""
		if !t.IsKfuzz() {
			dash = ` stroke-dasharray="5,3"`
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			x, y+6, x+24, y+6, color(t), dash, x+30, y+10, t.Name)
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
