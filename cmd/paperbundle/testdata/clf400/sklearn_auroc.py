# Reference numbers of TestPerQueryCSVSklearn (cmd/paperbundle), not run by
# make test: scikit-learn's roc_auc_score on the label and score columns of
# each table, which per_query_metrics.csv must reproduce.
#   /usr/bin/python3 sklearn_auroc.py > sklearn_auroc.json
import csv, json
from sklearn.metrics import roc_auc_score
out = {}
for name, col in (("ne_prob.csv", "ne_prob"), ("ne_score.csv", "ne_score")):
    rows = list(csv.DictReader(open(name)))
    out[name] = roc_auc_score([int(r["label"]) for r in rows], [float(r[col]) for r in rows])
print(json.dumps(out, indent=1, sort_keys=True))
