package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"
)

// Parser benchmarks graded by size: each parser alone, reading an
// in-memory file of 1k, 10k and 100k queries, so go test -bench reports
// its MB/s (b.SetBytes) without the disk, the checks across files and the
// assembly that BenchmarkLoad* include.

var benchSizes = []int{1_000, 10_000, 100_000}

// parseFunc is the common shape of the parsers.
type parseFunc func(file string, rd io.Reader, c *collector) error

func benchmarkParse(b *testing.B, data []byte, parse parseFunc) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var c collector
		if err := parse("bench", bytes.NewReader(data), &c); err != nil {
			b.Fatal(err)
		}
		if len(c.list) > 0 {
			b.Fatal(c.list)
		}
	}
}

// benchmarkParseSizes runs benchmarkParse for each size of benchSizes, on
// the bytes gen writes for that many queries.
func benchmarkParseSizes(b *testing.B, gen func(w io.Writer, queries int) error, parse parseFunc) {
	for _, q := range benchSizes {
		b.Run(fmt.Sprintf("queries=%d", q), func(b *testing.B) {
			var buf bytes.Buffer
			if err := gen(&buf, q); err != nil {
				b.Fatal(err)
			}
			benchmarkParse(b, buf.Bytes(), parse)
		})
	}
}

// BenchmarkParseTableCSV parses a per-query CSV table shaped like the demo
// (writeTable: 20 candidates, a tune row for every second query, so 1.5
// rows per query; about 450 bytes a row).
func BenchmarkParseTableCSV(b *testing.B) {
	benchmarkParseSizes(b, func(w io.Writer, q int) error { return writeTable(w, q, 20, false, 1) },
		func(file string, rd io.Reader, c *collector) error {
			_, err := parseTableCSV(file, rd, c)
			return err
		})
}

// BenchmarkParseTableJSONL is BenchmarkParseTableCSV for the same table in
// JSON Lines.
func BenchmarkParseTableJSONL(b *testing.B) {
	benchmarkParseSizes(b, func(w io.Writer, q int) error { return writeTable(w, q, 20, true, 1) },
		func(file string, rd io.Reader, c *collector) error {
			_, err := parseTableJSONL(file, rd, c)
			return err
		})
}

// BenchmarkParseRun parses a TREC run of 20 documents per query (the TREC
// workload (c) of `make bench` has 1,000: BenchmarkLoadTREC is that shape).
func BenchmarkParseRun(b *testing.B) {
	benchmarkParseSizes(b, func(w io.Writer, q int) error { return writeRun(w, q, 20, 1) },
		func(file string, rd io.Reader, c *collector) error {
			_, err := parseRun(file, rd, c)
			return err
		})
}

// BenchmarkParseQrels parses TREC qrels of 3-120 judgments per query
// (about 60 a query, a third of them grade 0).
func BenchmarkParseQrels(b *testing.B) {
	benchmarkParseSizes(b, func(w io.Writer, q int) error { return writeQrels(w, q, 1) },
		func(file string, rd io.Reader, c *collector) error {
			_, err := parseQrels(file, rd, c, 0)
			return err
		})
}

// writeRun writes a TREC run of queries x docs lines, scores rounded to 3
// decimals, in rank order.
func writeRun(w io.Writer, queries, docs int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 3))
	bw := bufio.NewWriter(w)
	var line []byte
	for q := range queries {
		s := 10.0
		for d := range docs {
			s -= float64(rng.IntN(100)) / 1000
			line = append(line[:0], 'q')
			line = strconv.AppendInt(line, int64(q), 10)
			line = append(line, " Q0 doc"...)
			line = strconv.AppendInt(line, int64(rng.IntN(10_000_000)*docs+d), 10)
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(d+1), 10)
			line = append(line, ' ')
			line = strconv.AppendFloat(line, s, 'f', 3, 64)
			line = append(line, " bench\n"...)
			bw.Write(line)
		}
	}
	return bw.Flush()
}

// writeQrels writes TREC qrels: 3-120 judged documents per query, grades
// 0-2.
func writeQrels(w io.Writer, queries int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 4))
	bw := bufio.NewWriter(w)
	var line []byte
	for q := range queries {
		for d := range 3 + rng.IntN(118) {
			line = append(line[:0], 'q')
			line = strconv.AppendInt(line, int64(q), 10)
			line = append(line, " 0 doc"...)
			line = strconv.AppendInt(line, int64(d), 10)
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(rng.IntN(3)), 10)
			line = append(line, '\n')
			bw.Write(line)
		}
	}
	return bw.Flush()
}

// BenchmarkParseTableCSVGzip parses the table of BenchmarkParseTableCSV
// compressed with gzip, as Load reads a .csv.gz (MB/s of the compressed
// bytes).
func BenchmarkParseTableCSVGzip(b *testing.B) {
	benchmarkParseSizes(b, func(w io.Writer, q int) error {
		zw := gzip.NewWriter(w)
		if err := writeTable(zw, q, 20, false, 1); err != nil {
			return err
		}
		return zw.Close()
	}, func(file string, rd io.Reader, c *collector) error {
		zr, err := gzip.NewReader(rd)
		if err != nil {
			return err
		}
		_, err = parseTableCSV(file, newLimitReader(file, &gunzip{zr: zr, file: file}), c)
		return err
	})
}

// BenchmarkParseTableParquet parses the table of BenchmarkParseTableCSV
// written as Parquet (lists as LIST columns, 4,096 rows a row group).
func BenchmarkParseTableParquet(b *testing.B) {
	benchmarkParseSizes(b, func(w io.Writer, q int) error {
		var buf bytes.Buffer
		if err := writeTable(&buf, q, 20, false, 1); err != nil {
			return err
		}
		_, err := io.WriteString(w, parquetBytes(b, wideRows(b, csvRecords(b, buf.String())), 4096))
		return err
	}, func(file string, rd io.Reader, c *collector) error {
		_, err := parseTableParquet(file, rd, c)
		return err
	})
}
