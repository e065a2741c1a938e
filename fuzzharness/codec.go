package fuzzharness

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A Codec translates between the bytes a fuzzer mutates and derivation trees
// of one grammar graph within fixed Bounds. Decode turns any byte string into
// a complete tree within the bounds; Encode turns any complete tree within the
// bounds into bytes that decode to exactly that tree. The package
// documentation describes the byte layout.
//
// A Codec is immutable and safe for concurrent use.
type Codec struct {
	graph  *grammar.Graph
	bounds Bounds
	w      int        // bounds.MaxDepth + 1: row width of sizes and closeoff
	sizes  []int32    // least size of a subtree at node n within depth budget b, at n.ID*w+b; unreachable
	info   []nodeInfo // per node ID
	// closeoff holds, for alternation nodes, the index of the child that the
	// shortest close-off derives at depth budget b, at n.ID*w+b.
	closeoff []int32
	// ops is the graph compiled for decodeText, and root the slot of the
	// graph's root; bufs pools the decoders of decodeText.
	ops  []textOp
	root slot
	bufs sync.Pool

	parserOnce sync.Once // makes parser for Parse
	parser     *grammar.Parser
	parserErr  error
}

// nodeInfo is what decoding needs to know about one graph node beyond the
// node itself.
type nodeInfo struct {
	width   int // bytes a decision at this node reads; 0 if there is no choice
	options int // number of options of the decision: alternatives, counts or class members
	// mod holds, for a decision of one byte, the value of each byte
	// modulo options (tables are shared between nodes).
	mod *[256]uint8
	// class nodes
	set   []grammar.Range // members after negation
	cum   []int           // cum[i]: members in set[:i]
	bytes bool            // a byte class
}

// unreachable marks a size-table entry without a tree within the budget.
const unreachable = 1<<31 - 1

// NewCodec returns a codec for the graph with the bounds set by opts (the
// defaults are DefaultMaxDepth, DefaultMaxSize and DefaultMaxRepeat, the
// first two raised for grammars whose smallest tree needs more). It fails if
// a bound is out of range or if the grammar has no tree within the bounds.
func NewCodec(gr *grammar.Graph, opts ...Option) (*Codec, error) {
	cfg := newConfig(opts)
	return newCodec(gr, cfg.boundsFor(gr))
}

func newCodec(gr *grammar.Graph, b Bounds) (*Codec, error) {
	if gr == nil {
		return nil, errors.New("fuzzharness: nil grammar graph")
	}
	switch {
	case b.MaxDepth < 0:
		return nil, fmt.Errorf("fuzzharness: MaxDepth is %d, must not be negative", b.MaxDepth)
	case b.MaxSize < 1:
		return nil, fmt.Errorf("fuzzharness: MaxSize is %d, must be at least 1", b.MaxSize)
	case b.MaxRepeat < 0:
		return nil, fmt.Errorf("fuzzharness: MaxRepeat is %d, must not be negative", b.MaxRepeat)
	case b.MaxSize > 1<<30:
		return nil, fmt.Errorf("fuzzharness: MaxSize is %d, more than the limit %d", b.MaxSize, 1<<30)
	case b.MaxDepth > 1<<16:
		return nil, fmt.Errorf("fuzzharness: MaxDepth is %d, more than the limit %d", b.MaxDepth, 1<<16)
	case b.MaxRepeat > 1<<24:
		return nil, fmt.Errorf("fuzzharness: MaxRepeat is %d, more than the limit %d", b.MaxRepeat, 1<<24)
	case b.MaxEdits < 0 || b.MaxEdits > 255:
		return nil, fmt.Errorf("fuzzharness: MaxEdits is %d, must be from 0 to 255", b.MaxEdits)
	}
	c := &Codec{graph: gr, bounds: b, w: b.MaxDepth + 1}
	c.info = make([]nodeInfo, len(gr.Nodes))
	for _, n := range gr.Nodes {
		in := &c.info[n.ID]
		switch n.Kind {
		case grammar.KindAlt:
			in.options = len(n.Children)
		case grammar.KindRepeat:
			span := b.MaxRepeat
			if n.Max != grammar.Unbounded {
				span = min(span, n.Max-n.Min)
			}
			in.options = span + 1
		case grammar.KindClass:
			in.set = n.Class.Set()
			in.bytes = n.Class.Bytes
			in.cum = make([]int, len(in.set)+1)
			for i, r := range in.set {
				in.cum[i+1] = in.cum[i] + int(r.Hi-r.Lo) + 1
			}
			in.options = in.cum[len(in.set)]
		default:
			in.options = 1
		}
		in.width = widthFor(in.options - 1)
		if in.width == 1 {
			in.mod = modTable(in.options)
		}
	}
	c.sizeTable()
	c.compileText()
	if s := c.minSize(gr.Root, 0); s > b.MaxSize {
		if s >= unreachable {
			return nil, fmt.Errorf("fuzzharness: the grammar has no tree within MaxDepth %d (the least depth is %d)", b.MaxDepth, gr.Root.MinDepth)
		}
		return nil, fmt.Errorf("fuzzharness: the smallest tree within MaxDepth %d has %d nodes, more than MaxSize %d", b.MaxDepth, s, b.MaxSize)
	}
	return c, nil
}

