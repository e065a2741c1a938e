package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

func init() {
	register(&command{
		name:  "corpus show",
		usage: "[-grammar FILE|NAME] [-start NAME] [-max-depth D] [-max-size N] [-max-repeat R] [-max-edits E] [-tree] FILE...",
		short: "print the inputs that fuzz corpus entries decode to",
		run:   runCorpusShow,
	})
	register(&command{
		name:  "corpus ls",
		usage: "[-grammar FILE|NAME] [-start NAME] [-max-depth D] [-max-size N] [-max-repeat R] [-max-edits E] DIR",
		short: "list the entries of a fuzz corpus directory with their decoded inputs",
		run:   runCorpusLs,
	})
}

// corpusFlags are the flags that choose how corpus entries are decoded.
type corpusFlags struct {
	e         *env
	fs        *flag.FlagSet
	spec      *string
	start     *string
	maxDepth  *int
	maxSize   *int
	maxRepeat *int
	maxEdits  *int
}

func newCorpusFlags(e *env, fs *flag.FlagSet) *corpusFlags {
	return &corpusFlags{
		e:         e,
		fs:        fs,
		spec:      fs.String("grammar", "", "decode with this grammar `file` or built-in name (default: ask the fuzz test, with go test)"),
		start:     fs.String("start", "", "start the grammar at this nonterminal (with -grammar)"),
		maxDepth:  fs.Int("max-depth", 0, "the harness's MaxDepth (default: the fuzz test's, or with -grammar the harness default)"),
		maxSize:   fs.Int("max-size", 0, "the harness's MaxSize (default: the fuzz test's, or with -grammar the harness default)"),
		maxRepeat: fs.Int("max-repeat", 0, "the harness's MaxRepeat (default: the fuzz test's, or with -grammar the harness default)"),
		maxEdits:  fs.Int("max-edits", 0, "the harness's MaxEdits (default: the fuzz test's, or none)"),
	}
}

// codec returns the codec that decodes the entries of the corpus directory
// dir (testdata/fuzz/FuzzX or a go test fuzz cache directory). With
// -grammar it is built from the flags; otherwise the fuzz test FuzzX is run
// with go test in its package to describe its harness, and the bound flags
// that were set override the description's bounds.
func (cf *corpusFlags) codec(dir string) (*fuzzharness.Codec, error) {
	set := map[string]bool{}
	cf.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var (
		gr   *grammar.Graph
		opts []fuzzharness.Option
		err  error
	)
	if *cf.spec != "" {
		var copts []grammar.CompileOption
		if *cf.start != "" {
			copts = append(copts, grammar.WithStart(*cf.start))
		}
		if gr, err = cf.e.loadGraph(*cf.spec, copts...); err != nil {
			return nil, err
		}
	} else {
		d, err := describeTarget(dir)
		if err != nil {
			return nil, err
		}
		if gr, err = d.Graph(); err != nil {
			return nil, fmt.Errorf("the grammar of %s: %v", d.Target, err)
		}
		opts = append(opts, fuzzharness.WithBounds(fuzzharness.Bounds(d.Bounds)))
	}
	// Bounds given as flags override the defaults and the description.
	if set["max-depth"] {
		opts = append(opts, fuzzharness.WithMaxDepth(*cf.maxDepth))
	}
	if set["max-size"] {
		opts = append(opts, fuzzharness.WithMaxSize(*cf.maxSize))
	}
	if set["max-repeat"] {
		opts = append(opts, fuzzharness.WithMaxRepeat(*cf.maxRepeat))
	}
	if set["max-edits"] {
		opts = append(opts, fuzzharness.WithMaxEdits(*cf.maxEdits))
	}
	return fuzzharness.NewCodec(gr, opts...)
}

// describeTarget runs the fuzz test whose corpus directory dir is, in its
// package, to learn its grammar and bounds.
func describeTarget(dir string) (*protocol.Description, error) {
	d, err := pipeline.DescribeCorpusDir(context.Background(), dir)
	if err != nil {
		return nil, fmt.Errorf("%w; give the grammar with -grammar", err)
	}
	return d, nil
}

// decodable reports whether the entry holds fuzzer bytes for a harness: one
// []byte value.
func decodable(e corpus.Entry) ([]byte, bool) {
	if len(e.Values) != 1 {
		return nil, false
	}
	data, ok := e.Values[0].([]byte)
	return data, ok
}

