// Package csvcheck (in examples/csv) checks Go's encoding/csv against RFC
// 4180: every file that the RFC's grammar derives (kfuzz's built-in grammar
// "csv") reads as the records it was derived with, field positions point at
// the fields, the reader's options (FieldsPerRecord, Comment,
// TrimLeadingSpace, LazyQuotes, ReuseRecord) do what they promise, and
// writing the records and reading them again, with several delimiters and
// line endings, gives the same records back, except for two known losses of
// the Writer that Check accounts for (see WriteLoss).
//
// Its fuzz test, FuzzCSV, drives Check through fuzzharness with files of
// the csv grammar, seeded with the grammar's 2-path covering forest and a
// few example files; the derivation tree of each input gives the expected
// records (RecordsOf). Run it with
//
//	go test -fuzz=FuzzCSV ./examples/csv
//
// The subject, whose coverage kfuzz measures, is encoding/csv.
package csvcheck

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// RecordsOf returns the records that a derivation tree of the csv grammar
// (kfuzz's built-in grammar "csv") derives, as encoding/csv reads them: a
// quoted field without its quotes and with "" read as ", and every CR LF
// inside it read as LF (the Reader removes a carriage return before a
// newline).
func RecordsOf(t *grammar.Tree) ([][]string, error) {
	if t == nil {
		return nil, errors.New("csvcheck: no derivation tree")
	}
	var recs [][]string
	t.Walk(func(u *grammar.Tree) bool {
		if u.Node.Kind != grammar.KindRef {
			return true
		}
		switch u.Node.Name {
		case "record":
			recs = append(recs, nil)
			return true
		case "field", "lone-field":
			if len(recs) == 0 {
				return false // reported below: no record
			}
			recs[len(recs)-1] = append(recs[len(recs)-1], fieldValue(u.String()))
			return false
		}
		return true
	})
	if len(recs) == 0 {
		return nil, fmt.Errorf("csvcheck: the tree of %q has no <record>: not a tree of the csv grammar", t)
	}
	for i, r := range recs {
		if len(r) == 0 {
			return nil, fmt.Errorf("csvcheck: record %d of the tree of %q has no <field>: not a tree of the csv grammar", i+1, t)
		}
	}
	return recs, nil
}