// modTables holds the tables of modTable, made once.
var modTables [257]*[256]uint8

// modTable returns the table of the byte values modulo options, for
// options from 2 to 256. It is computed on first use.
func modTable(options int) *[256]uint8 {
	modMu.Lock()
	defer modMu.Unlock()
	if t := modTables[options]; t != nil {
		return t
	}
	t := new([256]uint8)
	for v := range t {
		t[v] = uint8(v % options)
	}
	modTables[options] = t
	return t
}

var modMu sync.Mutex

// widthFor returns the number of bytes that hold values 0..max.
func widthFor(max int) int {
	switch {
	case max <= 0:
		return 0
	case max <= 0xff:
		return 1
	case max <= 0xffff:
		return 2
	case max <= 0xffffff:
		return 3
	}
	return 4
}

// Graph returns the codec's grammar graph.
func (c *Codec) Graph() *grammar.Graph { return c.graph }

// Bounds returns the codec's bounds.
func (c *Codec) Bounds() Bounds { return c.bounds }

// sizeTable fills c.sizes: for every node n and depth budget b in
// 0..MaxDepth, the least number of nodes of a complete subtree rooted at n
// with at most b nested references; and c.closeoff. Children of synthetic
// nodes have higher IDs than their parents, and references look at the budget
// below, so one pass per budget from the highest ID settles each level.
func (c *Codec) sizeTable() {
	nodes := c.graph.Nodes
	w := c.w
	c.sizes = make([]int32, len(nodes)*w)
	c.closeoff = make([]int32, len(nodes)*w)
	at := func(n *grammar.Node, b int) int64 {
		if b < 0 {
			return unreachable
		}
		return int64(c.sizes[n.ID*w+b])
	}
	for b := 0; b < w; b++ {
		for i := len(nodes) - 1; i >= 0; i-- {
			n := nodes[i]
			var v int64 = unreachable
			switch n.Kind {
			case grammar.KindLit:
				v = 1
			case grammar.KindClass:
				if c.info[n.ID].options > 0 {
					v = 1
				}
			case grammar.KindRef:
				v = 1 + at(n.Children[0], b-1)
			case grammar.KindAlt:
				best := 0
				for j, ch := range n.Children {
					s, bs := at(ch, b), at(n.Children[best], b)
					if s < bs || (s == bs && ch.MinLen < n.Children[best].MinLen) {
						best = j
					}
				}
				c.closeoff[n.ID*w+b] = int32(best)
				v = 1 + at(n.Children[best], b)
			case grammar.KindSeq:
				v = 1
				for _, ch := range n.Children {
					v += at(ch, b)
				}
			case grammar.KindRepeat:
				v = 1
				if n.Min > 0 {
					v += int64(n.Min) * at(n.Children[0], b)
				}
			}
			c.sizes[n.ID*w+b] = int32(min(v, unreachable))
		}
	}
}