// lazyCodec builds the codec on first use, so that corpora whose entries
// need no decoding do not run go test.
type lazyCodec struct {
	cf    *corpusFlags
	dir   string
	codec *fuzzharness.Codec
	err   error
	done  bool
	// reported is set once the error has been reported.
	reported bool
}

func (l *lazyCodec) get() (*fuzzharness.Codec, error) {
	if !l.done {
		l.codec, l.err = l.cf.codec(l.dir)
		l.done = true
	}
	return l.codec, l.err
}

func runCorpusShow(e *env, args []string) error {
	c := commands["corpus show"]
	fs := newFlagSet(e, c)
	cf := newCorpusFlags(e, fs)
	tree := fs.Bool("tree", false, "print the derivation tree too")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		fs.Usage()
		return errUsage
	}
	// A bad file is reported and the others are shown; the errors are
	// returned together at the end, the codec error of a directory once.
	codecs := map[string]*lazyCodec{}
	var errs []error
	w := e.stdout
	shown := 0
	for _, path := range files {
		entry, err := corpus.ReadFile(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var codec *fuzzharness.Codec
		data, ok := decodable(entry)
		if ok {
			dir := filepath.Dir(path)
			lc := codecs[dir]
			if lc == nil {
				lc = &lazyCodec{cf: cf, dir: dir}
				codecs[dir] = lc
			}
			if codec, err = lc.get(); err != nil {
				if !lc.reported {
					errs = append(errs, err)
					lc.reported = true
				}
				continue
			}
		}
		if shown > 0 {
			fmt.Fprintln(w)
		}
		shown++
		fmt.Fprintf(w, "%s:\n", path)
		if !ok {
			for _, v := range entry.Values {
				fmt.Fprintf(w, "value: %T %s\n", v, quoteValue(v))
			}
			continue
		}
		in := codec.Decode(data)
		fmt.Fprintf(w, "data:   %d bytes, %d read by the decoder\n", len(data), min(in.Used(), len(data)))
		fmt.Fprintf(w, "input:  %d bytes %s\n", in.Len(), strconv.Quote(in.String()))
		if in.Edited() {
			fmt.Fprintf(w, "edits:  of %d bytes %s (the tree's text)\n", len(in.Original()), strconv.Quote(in.Original()))
		}
		fmt.Fprintf(w, "raw:\n%s", in.String())
		if !strings.HasSuffix(in.String(), "\n") {
			fmt.Fprintln(w)
		}
		if *tree {
			fmt.Fprintf(w, "tree:\n")
			if err := in.Tree().Format(w, false); err != nil {
				return err
			}
		}
	}
	return errors.Join(errs...)
}

// quoteValue formats a corpus value for a listing.
func quoteValue(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case []byte:
		return strconv.Quote(string(v))
	}
	return fmt.Sprint(v)
}

// maxListed is how many bytes of an input corpus ls prints.
const maxListed = 100

func runCorpusLs(e *env, args []string) error {
	c := commands["corpus ls"]
	fs := newFlagSet(e, c)
	cf := newCorpusFlags(e, fs)
	dirs, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(dirs) != 1 {
		fs.Usage()
		return errUsage
	}
	dir := dirs[0]
	if st, err := os.Stat(dir); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	entries, readErr := corpus.ReadDir(dir)
	lc := &lazyCodec{cf: cf, dir: dir}
	var b bytes.Buffer
	for _, entry := range entries {
		data, ok := decodable(entry)
		if !ok {
			var vs []string
			for _, v := range entry.Values {
				vs = append(vs, quoteValue(v))
			}
			fmt.Fprintf(&b, "%s  %s\n", entry.Name, strings.Join(vs, " "))
			continue
		}
		codec, err := lc.get()
		if err != nil {
			return err
		}
		in := codec.Decode(data)
		fmt.Fprintf(&b, "%s  %4d B -> %4d B  %s\n", entry.Name, len(data), in.Len(), clipQuote(in.String(), maxListed))
	}
	fmt.Fprintf(&b, "%d entries\n", len(entries))
	if _, err := e.stdout.Write(b.Bytes()); err != nil {
		return err
	}
	return readErr
}

// clipQuote quotes s, cut after about n bytes of s.
func clipQuote(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
}
