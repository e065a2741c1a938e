package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
)

func init() {
	register(&command{
		name:  "isla check",
		usage: "-grammar FILE|NAME -constraint FILE [-max-derivations N] [-max-items N] [-q] INPUT...",
		short: "validate inputs against an ISLa constraint, showing the failing quantifier instance (exit 1 if any is invalid)",
		run:   runISLACheck,
	})
	register(&command{
		name:  "isla print",
		usage: "-constraint FILE [-grammar FILE|NAME]",
		short: "print an ISLa constraint in core ISLa; with -grammar, check it against the grammar too",
		run:   runISLAPrint,
	})
}

// loadConstraint reads and parses a constraint file, printing all its
// errors.
func loadConstraint(e *env, name string) (*isla.Constraint, error) {
	if name == "" {
		return nil, &exitError{code: 2, err: errors.New("no constraint given: use -constraint FILE")}
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, &exitError{code: 2, err: err}
	}
	c, err := isla.Parse(name, src)
	if err != nil {
		return nil, constraintError(e, err)
	}
	return c, nil
}

// constraintError prints every error of a constraint and returns the exit
// error.
func constraintError(e *env, err error) error {
	var list grammar.ErrorList
	if errors.As(err, &list) && len(list) > 1 {
		for _, x := range list {
			fmt.Fprintln(e.stderr, x)
		}
		return &exitError{code: 2, err: fmt.Errorf("%d errors in the constraint", len(list))}
	}
	return &exitError{code: 2, err: err}
}

// runISLACheck validates inputs. Exit status: 0 if all are valid, 1 if
// some input is invalid (or not in the grammar's language), 2 if the
// grammar or the constraint is wrong. The semantic predicates are the
// built-in count and the TAR predicates tar_checksum and tar_size of
// package tarpred; others need Go code (see package isla).
func runISLACheck(e *env, args []string) error {
	c := commands["isla check"]
	fs := newFlagSet(e, c)
	spec := fs.String("grammar", "", "grammar `file` or built-in name")
	cfile := fs.String("constraint", "", "ISLa constraint `file`")
	maxDer := fs.Int("max-derivations", isla.DefaultMaxDerivations, "derivations of an ambiguous input to try (`N`)")
	maxItems := fs.Int("max-items", 0, "bound on Earley items and links per input (0: the parser's default)")
	quiet := fs.Bool("q", false, "print only the invalid inputs, without the failure report")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		fs.Usage()
		return errUsage
	}
	if *maxDer < 1 {
		return fmt.Errorf("-max-derivations must be at least 1")
	}
	gr, err := e.loadGraph(*spec)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	con, err := loadConstraint(e, *cfile)
	if err != nil {
		return err
	}
	s, err := isla.Compile(con, gr, tarpred.Predicates(), isla.MaxDerivations(*maxDer),
		isla.WithParserOptions(grammar.MaxItems(*maxItems)))
	if err != nil {
		return constraintError(e, err)
	}
	invalid := 0
	for _, name := range files {
		data, err := readInput(e, name)
		if err != nil {
			return err
		}
		r, err := s.Check(data)
		if err != nil {
			printInputError(e.stdout, name, err)
			invalid++
			continue
		}
		if r.Valid {
			if !*quiet {
				fmt.Fprintf(e.stdout, "%s: valid\n", name)
			}
			continue
		}
		invalid++
		if *quiet {
			fmt.Fprintf(e.stdout, "%s: invalid\n", name)
			continue
		}
		report := strings.TrimSuffix(r.String(), "\n")
		fmt.Fprintf(e.stdout, "%s: %s\n", name, strings.ReplaceAll(report, "\n", "\n\t"))
	}
	if invalid > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %d inputs invalid", invalid, len(files))}
	}
	return nil
}

// runISLAPrint prints a constraint in core ISLa.
func runISLAPrint(e *env, args []string) error {
	c := commands["isla print"]
	fs := newFlagSet(e, c)
	spec := fs.String("grammar", "", "grammar `file` or built-in name to check the constraint against")
	cfile := fs.String("constraint", "", "ISLa constraint `file`")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		fs.Usage()
		return errUsage
	}
	con, err := loadConstraint(e, *cfile)
	if err != nil {
		return err
	}
	if *spec != "" {
		gr, err := e.loadGraph(*spec)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		if _, err := isla.Compile(con, gr, tarpred.Predicates()); err != nil {
			return constraintError(e, err)
		}
	}
	fmt.Fprintln(e.stdout, con)
	return nil
}