// minSize is the least size of a complete subtree rooted at n for a slot with
// depth references above it, or unreachable if there is none within MaxDepth.
func (c *Codec) minSize(n *grammar.Node, depth int) int {
	b := c.bounds.MaxDepth - depth
	if b < 0 {
		return unreachable
	}
	return int(c.sizes[n.ID*c.w+b])
}

// member returns the i-th member of a class node's set as the bytes it
// derives, appended to out.
func (in *nodeInfo) member(out []byte, i int) []byte {
	k := 0
	if len(in.set) > 4 {
		k = sort.SearchInts(in.cum[1:], i+1)
	} else {
		for in.cum[k+1] <= i {
			k++
		}
	}
	r := in.set[k].Lo + rune(i-in.cum[k])
	if in.bytes {
		return append(out, byte(r))
	}
	return utf8.AppendRune(out, r)
}

// index returns the position of the character s among a class node's
// members, or -1 if s is not exactly one member.
func (in *nodeInfo) index(s string) int {
	var r rune
	if in.bytes {
		if len(s) != 1 {
			return -1
		}
		r = rune(s[0])
	} else {
		var size int
		r, size = utf8.DecodeRuneInString(s)
		if size != len(s) || (r == utf8.RuneError && size < 2) {
			return -1
		}
	}
	k := sort.Search(len(in.set), func(k int) bool { return in.set[k].Hi >= r })
	if k == len(in.set) || r < in.set[k].Lo {
		return -1
	}
	return in.cum[k] + int(r-in.set[k].Lo)
}

// Decode returns the input that data decodes to. Every byte string decodes to
// a complete tree within the codec's bounds; decisions beyond the end of data
// read zeros, which choose the shortest completion. Bytes beyond the last
// decision are ignored unless Bounds.MaxEdits allows them to edit the text
// (see Input.Edited).
func (c *Codec) Decode(data []byte) Input {
	d := decoder{c: c, data: data, committed: c.minSize(c.graph.Root, 0)}
	t := d.node(c.graph.Root, 0)
	s := d.finish()
	return c.edit(Input{s: s, b: d.out, st: &inputState{tree: t, used: d.pos}}, data)
}

// decodeText is Decode without building the tree: the input builds it from a
// copy of the bytes it read when Input.Tree is first called. Fuzz targets
// that only look at the text never pay for the tree. It runs the compiled
// steps of c.ops with an explicit stack, so that it neither recurses (a
// recursive descent grows the stack of the fuzz target's goroutine on most
// executions) nor allocates beyond the input.
func (c *Codec) decodeText(data []byte) Input {
	d := c.textDecoder(data)
	d.run()
	return c.textInput(d, data)
}

// textDecoder returns a decoder of data for run. The decoder and its
// buffers come from a pool rather than the stack: the fuzz target's
// goroutine starts with a small stack, and a large frame here would make
// it grow on most executions.
func (c *Codec) textDecoder(data []byte) *decoder {
	d, _ := c.bufs.Get().(*decoder)
	if d == nil {
		d = &decoder{c: c, out: make([]byte, 0, 256), stack: make([]item, 0, 64)}
	}
	d.data, d.pos, d.committed, d.out = data, 0, c.minSize(c.graph.Root, 0), d.out[:0]
	return d
}

// textInput returns the input that d decoded from data, with the byte
// edits of the bytes after, and returns d to the pool. It is not inlined
// into decodeText, whose frame is on the stack while run decodes.
//
//go:noinline
func (c *Codec) textInput(d *decoder, data []byte) Input {
	used := d.pos
	st := &inputState{codec: c, raw: append([]byte(nil), data[:min(used, len(data))]...), used: used}
	in := Input{s: string(d.out), st: st}
	d.data = nil
	c.bufs.Put(d)
	return c.edit(in, data)
}

