//go:build cgo

package z3

/*
#cgo LDFLAGS: -lz3
#if defined(__has_include)
#if !__has_include(<z3.h>)
#error "kfuzz/internal/z3 needs the Z3 headers and library: install libz3-dev (Debian/Ubuntu), or build with CGO_ENABLED=0 to leave Z3 out"
#endif
#endif
#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <z3.h>

// kz_new_context makes a reference-counted context whose error handler is
// disabled, so errors are reported through Z3_get_error_code only.
static Z3_context kz_new_context(void) {
	Z3_config cfg = Z3_mk_config();
	if (cfg == NULL) {
		return NULL;
	}
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c != NULL) {
		Z3_set_error_handler(c, NULL);
	}
	return c;
}

// kz_new_solver makes a solver with one reference. simple selects
// Z3_mk_simple_solver over Z3_mk_solver.
static Z3_solver kz_new_solver(Z3_context c, bool simple) {
	Z3_solver s = simple ? Z3_mk_simple_solver(c) : Z3_mk_solver(c);
	if (Z3_get_error_code(c) != Z3_OK || s == NULL) {
		return NULL;
	}
	Z3_solver_inc_ref(c, s);
	return s;
}

// kz_set_params sets the solver's timeout in milliseconds and turns off
// Z3's SIGINT handler, which is process-wide and would fight Go's.
static Z3_error_code kz_set_params(Z3_context c, Z3_solver s, unsigned timeout) {
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout);
	Z3_solver_set_params(c, s, p);
	Z3_error_code e = Z3_get_error_code(c);
	Z3_params_dec_ref(c, p);
	return e;
}

// kz_declare makes the constant name of the given sort (1 Bool, 2 Int,
// 3 String) and returns its declaration with one reference.
static Z3_func_decl kz_declare(Z3_context c, const char *name, int sort, Z3_symbol *sym) {
	Z3_sort srt;
	switch (sort) {
	case 1: srt = Z3_mk_bool_sort(c); break;
	case 2: srt = Z3_mk_int_sort(c); break;
	default: srt = Z3_mk_string_sort(c); break;
	}
	*sym = Z3_mk_string_symbol(c, name);
	Z3_func_decl d = Z3_mk_func_decl(c, *sym, 0, NULL, srt);
	if (Z3_get_error_code(c) != Z3_OK || d == NULL) {
		return NULL;
	}
	Z3_inc_ref(c, Z3_func_decl_to_ast(c, d));
	return d;
}

static void kz_release_decl(Z3_context c, Z3_func_decl d) {
	Z3_dec_ref(c, Z3_func_decl_to_ast(c, d));
}

// kz_assert parses text, a script that asserts formulas over the n
// declarations, and adds the formulas to s if there are want of them. It
// returns a Z3 error code, or -1 if the script asserts another number of
// formulas.
static int kz_assert(Z3_context c, Z3_solver s, const char *text, unsigned want, unsigned n, Z3_symbol *names, Z3_func_decl *decls) {
	// The parser does not clear the error code of an earlier call.
	Z3_set_error(c, Z3_OK);
	Z3_ast_vector v = Z3_parse_smtlib2_string(c, text, 0, NULL, NULL, n, names, decls);
	Z3_error_code e = Z3_get_error_code(c);
	if (e != Z3_OK || v == NULL) {
		return e;
	}
	Z3_ast_vector_inc_ref(c, v);
	int r = -1;
	if (Z3_ast_vector_size(c, v) == want) {
		r = Z3_OK;
		for (unsigned i = 0; i < want && r == Z3_OK; i++) {
			Z3_solver_assert(c, s, Z3_ast_vector_get(c, v, i));
			r = Z3_get_error_code(c);
		}
	}
	Z3_ast_vector_dec_ref(c, v);
	return r;
}

// kz_model returns the model of the last check with one reference, or NULL.
static Z3_model kz_model(Z3_context c, Z3_solver s) {
	Z3_model m = Z3_solver_get_model(c, s);
	if (Z3_get_error_code(c) != Z3_OK || m == NULL) {
		return NULL;
	}
	Z3_model_inc_ref(c, m);
	return m;
}

// kz_eval returns the value of the constant d in m, completing the model
// if needed, with one reference; or NULL.
static Z3_ast kz_eval(Z3_context c, Z3_model m, Z3_func_decl d) {
	Z3_ast v = Z3_model_get_const_interp(c, m, d);
	if (v != NULL && Z3_get_error_code(c) == Z3_OK) {
		Z3_inc_ref(c, v);
		if (Z3_is_string(c, v) || Z3_is_numeral_ast(c, v) || Z3_get_bool_value(c, v) != Z3_L_UNDEF) {
			return v;
		}
		Z3_dec_ref(c, v);
	}
	Z3_ast a = Z3_mk_app(c, d, 0, NULL);
	if (a == NULL) {
		return NULL;
	}
	Z3_inc_ref(c, a);
	v = NULL;
	bool ok = Z3_model_eval(c, m, a, true, &v);
	if (ok && v != NULL && Z3_get_error_code(c) == Z3_OK) {
		Z3_inc_ref(c, v);
	} else {
		v = NULL;
	}
	Z3_dec_ref(c, a);
	if (v != NULL && Z3_get_sort_kind(c, Z3_get_sort(c, v)) == Z3_SEQ_SORT && !Z3_is_string(c, v)) {
		Z3_ast w = Z3_simplify(c, v);
		if (w != NULL) {
			Z3_inc_ref(c, w);
		}
		Z3_dec_ref(c, v);
		v = w;
	}
	return v;
}

// kz_index_of_backslash returns the index of the first backslash
// character at or after from in the string literal v, -1 if there is none,
// or -2 on failure.
static long long kz_index_of_backslash(Z3_context c, Z3_ast v, unsigned from) {
	Z3_ast bs = Z3_mk_string(c, "\\u{5c}");
	Z3_inc_ref(c, bs);
	Z3_ast off = Z3_mk_unsigned_int(c, from, Z3_mk_int_sort(c));
	Z3_inc_ref(c, off);
	Z3_ast t = Z3_mk_seq_index(c, v, bs, off);
	Z3_inc_ref(c, t);
	Z3_ast r = Z3_simplify(c, t);
	int64_t res = -2;
	if (r == NULL || !Z3_is_numeral_ast(c, r) || !Z3_get_numeral_int64(c, r, &res) || res < -1) {
		res = -2;
	}
	Z3_dec_ref(c, t);
	Z3_dec_ref(c, off);
	Z3_dec_ref(c, bs);
	return res;
}

// kz_substring returns the text Z3_get_string gives for the substring of
// the string literal v of length n at offset i, or NULL. The text lasts
// until the next call on c.
static const char *kz_substring(Z3_context c, Z3_ast v, unsigned i, unsigned n) {
	Z3_ast off = Z3_mk_unsigned_int(c, i, Z3_mk_int_sort(c));
	Z3_inc_ref(c, off);
	Z3_ast len = Z3_mk_unsigned_int(c, n, Z3_mk_int_sort(c));
	Z3_inc_ref(c, len);
	Z3_ast t = Z3_mk_seq_extract(c, v, off, len);
	Z3_inc_ref(c, t);
	Z3_ast r = Z3_simplify(c, t);
	const char *res = NULL;
	if (r != NULL && Z3_is_string(c, r)) {
		res = Z3_get_string(c, r);
	}
	Z3_dec_ref(c, t);
	Z3_dec_ref(c, len);
	Z3_dec_ref(c, off);
	return res;
}

// kz_block asserts that not all n constants ds have the values vs.
static Z3_error_code kz_block(Z3_context c, Z3_solver s, unsigned n, Z3_func_decl *ds, Z3_ast *vs) {
	Z3_ast *eqs = malloc(sizeof(Z3_ast) * (n > 0 ? n : 1));
	if (eqs == NULL) {
		return Z3_MEMOUT_FAIL;
	}
	for (unsigned i = 0; i < n; i++) {
		Z3_ast a = Z3_mk_app(c, ds[i], 0, NULL);
		Z3_inc_ref(c, a);
		eqs[i] = Z3_mk_eq(c, a, vs[i]);
		Z3_inc_ref(c, eqs[i]);
		Z3_dec_ref(c, a);
	}
	Z3_ast all = Z3_mk_and(c, n, eqs);
	Z3_inc_ref(c, all);
	Z3_ast block = Z3_mk_not(c, all);
	Z3_inc_ref(c, block);
	Z3_solver_assert(c, s, block);
	Z3_error_code e = Z3_get_error_code(c);
	Z3_dec_ref(c, block);
	Z3_dec_ref(c, all);
	for (unsigned i = 0; i < n; i++) {
		Z3_dec_ref(c, eqs[i]);
	}
	free(eqs);
	return e;
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// A Solver is a Z3 solver with its own Z3 context: a stack of assertion
// scopes over a set of declared constants. Its methods may be called from
// several goroutines but run one at a time (see the package documentation).
// [Solver.Close] frees its memory. (A Solver dropped without Close is freed
// when the garbage collector finds it, but that may be late: a Z3 context
// holds megabytes.)
type Solver struct {
	mu      sync.Mutex
	c       C.Z3_context
	s       C.Z3_solver
	scratch C.Z3_solver // empty; checked to clear a stale interrupt

	decls   []decl
	syms    []C.Z3_symbol    // syms[i] names decls[i], for the parser
	fds     []C.Z3_func_decl // fds[i] is decls[i]'s declaration
	byName  map[string]int
	scopes  []int // len(decls) at each Push
	timeout uint  // the solver's timeout parameter, in milliseconds
	sat     bool  // the last Check said Sat and nothing changed since
	reason  string
	cleanup runtime.Cleanup

	imu         sync.Mutex // guards running, checks and interrupted
	running     bool       // inside Z3_solver_check
	checks      uint64     // number of Z3_solver_check calls begun
	interrupted bool       // Z3_interrupt was called during this check
}

type decl struct {
	name string
	sort Sort
}

// noTimeout is Z3's "no timeout" value.
const noTimeout = math.MaxUint32

// NewSolver returns a new, empty Solver with its own Z3 context.
func NewSolver() (*Solver, error) {
	c := C.kz_new_context()
	if c == nil {
		return nil, errors.New("z3: cannot create a Z3 context")
	}
	s := &Solver{c: c, byName: map[string]int{}, timeout: noTimeout}
	for _, p := range []*C.Z3_solver{&s.s, &s.scratch} {
		*p = C.kz_new_solver(c, p == &s.scratch)
		if *p == nil {
			err := s.err("NewSolver", C.Z3_get_error_code(c))
			C.Z3_del_context(c)
			return nil, err
		}
		if code := C.kz_set_params(c, *p, noTimeout); code != C.Z3_OK {
			err := s.err("NewSolver", code)
			C.Z3_del_context(c)
			return nil, err
		}
	}
	// A Solver dropped without Close still frees its context. Deleting the
	// context frees everything in it.
	s.cleanup = runtime.AddCleanup(s, func(c C.Z3_context) { C.Z3_del_context(c) }, c)
	return s, nil
}

// Close frees the Solver's Z3 context. After Close, every method returns
// [ErrClosed]; closing again does nothing.
func (s *Solver) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return nil
	}
	s.cleanup.Stop()
	for _, fd := range s.fds {
		C.kz_release_decl(s.c, fd)
	}
	C.Z3_solver_dec_ref(s.c, s.s)
	C.Z3_solver_dec_ref(s.c, s.scratch)
	C.Z3_del_context(s.c)
	s.c = nil
	s.decls, s.syms, s.fds, s.byName, s.scopes = nil, nil, nil, nil, nil
	return nil
}

// Declare declares a constant of the given sort, which terms passed to
// [Solver.Assert] can then use. Declarations follow the scopes of
// [Solver.Push] and [Solver.Pop], as in SMT-LIB: a Pop forgets the
// constants declared since the matching Push. A name must be made of
// printable ASCII characters other than '|' and '\'; names that are not
// simple SMT-LIB symbols are written |quoted| in terms. A name can be
// declared only once in a scope and the scopes enclosing it.
func (s *Solver) Declare(name string, sort Sort) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return ErrClosed
	}
	if sort != Bool && sort != Int && sort != String {
		return &Error{Op: "Declare", Msg: fmt.Sprintf("unknown sort %v", sort)}
	}
	if name == "" {
		return &Error{Op: "Declare", Msg: "empty name"}
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c > 0x7E || c == '|' || c == '\\' {
			return &Error{Op: "Declare", Msg: fmt.Sprintf("name %q: byte %#02x is not allowed in a symbol", name, c)}
		}
	}
	if _, dup := s.byName[name]; dup {
		return &Error{Op: "Declare", Msg: fmt.Sprintf("%s is already declared", name)}
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var sym C.Z3_symbol
	fd := C.kz_declare(s.c, cname, C.int(sort), &sym)
	if fd == nil {
		return s.err("Declare", C.Z3_get_error_code(s.c))
	}
	s.byName[name] = len(s.decls)
	s.decls = append(s.decls, decl{name, sort})
	s.syms = append(s.syms, sym)
	s.fds = append(s.fds, fd)
	return nil
}

// Assert adds constraints to the current scope. Each term is an SMT-LIB 2
// term of sort Bool over the declared constants, read by Z3 4.8.12, which
// knows the theories of integers (+, *, div, mod, <=, ...), strings
// (str.++, str.len, str.at, str.substr, str.to_int, str.from_int,
// str.prefixof, str.contains, ...) and regular expressions (str.in_re,
// str.to_re, re.*, re.+, re.union, re.++, re.range, re.allchar, ...).
// Terms must be printable ASCII: write string literals with [Quote].
//
// Either all terms are added or, on an error, none. An error gives Z3's
// message, with line and column counted in the term, and the term's
// number (from 1) if there are several. Z3 reads all terms of one call
// together, so asserting several terms in one call is faster than one by
// one.
func (s *Solver) Assert(terms ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return ErrClosed
	}
	if len(terms) == 0 {
		return nil
	}
	// Each term goes on lines of its own, so Z3's columns are the term's;
	// starts[i] is the script line where term i starts.
	var script strings.Builder
	starts := make([]int, len(terms))
	line := 1
	for i, term := range terms {
		if err := checkTerm(term); err != nil {
			return &Error{Op: "Assert", Msg: termLabel(i, len(terms)) + err.Error()}
		}
		script.WriteString("(assert\n")
		starts[i] = line + 1
		script.WriteString(term)
		script.WriteString("\n)\n")
		line += strings.Count(term, "\n") + 3
	}
	s.sat = false
	text := C.CString(script.String())
	defer C.free(unsafe.Pointer(text))
	var syms *C.Z3_symbol
	var fds *C.Z3_func_decl
	if len(s.decls) > 0 {
		syms, fds = &s.syms[0], &s.fds[0]
	}
	switch code := C.kz_assert(s.c, s.s, text, C.uint(len(terms)), C.uint(len(s.decls)), syms, fds); code {
	case C.Z3_OK:
		return nil
	case -1:
		return &Error{Op: "Assert", Msg: "Z3 read another number of assertions than terms"}
	default:
		err := s.err("Assert", C.Z3_error_code(code))
		err.Msg = fixPositions(err.Msg, terms, starts)
		return err
	}
}

// termLabel returns "term i: " (counting from 1) if there are several
// terms, and "" if there is one.
func termLabel(i, n int) string {
	if n == 1 {
		return ""
	}
	return fmt.Sprintf("term %d: ", i+1)
}

// Push opens a new scope: assertions and declarations made after it are
// forgotten by the matching [Solver.Pop].
func (s *Solver) Push() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return ErrClosed
	}
	C.Z3_solver_push(s.c, s.s)
	if code := C.Z3_get_error_code(s.c); code != C.Z3_OK {
		return s.err("Push", code)
	}
	s.scopes = append(s.scopes, len(s.decls))
	s.sat = false
	return nil
}

// Pop closes the scope opened by the last [Solver.Push], removing the
// assertions and declarations made in it.
func (s *Solver) Pop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return ErrClosed
	}
	if len(s.scopes) == 0 {
		return &Error{Op: "Pop", Msg: "no scope to pop: Pop without a matching Push"}
	}
	C.Z3_solver_pop(s.c, s.s, 1)
	if code := C.Z3_get_error_code(s.c); code != C.Z3_OK {
		return s.err("Pop", code)
	}
	mark := s.scopes[len(s.scopes)-1]
	s.scopes = s.scopes[:len(s.scopes)-1]
	for i := mark; i < len(s.decls); i++ {
		C.kz_release_decl(s.c, s.fds[i])
		delete(s.byName, s.decls[i].name)
	}
	s.decls, s.syms, s.fds = s.decls[:mark], s.syms[:mark], s.fds[:mark]
	s.sat = false
	return nil
}

// Check reports whether the assertions in all open scopes are satisfiable.
// If ctx has a deadline, Z3 gives up at it; if ctx is cancelled (or its
// deadline passes), the check is interrupted. Either way Check then returns
// Unknown and ctx's error ([context.DeadlineExceeded] or
// [context.Canceled]). When Z3 returns Unknown for another reason (its
// theories are incomplete, for example nonlinear integer arithmetic),
// Check returns Unknown and a nil error, and [Solver.ReasonUnknown] tells
// why.
func (s *Solver) Check(ctx context.Context) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.check(ctx)
}

func (s *Solver) check(ctx context.Context) (Result, error) {
	if s.c == nil {
		return Unknown, ErrClosed
	}
	s.sat = false
	s.reason = ""
	if err := ctx.Err(); err != nil {
		s.reason = "canceled"
		return Unknown, err
	}
	timeout := uint(noTimeout)
	if dl, ok := ctx.Deadline(); ok {
		ms := time.Until(dl).Milliseconds() + 1
		timeout = uint(max(1, min(ms, noTimeout-1)))
	}
	if timeout != s.timeout {
		if code := C.kz_set_params(s.c, s.s, C.uint(timeout)); code != C.Z3_OK {
			return Unknown, s.err("Check", code)
		}
		s.timeout = timeout
	}

	s.imu.Lock()
	s.running, s.interrupted = true, false
	s.checks++
	this := s.checks
	s.imu.Unlock()
	stop := func() bool { return false }
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() { s.interrupt(this) })
	}
	r := C.Z3_solver_check(s.c, s.s)
	code := C.Z3_get_error_code(s.c)
	s.imu.Lock()
	s.running = false
	interrupted := s.interrupted
	s.imu.Unlock()
	stop()
	if interrupted {
		// Z3_interrupt leaves the context's resource limit cancelled
		// if it came after the check's own reset, and a cancelled limit
		// makes model evaluation fail; any check resets it.
		C.Z3_solver_check(s.c, s.scratch)
	}
	if code != C.Z3_OK {
		return Unknown, s.err("Check", code)
	}
	switch r {
	case C.Z3_L_TRUE:
		s.sat = true
		return Sat, nil
	case C.Z3_L_FALSE:
		return Unsat, nil
	}
	s.reason = C.GoString(C.Z3_solver_get_reason_unknown(s.c, s.s))
	if err := ctx.Err(); err != nil {
		return Unknown, err
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		// Z3's timer went off a moment before ctx's deadline timer.
		return Unknown, context.DeadlineExceeded
	}
	return Unknown, nil
}

// interrupt stops the check numbered this if it is running. Z3 ignores an
// interrupt that arrives as a check starts, so it repeats until the check
// has ended.
func (s *Solver) interrupt(this uint64) {
	delay := 100 * time.Microsecond
	for {
		s.imu.Lock()
		if !s.running || s.checks != this {
			s.imu.Unlock()
			return
		}
		C.Z3_interrupt(s.c)
		s.interrupted = true
		s.imu.Unlock()
		time.Sleep(delay)
		delay = min(2*delay, 50*time.Millisecond)
	}
}

// ReasonUnknown returns Z3's explanation of the last [Solver.Check] that
// returned Unknown, such as "timeout", "canceled" or "(incomplete
// (theory arithmetic))", or "" if the last check did not.
func (s *Solver) ReasonUnknown() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reason
}

// Model returns the values of all constants declared in the open scopes,
// in the model found by the last [Solver.Check]. It fails unless that check
// returned Sat and no Assert, Push or Pop came after it. Constants the
// assertions leave free get a default value.
func (s *Solver) Model() (*Model, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, vals, err := s.model("Model")
	s.release(vals)
	return m, err
}

// model returns the Go model and the Z3 values of all declarations; the
// caller must release the values.
func (s *Solver) model(op string) (*Model, []C.Z3_ast, error) {
	if s.c == nil {
		return nil, nil, ErrClosed
	}
	if !s.sat {
		return nil, nil, &Error{Op: op, Msg: "no model: the last Check did not return sat, or assertions changed since"}
	}
	zm := C.kz_model(s.c, s.s)
	if zm == nil {
		return nil, nil, s.err(op, C.Z3_get_error_code(s.c))
	}
	defer C.Z3_model_dec_ref(s.c, zm)
	m := &Model{names: make([]string, 0, len(s.decls)), values: make(map[string]any, len(s.decls))}
	vals := make([]C.Z3_ast, 0, len(s.decls))
	for i, d := range s.decls {
		v := C.kz_eval(s.c, zm, s.fds[i])
		if v == nil {
			s.release(vals)
			return nil, nil, s.err(op, C.Z3_get_error_code(s.c))
		}
		vals = append(vals, v)
		gv, err := s.goValue(d, v)
		if err != nil {
			s.release(vals)
			return nil, nil, &Error{Op: op, Msg: err.Error()}
		}
		m.names = append(m.names, d.name)
		m.values[d.name] = gv
	}
	return m, vals, nil
}

func (s *Solver) release(vals []C.Z3_ast) {
	for _, v := range vals {
		C.Z3_dec_ref(s.c, v)
	}
}

// goValue converts the Z3 value v of the constant d to a Go value.
func (s *Solver) goValue(d decl, v C.Z3_ast) (any, error) {
	switch d.sort {
	case Bool:
		switch C.Z3_get_bool_value(s.c, v) {
		case C.Z3_L_TRUE:
			return true, nil
		case C.Z3_L_FALSE:
			return false, nil
		}
	case Int:
		if C.Z3_is_numeral_ast(s.c, v) {
			text := C.GoString(C.Z3_get_numeral_string(s.c, v))
			if n, ok := new(big.Int).SetString(text, 10); ok {
				return n, nil
			}
		}
	case String:
		if C.Z3_is_string(s.c, v) {
			return s.goString(v)
		}
	}
	return nil, fmt.Errorf("value of %s is not a %s value: %s", d.name, d.sort, C.GoString(C.Z3_ast_to_string(s.c, v)))
}

// goString decodes the string literal v exactly. Z3_get_string's text
// for it is ambiguous only if the string has a backslash followed by
// "u{h}" (see decodeZ3); then the parts between backslashes are read one
// by one.
func (s *Solver) goString(v C.Z3_ast) (string, error) {
	enc := C.GoString(C.Z3_get_string(s.c, v))
	if !strings.Contains(enc, `\`) {
		return enc, nil
	}
	text, count, err := decodeZ3(enc)
	if err != nil {
		return "", err
	}
	fail := errors.New("cannot decode the string value " + enc)
	n, ok := s.stringLength(v)
	switch {
	case !ok:
		return "", fail
	case count == n:
		return text, nil
	}
	var b strings.Builder
	for i := 0; i < n; {
		j := int(C.kz_index_of_backslash(s.c, v, C.uint(i)))
		switch {
		case j == -1:
			j = n
		case j < i || j >= n:
			return "", fail
		}
		if j > i {
			part := C.kz_substring(s.c, v, C.uint(i), C.uint(j-i))
			if part == nil {
				return "", fail
			}
			text, count, err := decodeZ3(C.GoString(part))
			if err != nil {
				return "", err
			}
			if count != j-i {
				return "", fail
			}
			b.WriteString(text)
		}
		if j < n {
			b.WriteByte('\\')
		}
		i = j + 1
	}
	return b.String(), nil
}

// stringLength returns the length of the string literal v.
func (s *Solver) stringLength(v C.Z3_ast) (int, bool) {
	l := C.Z3_mk_seq_length(s.c, v)
	C.Z3_inc_ref(s.c, l)
	defer C.Z3_dec_ref(s.c, l)
	r := C.Z3_simplify(s.c, l)
	var n C.int
	if r == nil || !C.Z3_get_numeral_int(s.c, r, &n) || n < 0 {
		return 0, false
	}
	return int(n), true
}

// Models returns up to n distinct models of the assertions. Each model
// after the first differs from all earlier ones in the value of at least
// one of the constants named in over (all declared constants if over is
// empty). Fewer than n models are returned when no more exist. The
// assertions that exclude earlier models are removed before Models
// returns, and [Solver.Model] then needs a new Check. If a check returns Unknown, Models returns the models found so
// far and an error: ctx's error, or one that gives Z3's reason.
func (s *Solver) Models(ctx context.Context, n int, over ...string) ([]*Model, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c == nil {
		return nil, ErrClosed
	}
	if n <= 0 {
		return nil, &Error{Op: "Models", Msg: fmt.Sprintf("n = %d, want at least 1", n)}
	}
	idx := make([]int, 0, len(over))
	for _, name := range over {
		i, ok := s.byName[name]
		if !ok {
			return nil, &Error{Op: "Models", Msg: fmt.Sprintf("%s is not declared", name)}
		}
		idx = append(idx, i)
	}
	if len(over) == 0 {
		for i := range s.decls {
			idx = append(idx, i)
		}
	}
	C.Z3_solver_push(s.c, s.s)
	if code := C.Z3_get_error_code(s.c); code != C.Z3_OK {
		return nil, s.err("Models", code)
	}
	defer func() {
		C.Z3_solver_pop(s.c, s.s, 1)
		s.sat = false
	}()
	var models []*Model
	fds := make([]C.Z3_func_decl, len(idx))
	cvals := make([]C.Z3_ast, len(idx))
	for len(models) < n {
		r, err := s.check(ctx)
		if err != nil {
			return models, err
		}
		switch r {
		case Unsat:
			return models, nil
		case Unknown:
			return models, &Error{Op: "Models", Msg: "check returned unknown: " + s.reason}
		}
		m, vals, err := s.model("Models")
		if err != nil {
			return models, err
		}
		models = append(models, m)
		if len(models) == n {
			s.release(vals)
			break
		}
		for j, i := range idx {
			fds[j], cvals[j] = s.fds[i], vals[i]
		}
		var fp *C.Z3_func_decl
		var vp *C.Z3_ast
		if len(idx) > 0 {
			fp, vp = &fds[0], &cvals[0]
		}
		code := C.kz_block(s.c, s.s, C.uint(len(idx)), fp, vp)
		s.release(vals)
		if code != C.Z3_OK {
			return models, s.err("Models", code)
		}
	}
	return models, nil
}

// err returns the Z3 error with the given code as an *Error.
func (s *Solver) err(op string, code C.Z3_error_code) *Error {
	msg := C.GoString(C.Z3_get_error_msg(s.c, code))
	return &Error{Op: op, Code: int(code), Msg: cleanMessage(msg)}
}

// cleanMessage turns Z3's parser output, such as
// `(error "line 2 column 5: unknown constant y")`, into the bare message.
func cleanMessage(msg string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(msg), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, `(error "`) && strings.HasSuffix(l, `")`) {
			l = strings.ReplaceAll(l[len(`(error "`):len(l)-len(`")`)], `""`, `"`)
		}
		if l != "" {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return strings.Join(lines, "; ")
}

var positionRE = regexp.MustCompile(`line (\d+) column (\d+)`)

// fixPositions rewrites Z3's "line L column C" positions (C counted from 0)
// in a message about the script that Assert makes of terms into positions
// in the terms, counted from 1; starts[i] is the script line where term i
// starts.
func fixPositions(msg string, terms []string, starts []int) string {
	return positionRE.ReplaceAllStringFunc(msg, func(p string) string {
		m := positionRE.FindStringSubmatch(p)
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		i := len(starts) - 1
		for i > 0 && starts[i] > line {
			i--
		}
		label := termLabel(i, len(terms))
		switch rel := line - starts[i]; {
		case rel < 0:
			return label + "line 1, column 1"
		case rel > strings.Count(terms[i], "\n"):
			// The ")" after the term, or the next "(assert".
			return label + "end of term"
		default:
			return fmt.Sprintf("%sline %d, column %d", label, rel+1, col+1)
		}
	})
}

// z3Allocated returns the number of bytes Z3 has allocated and not freed,
// in all contexts. Tests use it to check that objects are freed.
func z3Allocated() uint64 { return uint64(C.Z3_get_estimated_alloc_size()) }
