#!/usr/bin/python3
"""Independent reference values for the ranking, random-baseline,
multi-label, summary and correlation kernels of package metrics.

Run once with Debian's Python (python3-sklearn, python3-scipy), from the
metrics directory:

    /usr/bin/python3 testdata/rank_gen_reference.py

It writes testdata/rank_reference.json, rank_random_reference.json,
multilabel_reference.json, summary_reference.json and corr_reference.json.
`go test` reads those files and never runs Python.

Sources of truth:
  * ranking: a direct Python transcription of trec_eval 9's documented
    measures (P_k, recall_k, success_k, recip_rank, map, map_cut_k,
    ndcg_cut_k with the qrels grades as gain and discount log2(rank+1)),
    plus the seeds' variants (capped recall, seed 003 / 004 AP denominators,
    exponential gain). Written from the definitions, not from the Go code.
  * random baselines: brute-force enumeration of every ordering of small
    pools; for larger pools, enumeration of every gold/non-gold pattern of
    the top k weighted by its exact hypergeometric probability, and
    scipy.stats.hypergeom for Hit@k.
  * multi-label: sklearn.metrics (accuracy_score, hamming_loss, f1_score
    with average micro/samples/macro/weighted).
  * summary: numpy (mean, std ddof 0/1, percentile 'linear'),
    scipy.stats.variation.
  * correlation: scipy.stats.spearmanr, scipy.stats.rankdata.
NaN is written as null.
"""

import itertools
import json
import math
import os
import random
from fractions import Fraction

import numpy as np
import scipy
import scipy.stats
import sklearn
from sklearn.metrics import accuracy_score, f1_score, hamming_loss

HERE = os.path.dirname(os.path.abspath(__file__))


def clean(x):
    """Replace NaN by None recursively so that json writes null."""
    if isinstance(x, float):
        return None if math.isnan(x) else x
    if isinstance(x, (np.floating,)):
        return clean(float(x))
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    return x


def dump(name, obj):
    obj = dict(obj)
    obj["_generator"] = "testdata/rank_gen_reference.py"
    obj["_versions"] = {
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "sklearn": sklearn.__version__,
    }
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(clean(obj), f, indent=1, sort_keys=True)
        f.write("\n")


# ---------------------------------------------------------------------------
# Ranking, trec_eval semantics.
#
# A query: `ranked` = grades of the retrieved documents in rank order,
# `qrels` = grades of every judged-relevant document of the query.


def te_relevant(grade):
    return grade >= 1  # trec_eval's default relevance_level 1


def te_num_ret_rel(ranked, k):
    return sum(1 for g in ranked[:k] if te_relevant(g))


def te_P(ranked, k):
    # P_k: relevant retrieved in the first k / k (k, even if fewer retrieved).
    return te_num_ret_rel(ranked, k) / k


def te_recall(ranked, qrels, k):
    num_rel = sum(1 for g in qrels if te_relevant(g))
    return te_num_ret_rel(ranked, k) / num_rel if num_rel else float("nan")


def capped_recall(ranked, qrels, k):
    num_rel = sum(1 for g in qrels if te_relevant(g))
    return te_num_ret_rel(ranked, k) / min(k, num_rel) if num_rel else float("nan")


def te_success(ranked, k):
    return 1.0 if te_num_ret_rel(ranked, k) > 0 else 0.0


def te_recip_rank(ranked, k=None):
    lst = ranked if k is None else ranked[:k]
    for rank, g in enumerate(lst, start=1):
        if te_relevant(g):
            return 1.0 / rank
    return 0.0


def precisions_at_relevant(ranked, k):
    """Precision at the rank of every relevant document in the first k."""
    out, found = [], 0
    for rank, g in enumerate(ranked[:k], start=1):
        if te_relevant(g):
            found += 1
            out.append(found / rank)
    return out


def ap_variant(ranked, qrels, k, denom):
    num_rel = sum(1 for g in qrels if te_relevant(g))
    if num_rel == 0:
        return float("nan")
    precs = precisions_at_relevant(ranked, k)
    if denom == "gold":  # trec_eval map_cut_k
        return sum(precs) / num_rel
    if denom == "min_gold_k":  # seed 003
        return sum(precs) / min(num_rel, k)
    if denom == "hits":  # seed 004
        return sum(precs) / len(precs) if precs else 0.0
    raise ValueError(denom)


def dcg(grades, k, gain):
    total = 0.0
    for rank, g in enumerate(grades[:k], start=1):
        if g > 0:
            total += gain(g) / math.log2(rank + 1)
    return total