// edit applies the byte edits of data's tail (the bytes after those the
// decisions read) to the input's text, if the bounds allow edits.
func (c *Codec) edit(in Input, data []byte) Input {
	if c.bounds.MaxEdits <= 0 || in.st.used >= len(data) {
		return in
	}
	b, ok := applyEdits([]byte(in.s), data[in.st.used:], c.bounds.MaxEdits)
	if !ok || string(b) == in.s {
		return in
	}
	in.st.edited, in.st.orig = true, in.s
	in.s, in.b = string(b), b
	return in
}

// finish sets the values of the class leaves from the decoded text and
// returns the text.
func (d *decoder) finish() string {
	s := string(d.out)
	for _, l := range d.leaves {
		l.t.Value = s[l.start:l.end]
	}
	return s
}

// closeShortest is a grammar.CloseFunc that fills every open slot of t with
// the shortest derivation within the depth bound, as decoding does once the
// bytes run out. It fails if a slot cannot be completed within MaxDepth; it
// does not check the size bound.
func (c *Codec) closeShortest(t *grammar.Tree) error {
	var walk func(u *grammar.Tree, depth int) error
	walk = func(u *grammar.Tree, depth int) error {
		if u.Open {
			if c.minSize(u.Node, depth) >= unreachable {
				return fmt.Errorf("%s at depth %d cannot be completed within MaxDepth %d", u.Node.Label(), depth, c.bounds.MaxDepth)
			}
			d := decoder{c: c}
			sub := d.node(u.Node, depth)
			d.finish()
			*u = *sub
			return nil
		}
		if u.Node.Kind == grammar.KindRef {
			depth++
		}
		for _, ch := range u.Children {
			if err := walk(ch, depth); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(t, 0)
}

// A decoder holds the state of one Decode call.
type decoder struct {
	c         *Codec
	data      []byte
	pos       int // next byte of data to read; may run past the end
	committed int // nodes decoded so far plus the least size of every pending slot
	out       []byte
	leaves    []leaf

	// Trees and child slices are allocated in slabs that double in size, so
	// that a decode makes few allocations and wastes at most half.
	trees []grammar.Tree
	ptrs  []*grammar.Tree

	stack []item // the pending steps of run
}

// Slab sizes of a decoder.
const (
	minSlab = 16
	maxSlab = 4096
)

// A leaf is a class node whose Value is filled in from the decoded text.
type leaf struct {
	t          *grammar.Tree
	start, end int32
}

// read returns the next decision value of the given width, big-endian, with
// zeros past the end of the data.
func (d *decoder) read(width int) int {
	if width == 1 {
		p := d.pos
		d.pos++
		if p < len(d.data) {
			return int(d.data[p])
		}
		return 0
	}
	v := 0
	for range width {
		v <<= 8
		if d.pos < len(d.data) {
			v |= int(d.data[d.pos])
		}
		d.pos++
	}
	return v
}

func (d *decoder) newTree(n *grammar.Node) *grammar.Tree {
	if len(d.trees) == cap(d.trees) {
		d.trees = make([]grammar.Tree, 0, min(max(2*cap(d.trees), minSlab), maxSlab))
	}
	d.trees = d.trees[:len(d.trees)+1]
	t := &d.trees[len(d.trees)-1]
	t.Node = n
	return t
}

func (d *decoder) newChildren(k int) []*grammar.Tree {
	if cap(d.ptrs)-len(d.ptrs) < k {
		d.ptrs = make([]*grammar.Tree, 0, max(k, min(max(2*cap(d.ptrs), minSlab), maxSlab)))
	}
	i := len(d.ptrs)
	d.ptrs = d.ptrs[:i+k]
	return d.ptrs[i : i+k : i+k]
}

// node decodes a subtree rooted at graph node n for a slot with depth
// references above it. The slot's least size is already committed.
func (d *decoder) node(n *grammar.Node, depth int) *grammar.Tree {
	t := d.newTree(n)
	switch n.Kind {
	case grammar.KindLit:
		t.Value = n.Lit
		d.out = append(d.out, n.Lit...)
	case grammar.KindClass:
		start := len(d.out)
		d.out = d.c.info[n.ID].member(d.out, d.class(n))
		d.leaves = append(d.leaves, leaf{t, int32(start), int32(len(d.out))})
	case grammar.KindRef:
		t.Children = d.newChildren(1)
		t.Children[0] = d.node(n.Children[0], depth+1)
	case grammar.KindSeq:
		t.Children = d.newChildren(len(n.Children))
		for i, cn := range n.Children {
			t.Children[i] = d.node(cn, depth)
		}
	case grammar.KindAlt:
		t.Children = d.newChildren(1)
		t.Children[0] = d.node(n.Children[d.alt(n, depth)], depth)
	case grammar.KindRepeat:
		if count := d.repeat(n, depth); count > 0 {
			t.Children = d.newChildren(count)
			for i := range count {
				t.Children[i] = d.node(n.Children[0], depth)
			}
		}
	}
	return t
}

// run appends the text that the compiled steps derive from the root to
// d.out, making exactly the decisions node makes, in the same order: a
// step's decision is read when it is popped, and a sequence pushes its
// children in reverse, so that they are popped in order. A leaf step that
// would be popped next (a constant or a class) is decoded right away
// instead of being pushed.
func (d *decoder) run() {
	c := d.c
	stack := append(d.stack[:0], item{c.root.op, c.root.refs})
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		op := &c.ops[it.op]
		switch op.kind {
		case opConst, opPick, opClass:
			d.leaf(it.op)
		case opSeq:
			// The children are in reverse order: decode the leaves
			// that come first, then push the rest.
			i := len(op.kids) - 1
			for i >= 0 && d.leaf(op.kids[i].op) {
				i--
			}
			for _, k := range op.kids[:i+1] {
				stack = append(stack, item{k.op, it.depth + k.refs})
			}
		case opAlt:
			k := op.kids[d.alt(c.graph.Nodes[it.op], int(it.depth))]
			if !d.leaf(k.op) {
				stack = append(stack, item{k.op, it.depth + k.refs})
			}
		case opRepeat:
			k := op.kids[0]
			count := d.repeat(c.graph.Nodes[it.op], int(it.depth))
			switch c.ops[k.op].kind {
			case opPick:
				d.picks(k.op, count)
			case opConst, opClass:
				for range count {
					d.leaf(k.op)
				}
			default:
				for range count {
					stack = append(stack, item{k.op, it.depth + k.refs})
				}
			}
		}
	}
	d.stack = stack
}

// picks decodes count decisions of the pick step op, as count calls of
// leaf would.
func (d *decoder) picks(op int32, count int) {
	texts, mod := d.c.ops[op].texts, d.c.info[op].mod
	for range count {
		v := 0
		if d.pos < len(d.data) {
			v = int(mod[d.data[d.pos]])
		}
		d.pos++
		d.out = append(d.out, texts[v]...)
	}
}

// leaf decodes step op if it is a leaf, a constant or a class, and
// reports whether it is.
func (d *decoder) leaf(op int32) bool {
	c := d.c
	switch c.ops[op].kind {
	case opConst:
		d.out = append(d.out, c.ops[op].text...)
	case opPick:
		d.out = append(d.out, c.ops[op].texts[d.decide(&c.info[op])]...)
	case opClass:
		d.out = c.info[op].member(d.out, d.class(c.graph.Nodes[op]))
	default:
		return false
	}
	return true
}

// decide reads the next decision of a node with info in: a value of
// in.width bytes modulo in.options, of which there must be at least one.
func (d *decoder) decide(in *nodeInfo) int {
	if in.mod != nil {
		p := d.pos
		d.pos++
		if p < len(d.data) {
			return int(in.mod[d.data[p]])
		}
		return 0
	}
	return d.read(in.width) % in.options
}

// class decides which member a class node derives.
func (d *decoder) class(n *grammar.Node) int {
	in := &d.c.info[n.ID]
	if in.width == 0 {
		return 0
	}
	return d.decide(in)
}

// alt decides which child an alternation node derives at the given depth
// and commits its extra size.
func (d *decoder) alt(n *grammar.Node, depth int) int {
	c := d.c
	short := int(c.closeoff[n.ID*c.w+c.bounds.MaxDepth-depth])
	rank := d.decide(&c.info[n.ID])
	if rank == 0 {
		return short
	}
	pick := rank - 1
	if pick >= short {
		pick++
	}
	add := c.minSize(n.Children[pick], depth) - c.minSize(n.Children[short], depth)
	if add > c.bounds.MaxSize-d.committed {
		return short
	}
	d.committed += add
	return pick
}

// repeat decides how many times a quantifier node repeats its element at the
// given depth and commits the extra size.
func (d *decoder) repeat(n *grammar.Node, depth int) int {
	c := d.c
	in := &c.info[n.ID]
	if in.width == 0 {
		return n.Min
	}
	extra := d.decide(in)
	if extra == 0 {
		return n.Min
	}
	cs := c.minSize(n.Children[0], depth)
	if cs >= unreachable {
		return n.Min
	}
	extra = min(extra, (c.bounds.MaxSize-d.committed)/cs)
	d.committed += extra * cs
	return n.Min + extra
}

// An EncodeError reports a tree that Encode cannot encode: one that is
// incomplete, not a derivation of the codec's graph, or outside its bounds.
type EncodeError struct {
	Node   *grammar.Node // the graph node where the problem is found
	Offset int           // byte offset in the tree's input where that node's text starts
	Msg    string
	// Bounds is true if the tree is well formed but exceeds the codec's
	// bounds; raising them (WithMaxDepth, WithMaxSize, WithMaxRepeat) may
	// help.
	Bounds bool
}

// Error formats the error as "fuzzharness: at input offset N, NODE: message".
func (e *EncodeError) Error() string {
	return "fuzzharness: at input offset " + strconv.Itoa(e.Offset) + ", " + e.Node.Label() + ": " + e.Msg
}

// Encode returns bytes that Decode turns into a tree equal to t (by
// grammar.Tree.Equal). t must be a complete tree rooted at the graph's root,
// derived from the codec's graph (sharing its nodes), and within its bounds;
// otherwise Encode returns an *EncodeError. The result is the shortest such
// encoding: trailing zero bytes are dropped, so the shortest tree encodes to
// no bytes at all.
func (c *Codec) Encode(t *grammar.Tree) ([]byte, error) {
	if t == nil {
		return nil, errors.New("fuzzharness: nil tree")
	}
	if t.Node != c.graph.Root {
		return nil, &EncodeError{Node: t.Node, Msg: "the tree is not rooted at " + c.graph.Root.String() + ", the root of the codec's graph"}
	}
	e := encoder{c: c, committed: c.minSize(c.graph.Root, 0)}
	if err := e.node(t, 0); err != nil {
		return nil, err
	}
	out := e.out
	for len(out) > 0 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	return out, nil
}

type encoder struct {
	c         *Codec
	out       []byte
	committed int
	offset    int // bytes of input derived so far
}

func (e *encoder) write(width, v int) {
	for i := width - 1; i >= 0; i-- {
		e.out = append(e.out, byte(v>>(8*i)))
	}
}

func (e *encoder) errorf(n *grammar.Node, bounds bool, format string, args ...any) error {
	return &EncodeError{Node: n, Offset: e.offset, Msg: fmt.Sprintf(format, args...), Bounds: bounds}
}

// node encodes subtree t, a derivation of graph node t.Node at a slot with
// depth references above it, whose least size is already committed.
func (e *encoder) node(t *grammar.Tree, depth int) error {
	c, n := e.c, t.Node
	if t.Open {
		return e.errorf(n, false, "the tree is incomplete: this slot is open")
	}
	switch n.Kind {
	case grammar.KindLit:
		if len(t.Children) != 0 || t.Value != n.Lit {
			return e.errorf(n, false, "a literal's tree has value %q and %d children, want %q and none", t.Value, len(t.Children), n.Lit)
		}
		e.offset += len(t.Value)
	case grammar.KindClass:
		in := &c.info[n.ID]
		i := in.index(t.Value)
		if i < 0 || len(t.Children) != 0 {
			return e.errorf(n, false, "%q is not one member of the class", t.Value)
		}
		e.write(in.width, i)
		e.offset += len(t.Value)
	case grammar.KindRef, grammar.KindSeq:
		if err := e.sameChildren(t); err != nil {
			return err
		}
		if n.Kind == grammar.KindRef {
			depth++
		}
		for _, ch := range t.Children {
			if err := e.node(ch, depth); err != nil {
				return err
			}
		}
	case grammar.KindAlt:
		if len(t.Children) != 1 {
			return e.errorf(n, false, "an alternation's tree has %d children, want 1", len(t.Children))
		}
		if t.Children[0] == nil {
			return e.errorf(n, false, "an alternation's child is nil")
		}
		pick := -1
		for i, cn := range n.Children {
			if cn == t.Children[0].Node {
				pick = i
				break
			}
		}
		if pick < 0 {
			return e.errorf(n, false, "%s is not one of the alternatives", t.Children[0].Node)
		}
		in := &c.info[n.ID]
		short := int(c.closeoff[n.ID*c.w+c.bounds.MaxDepth-depth])
		rank := 0
		if pick != short {
			size := c.minSize(n.Children[pick], depth)
			if size >= unreachable {
				return e.errorf(n, true, "alternative %d (%s) cannot be derived within MaxDepth %d from depth %d",
					pick+1, n.Children[pick].Label(), c.bounds.MaxDepth, depth)
			}
			add := size - c.minSize(n.Children[short], depth)
			if add > c.bounds.MaxSize-e.committed {
				return e.errorf(n, true, "the tree has more than MaxSize %d nodes", c.bounds.MaxSize)
			}
			e.committed += add
			rank = pick + 1
			if pick > short {
				rank = pick
			}
		}
		e.write(in.width, rank)
		if err := e.node(t.Children[0], depth); err != nil {
			return err
		}
	case grammar.KindRepeat:
		count := len(t.Children)
		if count < n.Min || (n.Max != grammar.Unbounded && count > n.Max) {
			return e.errorf(n, false, "%d repetitions, outside %s", count, n.Label())
		}
		in := &c.info[n.ID]
		extra := count - n.Min
		if extra >= in.options {
			return e.errorf(n, true, "%d repetitions, more than MaxRepeat %d beyond the minimum %d", count, c.bounds.MaxRepeat, n.Min)
		}
		if extra > 0 {
			cs := c.minSize(n.Children[0], depth)
			if cs >= unreachable {
				return e.errorf(n, true, "the repeated element cannot be derived within MaxDepth %d from depth %d", c.bounds.MaxDepth, depth)
			}
			if extra > (c.bounds.MaxSize-e.committed)/cs {
				return e.errorf(n, true, "the tree has more than MaxSize %d nodes", c.bounds.MaxSize)
			}
			e.committed += extra * cs
		}
		e.write(in.width, extra)
		for _, ch := range t.Children {
			if ch == nil || ch.Node != n.Children[0] {
				return e.errorf(n, false, "a repetition is %s, want %s", ch.Node, n.Children[0])
			}
			if err := e.node(ch, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameChildren checks that t has one child per child of its graph node, each
// instantiating that node.
func (e *encoder) sameChildren(t *grammar.Tree) error {
	n := t.Node
	if len(t.Children) != len(n.Children) {
		return e.errorf(n, false, "the tree has %d children, want %d", len(t.Children), len(n.Children))
	}
	for i, ch := range t.Children {
		if ch == nil || ch.Node != n.Children[i] {
			return e.errorf(n, false, "child %d is not %s", i+1, n.Children[i])
		}
	}
	return nil
}