// fieldValue returns the value of a field as written in the file.
func fieldValue(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		s = strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// WriteLoss returns the records that a csv.Writer writing recs makes, as a
// csv.Reader reads them back, given two losses of the Writer:
//
//   - A record of a single empty field is written as an empty line, which
//     the Reader skips (go.dev/issue/39119).
//   - A field's carriage returns are written as they are, and the Reader
//     removes the one before each newline; with UseCRLF, the Writer drops
//     every carriage return of a field instead (go.dev/issue/47774).
func WriteLoss(recs [][]string, useCRLF bool) [][]string {
	var out [][]string
	for _, r := range recs {
		if len(r) == 1 && r[0] == "" {
			continue
		}
		w := make([]string, len(r))
		for i, f := range r {
			if useCRLF {
				w[i] = strings.ReplaceAll(f, "\r", "")
			} else {
				w[i] = strings.ReplaceAll(f, "\r\n", "\n")
			}
		}
		out = append(out, w)
	}
	return out
}

// A reading is what one pass of a Reader over a file returns: the records,
// and for each field whether it was quoted in the file.
type reading struct {
	recs   [][]string
	quoted [][]bool
	lines  []int    // the line on which each record starts
	spans  [][2]int // the offsets of the start of that line and of the end of the record
}

// Check reads the CSV file data with encoding/csv and checks what it makes
// of it. If want is not nil, data must read as exactly those records. In
// any case a file that reads without error must
//
//   - read the same with Read (with ReuseRecord) as with ReadAll, and with
//     LazyQuotes as without;
//   - have field positions (FieldPos) and input offsets (InputOffset) that
//     point at the fields and the ends of records in data;
//   - fail with FieldsPerRecord = 0 exactly if its records have different
//     numbers of fields, naming the line of the first record that differs;
//   - read, with Comment = '#', as its records without those that start
//     with an unquoted '#', if these are one line each;
//   - read, with TrimLeadingSpace, as its records with the leading spaces of
//     the unquoted fields removed;
//   - fail with a *csv.ParseError of the right kind and position when a
//     record with a bare quote, or with an unterminated quoted field, is
//     appended;
//   - write, with the delimiters ',', ';' and '\t' and either line ending,
//     to text that reads as its records again, up to WriteLoss.
//
// Check returns nil if all holds, and otherwise an error saying what did
// not; if want is nil, it also returns the error of ReadAll.
func Check(data []byte, want [][]string) error {
	recs, err := newReader(data).ReadAll()
	if err != nil {
		if want != nil {
			return fmt.Errorf("a file of the grammar does not read: %w", err)
		}
		return err
	}
	if want != nil && !reflect.DeepEqual(recs, want) {
		return fmt.Errorf("ReadAll = %q, want %q", recs, want)
	}
	rd, err := readPositions(data)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(rd.recs, recs) {
		return fmt.Errorf("Read with ReuseRecord gives %q, but ReadAll %q", rd.recs, recs)
	}
	lazy := newReader(data)
	lazy.LazyQuotes = true
	if got, err := lazy.ReadAll(); err != nil || !reflect.DeepEqual(got, recs) {
		return fmt.Errorf("ReadAll with LazyQuotes = %q, %v; want %q", got, err, recs)
	}
	if err := checkFieldCount(data, rd); err != nil {
		return err
	}
	if err := checkComment(data, rd); err != nil {
		return err
	}
	if err := checkTrim(data, rd); err != nil {
		return err
	}
	if err := checkErrors(data); err != nil {
		return err
	}
	for _, comma := range []rune{',', ';', '\t'} {
		for _, crlf := range []bool{false, true} {
			if err := checkWrite(recs, comma, crlf); err != nil {
				return err
			}
		}
	}
	return nil
}

// newReader returns a Reader of data that allows any number of fields per
// record.
func newReader(data []byte) *csv.Reader {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	return r
}

// readPositions reads data record by record and checks the field positions
// and input offsets.
func readPositions(data []byte) (*reading, error) {
	starts := []int{0} // the offset of each line
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	r := newReader(data)
	r.ReuseRecord = true
	rd := &reading{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("Read after %d records: %w", len(rd.recs), err)
		}
		rd.recs = append(rd.recs, slices.Clone(rec))
		quoted := make([]bool, len(rec))
		for i, f := range rec {
			line, col := r.FieldPos(i)
			if line < 1 || line > len(starts) || col < 1 {
				return nil, fmt.Errorf("record %d field %d: FieldPos = %d:%d, outside the file", len(rd.recs), i, line, col)
			}
			off := starts[line-1] + col - 1
			switch {
			case off < len(data) && data[off] == '"':
				quoted[i] = true
			case off+len(f) > len(data) || string(data[off:off+len(f)]) != f:
				return nil, fmt.Errorf("record %d field %d %q: FieldPos = %d:%d, which is not where the field is",
					len(rd.recs), i, f, line, col)
			}
			if i == 0 {
				rd.lines = append(rd.lines, line)
				rd.spans = append(rd.spans, [2]int{starts[line-1], 0})
			}
		}
		rd.quoted = append(rd.quoted, quoted)
		off := int(r.InputOffset())
		if off < 0 || off > len(data) || off < len(data) && data[off-1] != '\n' || off <= rd.spans[len(rd.spans)-1][0] {
			return nil, fmt.Errorf("record %d: InputOffset = %d, not the end of a line after its start", len(rd.recs), off)
		}
		rd.spans[len(rd.spans)-1][1] = off
	}
	if off := r.InputOffset(); off != int64(len(data)) {
		return nil, fmt.Errorf("InputOffset = %d at the end of the file, want %d", off, len(data))
	}
	return rd, nil
}

