package dataset_test

import (
	"fmt"
	"log"

	"paperbundle/dataset"
)

// ExampleLoad reads one CSV system and prints each query with its ranked
// candidates (score descending, ties in list order) and their gold grades.
func ExampleLoad() {
	d, err := dataset.Load(dataset.Spec{Systems: []dataset.SystemSpec{
		{Name: "full", Label: "Full pipeline", Input: "testdata/basic.csv"},
	}})
	if err != nil {
		log.Fatal(err)
	}
	for i, q := range d.Queries {
		r := d.Systems[0].Rows[i]
		fmt.Printf("fold %d %-4s %s: %v %v\n", q.Fold, q.Split, q.ID, r.Candidates, r.Rel)
	}
	fmt.Println(d.TrainRowsIgnored, "train row ignored")
	// Output:
	// fold 0 eval P1/A.1: [s2 s4 s3 s1] [2 0 1 0]
	// fold 0 eval P1/A.2: [s3 s1 s2] [0 0 0]
	// fold 0 tune P3/A.1: [s1 s2] [0 0]
	// fold 0 tune P3/A.2: [s1] [0]
	// fold 1 eval P2/A.1: [s1 s2] [3 0]
	// fold 1 eval P2/A.2: [s2 s1 s3] [1 1 0]
	// 1 train row ignored
}

// ExampleErrorList shows how input errors read: file:line:column, what was
// wrong, and what was expected.
func ExampleErrorList() {
	_, err := dataset.Load(dataset.Spec{Systems: []dataset.SystemSpec{
		{Name: "bad", Input: "testdata/bad.csv"},
	}})
	fmt.Println(err)
	// Output:
	// testdata/bad.csv:3:10: candidate_scores has 1 value but candidate_uids has 2, expected one score per candidate
	// testdata/bad.csv:4:13: node_probs item 2 is "1.5", expected a probability in [0, 1]
}
