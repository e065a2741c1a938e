package solver_test

import "github.com/seed72891827/kfuzz/fuzzharness/isla/internal/islatest"

// The helpers of internal/islatest under the names the tests use.
var (
	xmlOracle      = islatest.XMLOracle
	csvOracle      = islatest.CSVOracle
	loadGraph      = islatest.Graph
	loadConstraint = islatest.Constraint
	compile        = islatest.Compile
	reportRates    = islatest.ReportRates
	processCPU     = islatest.ProcessCPU
	tarPredicates  = islatest.TarPredicates
)
