// Package learn associates input features with the code they reach, after
// CODEINE (Havrikov, Kampmann and Zeller, "From Input Coverage to Code
// Coverage", section 5): from inputs, their k-paths and the functions each
// covered, it learns for every function the input features under which it is
// reached, and uses what it learned to predict coverage without running the
// program, to select the inputs that exercise given functions, and to
// generate new inputs aimed at a function.
//
// # Data
//
// A Sample is one observed input: the set of l-paths (l <= k, by default
// DefaultFeatureK = 4) of its derivation tree or of its whole Earley parse forest
// (InputPaths), and the names of the functions it covered, spelled as the
// runtime spells them (import/path.Func, import/path.(*T).Method). NewDataset
// turns samples into a sparse binary matrix, dropping the paths present in
// every input or in none, and the functions every input or no input covered;
// those are kept aside as always and never covered.
//
// # Learning
//
// Learn grows one CART decision tree per function, splitting on the presence
// of a path by Gini impurity, with a maximum depth (default 5) and a minimum
// leaf size (default 1). As in CODEINE, each tree is trained on balanced
// data: all inputs of the function's minority class and as many randomly
// chosen inputs of the other. The best split at a node is found by counting,
// for every feature, the covering and non-covering rows that have it, in one
// pass over the rows' sparse feature lists. Trees are trained in parallel;
// the result depends only on the data and the Config, whose Seed drives the
// subsampling.
//
// # Rules and patterns
//
// Every leaf that predicts coverage with a Gini impurity of at most
// Config.RuleGini (default 0.3) yields a Rule: the paths the input must
// contain (the tests answered yes on the way from the root) and those it must
// not contain (answered no). Rules that forbid a path contained in a path
// they require cannot be satisfied and are dropped. A Pattern renders a path
// as the piece of grammar it stands for (TRIBBLE, section 5.2), so that the
// path <UnaryExpr>#47 -> <AddExpr>#25 -> <AddExpr>#49 of the expression
// grammar reads
//
//	<MultExpr>: <MultExpr> ("*" | "/" | "%") "(" <AddExpr> ("+" | "-") <MultExpr> ")"
//
// a product whose right factor is a parenthesised sum.
//
// # Using a model
//
// Model.Predict, PredictTree and PredictInput tell which functions an input
// is predicted to cover, with the rule of the leaf it reached.
// Model.Evaluate compares predictions with the real coverage of a test set:
// accuracy, precision and recall per function, micro-averaged over all
// (input, function) pairs and averaged over functions. Model.Select ranks the
// inputs of a corpus that are predicted to cover given functions (which
// functions a diff changes, kfuzz select finds outside this package, which
// knows grammars and coverage results but not Go source). Model.Generate and
// Generate search for derivation trees that satisfy a rule (CODEINE's
// Algorithm 3), within a state budget and optionally a time limit, and report
// ErrUnsatisfiable when they find none.
//
// Model.Save writes a model as versioned JSON, with the fingerprint of its
// grammar; Load reads it back for the same grammar and refuses any other.
package learn
