#!/usr/bin/python3
"""Summarise a demo dataset written by `paperbundle demo -out DIR`.

Independent of the Go code: it reads the CSV files and computes, per system,
the headline numbers quoted in docs/demo-dataset.md, with scikit-learn for
the classification metrics (Debian python3-sklearn) and plain Python for the
ranking metrics (ranking = score descending, ties in list order; nDCG gain
2^rel - 1, discount log2(i + 1), IDCG over all gold grades cut at K).
go test does not need this script.

    /usr/bin/python3 dataset/demo/testdata/summarize.py DIR
"""
import csv
import math
import sys

import numpy as np
from sklearn.metrics import average_precision_score, brier_score_loss, roc_auc_score

SYSTEMS = ["retriever", "reranker", "graph", "dynamic_k", "ne_gate", "full"]


def ece(y, p, bins=10):
    """Expected calibration error, equal-width bins [k/M, (k+1)/M), last closed."""
    b = np.minimum((p * bins).astype(int), bins - 1)
    total = 0.0
    for k in range(bins):
        m = b == k
        if m.any():
            total += m.sum() * abs(y[m].mean() - p[m].mean())
    return total / len(y)


def main(d):
    print("| system | AUROC | AUPRC | ECE | Brier | Recall@10 | nDCG@10 | MRR | ne_prob = 0 | ne_prob = 1 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in SYSTEMS:
        ys, ps, rec, ndcg, rr = [], [], [], [], []
        for r in csv.DictReader(open(f"{d}/data/{s}.csv", newline="")):
            if r["split"] != "eval":
                continue
            ys.append(int(r["has_evidence"]))
            ps.append(float(r["ne_prob"]))
            if not r["gold_uids"]:
                continue
            cand = r["candidate_uids"].split(";")
            score = [float(x) for x in r["candidate_scores"].split(";")]
            gold = dict(zip(r["gold_uids"].split(";"), map(int, r["gold_rels"].split(";"))))
            ranked = [cand[i] for i in sorted(range(len(cand)), key=lambda i: (-score[i], i))]
            top = ranked[:10]
            rec.append(sum(u in gold for u in top) / len(gold))
            dcg = sum((2 ** gold.get(u, 0) - 1) / math.log2(i + 2) for i, u in enumerate(top))
            ideal = sorted(gold.values(), reverse=True)[:10]
            ndcg.append(dcg / sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal)))
            first = next(i for i, u in enumerate(ranked) if u in gold)
            rr.append(1 / (first + 1))
        y, p = np.array(ys), np.array(ps)
        print(f"| {s} | {roc_auc_score(y, p):.3f} | {average_precision_score(y, p):.3f} | {ece(y, p):.4f} "
              f"| {brier_score_loss(y, p):.4f} | {np.mean(rec):.3f} | {np.mean(ndcg):.3f} | {np.mean(rr):.3f} "
              f"| {(p == 0).sum()} | {(p == 1).sum()} |")


if __name__ == "__main__":
    main(sys.argv[1])