def ndcg(ranked, qrels, k, gain):
    ideal = sorted(qrels, reverse=True)
    idcg = dcg(ideal, k, gain)
    if idcg == 0:
        return float("nan")
    return dcg(ranked, k, gain) / idcg


LINEAR = lambda g: float(g)  # noqa: E731  trec_eval: gain = qrels grade
EXPONENTIAL = lambda g: 2.0 ** g - 1  # noqa: E731


KS = [1, 2, 3, 4, 5, 10, 20]


def rank_case(name, ranked, qrels, note=""):
    per_k = []
    for k in KS:
        per_k.append({
            "k": k,
            "recall": te_recall(ranked, qrels, k),
            "capped_recall": capped_recall(ranked, qrels, k),
            "precision": te_P(ranked, k),
            "hit": te_success(ranked, k),
            "ndcg_linear": ndcg(ranked, qrels, k, LINEAR),
            "ndcg_exponential": ndcg(ranked, qrels, k, EXPONENTIAL),
            "ap_gold": ap_variant(ranked, qrels, k, "gold"),
            "ap_min_gold_k": ap_variant(ranked, qrels, k, "min_gold_k"),
            "ap_hits": ap_variant(ranked, qrels, k, "hits"),
            "rr": te_recip_rank(ranked, k),
        })
    return {
        "name": name,
        "note": note,
        "rel": ranked,
        "gold": qrels,
        "rr": te_recip_rank(ranked),
        "ap": ap_variant(ranked, qrels, max(len(ranked), 1), "gold"),
        "oracle": sorted(ranked, reverse=True),
        "cutoffs": per_k,
    }


def ranking_cases():
    cases = [
        rank_case("hand", [0, 1, 0, 1], [1, 1],
                  "recall@2=0.5, nDCG@4=(1/log2 3+1/log2 5)/(1+1/log2 3), AP=0.5, RR=0.5"),
        rank_case("graded_gold_outside_pool", [2, 0, 3, 1, 0], [3, 2, 1, 1],
                  "one grade-1 gold item is not in the pool"),
        rank_case("gold_not_in_pool", [0, 0, 1], [1, 1, 1]),
        rank_case("k_beyond_list", [1, 0], [1]),
        rank_case("empty_gold", [0, 0, 0], []),
        rank_case("empty_pool", [], [1, 2]),
        rank_case("no_hit", [0, 0, 0, 0, 0, 0], [1]),
        rank_case("all_gold", [1, 1, 1], [1, 1, 1]),
        rank_case("tie_order_a", [1, 0, 0], [1], "candidates 1 and 2 tied; caller put gold first"),
        rank_case("tie_order_b", [0, 1, 0], [1], "same tie, caller put gold second"),
        rank_case("graded_reversed", [1, 2, 3], [3, 2, 1]),
    ]
    rng = random.Random(20260118)
    for i in range(12):
        n = rng.randint(1, 30)
        ranked = [rng.choice([0, 0, 0, 1, 1, 2, 3]) for _ in range(n)]
        extra = [rng.choice([1, 2, 3]) for _ in range(rng.randint(0, 3))]
        qrels = [g for g in ranked if g > 0] + extra
        cases.append(rank_case(f"random_{i}", ranked, qrels))
    return cases


# ---------------------------------------------------------------------------
# Random baselines.


def brute_force_expectations(pool, qrels, k):
    """Exact expectations over every ordering of the pool (small pools)."""
    perms = list(itertools.permutations(pool))
    m = len(perms)
    keys = ["recall", "capped_recall", "precision", "hit", "ndcg_linear",
            "ndcg_exponential", "rr_at", "ap_gold", "ap_min_gold_k", "ap_hits"]
    acc = {key: 0.0 for key in keys}
    rr_full = 0.0
    for p in perms:
        p = list(p)
        acc["recall"] += te_recall(p, qrels, k)
        acc["capped_recall"] += capped_recall(p, qrels, k)
        acc["precision"] += te_P(p, k)
        acc["hit"] += te_success(p, k)
        acc["ndcg_linear"] += ndcg(p, qrels, k, LINEAR)
        acc["ndcg_exponential"] += ndcg(p, qrels, k, EXPONENTIAL)
        acc["rr_at"] += te_recip_rank(p, k)
        acc["ap_gold"] += ap_variant(p, qrels, k, "gold")
        acc["ap_min_gold_k"] += ap_variant(p, qrels, k, "min_gold_k")
        acc["ap_hits"] += ap_variant(p, qrels, k, "hits")
        rr_full += te_recip_rank(p)
    out = {key: v / m for key, v in acc.items()}
    out["rr"] = rr_full / m
    return out


def falling(a, b):
    """a (a-1) ... (a-b+1) as an exact integer; 0 if b > a."""
    r = 1
    for i in range(b):
        r *= a - i
    return r