// checkFieldCount checks that FieldsPerRecord = 0 holds every record to the
// number of fields of the first.
func checkFieldCount(data []byte, rd *reading) error {
	r := csv.NewReader(bytes.NewReader(data))
	got, err := r.ReadAll()
	bad := slices.IndexFunc(rd.recs, func(rec []string) bool { return len(rec) != len(rd.recs[0]) })
	if bad < 0 {
		if err != nil || !reflect.DeepEqual(got, rd.recs) {
			return fmt.Errorf("ReadAll with FieldsPerRecord = 0: %q, %v; want %q", got, err, rd.recs)
		}
		return nil
	}
	var pe *csv.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, csv.ErrFieldCount) || pe.StartLine != rd.lines[bad] ||
		!strings.Contains(pe.Error(), csv.ErrFieldCount.Error()) {
		return fmt.Errorf("ReadAll with FieldsPerRecord = 0: %v; want %v on line %d (record %d has %d fields, not %d)",
			err, csv.ErrFieldCount, rd.lines[bad], bad+1, len(rd.recs[bad]), len(rd.recs[0]))
	}
	return nil
}

// checkErrors appends a bad record to data and checks the error.
func checkErrors(data []byte) error {
	text := string(data)
	if !strings.HasSuffix(text, "\n") {
		text += "\r\n"
	}
	line := strings.Count(text, "\n") + 1
	for _, tc := range []struct {
		record string
		err    error
		col    int
	}{
		{`x"y`, csv.ErrBareQuote, 2},
		{`"x`, csv.ErrQuote, 3},
	} {
		_, err := newReader([]byte(text + tc.record)).ReadAll()
		var pe *csv.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, tc.err) || pe.StartLine != line || pe.Line != line || pe.Column != tc.col ||
			!strings.Contains(pe.Error(), tc.err.Error()) {
			return fmt.Errorf("appending the record %q: %v; want %v on line %d, column %d", tc.record, err, tc.err, line, tc.col)
		}
	}
	return nil
}

// checkComment checks that Comment skips the records that start with an
// unquoted '#'. The Reader skips only the line, so that a record spanning
// several lines reads differently; the check is made only if every such
// record is one line.
func checkComment(data []byte, rd *reading) error {
	var want [][]string
	for i, rec := range rd.recs {
		if !rd.quoted[i][0] && strings.HasPrefix(rec[0], "#") {
			if nl := bytes.IndexByte(data[rd.spans[i][0]:rd.spans[i][1]], '\n'); nl >= 0 && nl < rd.spans[i][1]-rd.spans[i][0]-1 {
				return nil
			}
			continue
		}
		want = append(want, rec)
	}
	r := newReader(data)
	r.Comment = '#'
	got, err := r.ReadAll()
	if err != nil || !reflect.DeepEqual(got, want) {
		return fmt.Errorf("ReadAll with Comment '#' = %q, %v; want %q", got, err, want)
	}
	return nil
}

// checkTrim checks that TrimLeadingSpace trims the unquoted fields.
func checkTrim(data []byte, rd *reading) error {
	want := make([][]string, len(rd.recs))
	for i, rec := range rd.recs {
		want[i] = make([]string, len(rec))
		for j, f := range rec {
			if !rd.quoted[i][j] {
				f = strings.TrimLeft(f, " ")
			}
			want[i][j] = f
		}
	}
	r := newReader(data)
	r.TrimLeadingSpace = true
	got, err := r.ReadAll()
	if err != nil || !reflect.DeepEqual(got, want) {
		return fmt.Errorf("ReadAll with TrimLeadingSpace = %q, %v; want %q", got, err, want)
	}
	return nil
}

// checkWrite writes recs with a Writer and reads them back.
func checkWrite(recs [][]string, comma rune, crlf bool) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Comma, w.UseCRLF = comma, crlf
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			return fmt.Errorf("Write(%q) with Comma %q: %w", rec, comma, err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("Flush with Comma %q: %w", comma, err)
	}
	var all bytes.Buffer
	wa := csv.NewWriter(&all)
	wa.Comma, wa.UseCRLF = comma, crlf
	if err := wa.WriteAll(recs); err != nil || !bytes.Equal(all.Bytes(), buf.Bytes()) {
		return fmt.Errorf("WriteAll with Comma %q wrote %q, %v; Write wrote %q", comma, all.Bytes(), err, buf.Bytes())
	}
	r := newReader(buf.Bytes())
	r.Comma = comma
	got, err := r.ReadAll()
	want := WriteLoss(recs, crlf)
	if err != nil || !reflect.DeepEqual(got, want) {
		return fmt.Errorf("the records written with Comma %q and UseCRLF %v as %q read as %q, %v; want %q",
			comma, crlf, buf.Bytes(), got, err, want)
	}
	return nil
}
