package paper

// resultsTable is results.tex: the results matrix. It is built from the
// matrix model of package tables (tables.Matrix) once that model is in.
func (b builder) resultsTable() (*table, bool) { return nil, false }