def pattern_expectations(n, g, k, n_gold):
    """E[AP@k] for every denominator and E[RR@k] over a pool of n items with
    g binary gold, by enumerating every gold/non-gold pattern of the top
    min(k, n) positions with its exact probability."""
    m = min(k, n)
    e = {"ap_gold": Fraction(0), "ap_min_gold_k": Fraction(0), "ap_hits": Fraction(0), "rr_at": Fraction(0)}
    total_p = Fraction(0)
    for bits in itertools.product([0, 1], repeat=m):
        h = sum(bits)
        if h > g or m - h > n - g:
            continue
        prob = Fraction(falling(g, h) * falling(n - g, m - h), falling(n, m))
        total_p += prob
        found, s, rr = 0, Fraction(0), Fraction(0)
        for rank, b in enumerate(bits, start=1):
            if b:
                found += 1
                s += Fraction(found, rank)
                if rr == 0:
                    rr = Fraction(1, rank)
        e["ap_gold"] += prob * s / n_gold
        e["ap_min_gold_k"] += prob * s / min(n_gold, k)
        e["ap_hits"] += prob * (s / h if h else 0)
        e["rr_at"] += prob * rr
    assert total_p == 1, total_p
    return {key: float(v) for key, v in e.items()}


def random_cases():
    small = [
        ("hand", [0, 1, 0, 1], [1, 1]),
        ("graded", [2, 0, 3, 1, 0], [3, 2, 1, 1]),
        ("one_gold", [0, 0, 0, 1, 0, 0], [1]),
        ("gold_outside_pool", [0, 1, 0, 0, 1], [1, 1, 2]),
        ("no_gold_in_pool", [0, 0, 0], [1]),
        ("all_gold", [1, 2, 1], [2, 1, 1]),
        ("seven", [0, 3, 0, 1, 0, 0, 2], [3, 2, 1]),
    ]
    out = []
    for name, pool, qrels in small:
        for k in [1, 2, 3, 5, 10]:
            row = {"name": name, "rel": pool, "gold": qrels, "k": k, "method": "brute_force_permutations"}
            row.update(brute_force_expectations(pool, qrels, k))
            out.append(row)
    # Larger pools: pattern enumeration (AP, RR@k) and scipy hypergeom (hit).
    large = [
        ("n40_g5", 40, 5, 10, 6),
        ("n25_g12", 25, 12, 8, 12),
        ("n500_g7", 500, 7, 12, 9),
        ("n20_g1", 20, 1, 10, 1),
    ]
    for name, n, g, k, n_gold in large:
        pool = [1] * g + [0] * (n - g)
        row = {"name": name, "rel": pool, "gold": [1] * n_gold, "k": k, "method": "pattern_enumeration+scipy.hypergeom"}
        row.update(pattern_expectations(n, g, k, n_gold))
        row["hit"] = 1.0 - float(scipy.stats.hypergeom.pmf(0, n, g, min(k, n)))
        row["recall"] = min(k, n) * g / n / n_gold
        row["precision"] = min(k, n) * g / n / k
        out.append(row)
    return out


# ---------------------------------------------------------------------------
# Multi-label.


def multilabel_cases():
    rng = np.random.default_rng(20260118)
    cases = []

    def add(name, truth, pred):
        truth = np.asarray(truth, dtype=int)
        pred = np.asarray(pred, dtype=int)
        cases.append({
            "name": name,
            "truth": truth.astype(bool).tolist(),
            "pred": pred.astype(bool).tolist(),
            "exact_match": accuracy_score(truth, pred),
            "hamming_loss": hamming_loss(truth, pred),
            "hamming_score": 1.0 - hamming_loss(truth, pred),
            "micro_f1": f1_score(truth, pred, average="micro", zero_division=0),
            "macro_f1_posts": f1_score(truth, pred, average="samples", zero_division=0),
            "macro_f1_criteria": f1_score(truth, pred, average="macro", zero_division=0),
            "weighted_f1": f1_score(truth, pred, average="weighted", zero_division=0),
        })

    # 60 posts x 10 criteria, ~10% positive, predictions with errors.
    truth = (rng.random((60, 10)) < 0.12).astype(int)
    flip = rng.random((60, 10)) < 0.08
    pred = np.where(flip, 1 - truth, truth)
    add("random_60x10", truth, pred)
    # Sparse: several posts and one criterion with no positive anywhere.
    truth = np.zeros((8, 4), dtype=int)
    pred = np.zeros((8, 4), dtype=int)
    truth[0, 0] = truth[1, 0] = truth[2, 1] = 1
    pred[0, 0] = pred[2, 0] = pred[3, 2] = 1
    add("sparse_8x4", truth, pred)
    add("all_negative", np.zeros((3, 5)), np.zeros((3, 5)))
    add("perfect", [[1, 0, 1], [0, 0, 0], [1, 1, 1]], [[1, 0, 1], [0, 0, 0], [1, 1, 1]])
    add("all_wrong", [[1, 0], [0, 1]], [[0, 1], [1, 0]])
    return cases


