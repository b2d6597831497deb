#!/usr/bin/env Rscript
# Reference values for stats.DeLongCI: pROC's ci.auc with its default
# method (DeLong), computed once with pROC (Debian r-cran-proc).
#
# Run from this directory:  Rscript delong_ci_gen.R
# It writes delong_ci_reference.json (inputs included). go test never runs R.
suppressMessages(library(pROC))

# Minimal JSON writer: numbers with 17 significant digits (jsonlite stops at
# 15), so the Go test reads back exactly the doubles R used.
to_json <- function(x, indent = "") {
  ind <- paste0(indent, " ")
  if (is.list(x)) {
    if (is.null(names(x))) {
      items <- sapply(x, to_json, indent = ind)
      return(paste0("[\n", ind, paste(items, collapse = paste0(",\n", ind)), "\n", indent, "]"))
    }
    items <- mapply(function(k, v) paste0("\"", k, "\": ", to_json(v, ind)), names(x), x)
    return(paste0("{\n", ind, paste(items, collapse = paste0(",\n", ind)), "\n", indent, "}"))
  }
  if (is.character(x) && length(x) == 1) return(paste0("\"", x, "\""))
  one <- function(v) {
    if (is.logical(v)) return(if (v) "true" else "false")
    if (is.na(v)) return("null")
    sprintf("%.17g", v)
  }
  vals <- vapply(as.vector(x), one, "")
  if (length(x) == 1 && is.null(attr(x, "array"))) return(vals)
  paste0("[", paste(vals, collapse = ", "), "]")
}
vec <- function(x) structure(x, array = TRUE) # always written as a JSON array
set.seed(20260126)

ci_case <- function(name, y, p, conf) {
  r <- roc(response = y, predictor = p, levels = c(FALSE, TRUE), direction = "<", quiet = TRUE)
  ci <- ci.auc(r, conf.level = conf)  # method = "delong" is the default for a full AUC
  list(name = name, y = vec(y), p = vec(p), conf = conf,
       auc = as.numeric(auc(r)), low = as.numeric(ci[1]), high = as.numeric(ci[3]))
}

cases <- list()
# 30 rows on a 0.1 grid: ties within and across classes.
y <- runif(30) < 0.45
p <- round(pmin(pmax(rnorm(30, 0.4 + 0.25 * y, 0.2), 0), 1), 1)
cases[[length(cases) + 1]] <- ci_case("ties30", y, p, 0.95)
cases[[length(cases) + 1]] <- ci_case("ties30_90", y, p, 0.90)
# 500 rows, probabilities from a logistic model (a classifier's output).
y <- runif(500) < 0.2
p <- round(plogis(-1.5 + 1.4 * y + rnorm(500)), 4)
cases[[length(cases) + 1]] <- ci_case("logistic500", y, p, 0.95)
# Nearly separated: the upper bound is clipped at 1.
y <- c(rep(FALSE, 6), rep(TRUE, 4))
p <- c(0.1, 0.2, 0.25, 0.3, 0.35, 0.7, 0.6, 0.8, 0.9, 0.95)
cases[[length(cases) + 1]] <- ci_case("separated10", y, p, 0.95)
# Worse than chance (direction fixed to "<", no flip).
y <- runif(60) < 0.5
p <- rnorm(60, -0.6 * y)
cases[[length(cases) + 1]] <- ci_case("reversed60", y, p, 0.95)

out <- list(generator = "delong_ci_gen.R",
            versions = list(R = R.version.string, pROC = as.character(packageVersion("pROC"))),
            cases = cases)
writeLines(to_json(out), "delong_ci_reference.json")
