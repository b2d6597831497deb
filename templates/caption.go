package templates

import (
	"paperbundle/report"
	"paperbundle/tables"
)

// caption is the caption of a table of the model, "" without a
// population: the population in the words of the kind of input ("queries
// with a relevant document") with its code after them, then its n. A
// table whose rows hold several populations (N is 0) has no one n: its
// rows state their own.
func (b *builder) caption(t tables.Table, system string) (words, code, n string) {
	if t.Population == "" {
		return "", "", ""
	}
	words, isCode := b.r.Vocabulary().PopulationWords(t.Population)
	if isCode {
		code = t.Population
	}
	if bn := b.blockN(t, system); bn > 0 {
		return "Population: " + words, code, "; n = " + thousands(bn)
	}
	return "Population: " + words, code, "; no single n: each row states its own"
}

// blockN is the n of a table's caption in system's block: the table's,
// unless the systems are evaluated on different queries (TREC runs under
// missing_run: skip), where it is the size of the table's population for
// that system, from the system's metrics on that population.
func (b *builder) blockN(t tables.Table, system string) int {
	if system == "" || len(b.r.Dataset.SystemQueries) == 0 {
		return t.N
	}
	for _, m := range b.r.Metrics {
		if m.System == system && m.Slice == report.Whole && string(m.Population) == t.Population {
			return m.N
		}
	}
	return t.N
}