# ---------------------------------------------------------------------------
# Summary statistics and correlation.


def summary_cases():
    rng = np.random.default_rng(7)
    arrays = {
        "single": [0.5],
        "two": [0.0, 1.0],
        "ties": [1.0, 0.5, 0.5, 0.5, 0.25, 1.0, 0.0],
        "recall_like": rng.choice([0.0, 1 / 3, 0.5, 2 / 3, 1.0], size=37).tolist(),
        "normal": rng.normal(0.7, 0.2, size=101).tolist(),
        "with_nan": [0.2, float("nan"), 0.9, 0.4, float("nan"), 0.6],
        "all_nan": [float("nan"), float("nan")],
        "empty": [],
        "negative_mean": [-1.0, -2.0, -4.0],
        "zero_mean": [-1.0, 1.0],
    }
    out = []
    for name, x in arrays.items():
        a = np.asarray(x, dtype=float)
        d = a[~np.isnan(a)]
        row = {"name": name, "x": x, "n": int(d.size), "skipped": int(a.size - d.size)}
        if d.size:
            row.update({
                "mean": float(np.mean(d)),
                "std": float(np.std(d)),
                "median": float(np.percentile(d, 50, method="linear")),
                "p25": float(np.percentile(d, 25, method="linear")),
                "p75": float(np.percentile(d, 75, method="linear")),
                "p90": float(np.percentile(d, 90, method="linear")),
                "min": float(np.min(d)),
                "max": float(np.max(d)),
                "fold_std_population": float(np.std(d, ddof=0)),
                "fold_std_sample": float(np.std(d, ddof=1)) if d.size > 1 else float("nan"),
                "cv": float(scipy.stats.variation(d)) if np.mean(d) != 0 else float("nan"),
            })
        else:
            for key in ["mean", "std", "median", "p25", "p75", "p90", "min", "max",
                        "fold_std_population", "fold_std_sample", "cv"]:
                row[key] = float("nan")
        out.append(row)
    # Quantiles at many q on one sorted array (numpy 'linear').
    s = sorted(rng.normal(0, 1, size=13).tolist())
    qs = [0.0, 0.01, 0.1, 0.25, 0.333, 0.5, 0.6, 0.75, 0.9, 0.99, 1.0]
    quant = {"sorted": s, "q": qs, "value": [float(np.quantile(s, q, method="linear")) for q in qs]}
    return out, quant


def corr_cases():
    rng = np.random.default_rng(11)
    cases = []

    def add(name, x, y):
        x = list(map(float, x))
        y = list(map(float, y))
        res = scipy.stats.spearmanr(x, y)
        cases.append({
            "name": name, "x": x, "y": y,
            "rho": float(res.correlation), "p": float(res.pvalue),
            "ranks_x": scipy.stats.rankdata(x, method="average").tolist(),
            "ranks_y": scipy.stats.rankdata(y, method="average").tolist(),
        })

    add("three", [1, 2, 3], [1, 3, 2])
    add("ties", [1, 2, 2, 3, 4, 4, 4, 5], [0.1, 0.5, 0.3, 0.3, 0.9, 0.2, 0.9, 1.0])
    add("negative", [10, 20, 30, 40, 50, 60], [0.9, 0.8, 0.85, 0.4, 0.3, 0.1])
    # Difficulty (n_neg / n_pos) against a recall-like metric with many ties.
    npos = rng.integers(1, 6, size=150)
    nneg = rng.integers(8, 40, size=150)
    diff = nneg / npos
    rec = np.clip(np.round((1.0 - diff / 60 + rng.normal(0, 0.25, size=150)) * npos) / npos, 0, 1)
    add("difficulty_recall", diff.tolist(), rec.tolist())
    add("independent", rng.normal(size=40).tolist(), rng.normal(size=40).tolist())
    return cases


def main():
    dump("rank_reference.json", {"cases": ranking_cases()})
    dump("rank_random_reference.json", {"cases": random_cases()})
    dump("multilabel_reference.json", {"cases": multilabel_cases()})
    summ, quant = summary_cases()
    dump("summary_reference.json", {"cases": summ, "quantiles": quant})
    dump("corr_reference.json", {"cases": corr_cases()})


if __name__ == "__main__":
    main()
