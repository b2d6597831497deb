# paperbundle — a thin Makefile over the go tool.
#
#   make paper   build a bundle: from ./paper.yaml when it exists, else from
#                the built-in demo dataset (generated into demo/)
#   make test    run every test (under 3 minutes on 2 cores), then list the
#                optional clients that were missing and what was skipped
#   make lint    go vet, staticcheck (pinned) and the race detector (-short)
#   make bench   wall, CPU, peak memory and stage split of the four
#                performance workloads (cmd/pbbench, docs/performance.md),
#                then every Go benchmark
#   make axe     fetch axe-core for the browser tests of e2e/ (they skip without it)

GO        ?= go
BIN       := bin/paperbundle
ECHARTS_VERSION := 5.6.0
ECHARTS_SHA256  := $(shell cat templates/echarts.sha256 2>/dev/null)
ECHARTS   := templates/assets/echarts.min.js
AXE_VERSION := 4.14.1
AXE       := e2e/assets/axe.min.js
PAPERFLAGS ?=
# e.g. BENCHFLAGS="-only a,d" or "-trec_eval /tmp/trec_eval_bin/trec_eval"
BENCHFLAGS ?=
# staticcheck 2026.2.2, run through go run at a pinned module version.
STATICCHECK_VERSION := v0.8.2

.PHONY: paper test lint bench build demo echarts axe fuzz clients clean

build: $(ECHARTS)
	$(GO) build -o $(BIN) ./cmd/paperbundle

# The echarts library is fetched with npm pack (pinned version and sha256)
# into a git-ignored folder that the templates package embeds. Without it the
# build still works and the report shows static figures only.
echarts: $(ECHARTS)
$(ECHARTS):
	@sh templates/fetch-echarts.sh $(ECHARTS_VERSION) || echo "warning: echarts not fetched; report.html will show static figures only" >&2

# axe-core, test-only: the browser tests of e2e/ inject it into report.html.
# Fetched with npm pack (pinned version, sha256 of axe.min.js checked) into a
# git-ignored folder; `make test` does not need it (that test skips).
axe: $(AXE)
$(AXE):
	@sh e2e/fetch-axe.sh $(AXE_VERSION) || echo "warning: axe-core not fetched; the accessibility test will be skipped" >&2

# The bundle is dated by the last commit when make paper runs inside a git
# repository and SOURCE_DATE_EPOCH is not set (the reproducible-builds
# convention): the same commit gives the same date and the same bytes.
paper: build
	@if [ -z "$$SOURCE_DATE_EPOCH" ] && epoch=$$(git log -1 --format=%ct 2>/dev/null) && [ -n "$$epoch" ]; then \
		export SOURCE_DATE_EPOCH=$$epoch; echo "SOURCE_DATE_EPOCH=$$epoch (the last commit's time)"; \
	fi; \
	if [ -f paper.yaml ]; then \
		./$(BIN) build -config paper.yaml $(PAPERFLAGS); \
	else \
		[ -f demo/paper.yaml ] || ./$(BIN) demo -out demo; \
		./$(BIN) build -config demo/paper.yaml -out results/paper_bundle $(PAPERFLAGS); \
	fi

demo: build
	./$(BIN) demo -out demo

# go test's own limit is 10 minutes per package; the slowest packages
# (e2e, cmd/paperbundle) take 1-2 minutes alone but can take several times
# that beside another build, so the limit is explicit and generous: a hung
# test still ends with a stack dump, a slow machine does not.
TEST_TIMEOUT ?= 20m

# The end-to-end tests build the reduced demo (dataset/demo.Reduced); the
# full demo is built by make paper and make bench. The list of missing
# optional clients is printed whether the tests pass or fail.
test:
	$(GO) vet ./...
	@$(GO) test -timeout $(TEST_TIMEOUT) ./... || { $(MAKE) --no-print-directory clients; exit 1; }
	@cache=$$(mktemp -d) && $(MAKE) --no-print-directory fuzz FUZZCACHE=$$cache; status=$$?; rm -rf "$$cache"; exit $$status
	@$(MAKE) --no-print-directory clients

# The optional clients some tests use, and what skips without each. The
# tests skip (and pass) without them; this says so instead of leaving it to
# go test -v.
clients:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || { missing=1; echo "missing chromium: skipped the browser tests of e2e/ (report.html on desktop, phone, dark, without scripts, hostile strings; the harness); install Debian's chromium"; }; \
	[ -f $(AXE) ] || { missing=1; echo "missing axe-core: skipped e2e TestReportDesktop/axe, TestReportDark/axe and TestHarness/axe; run make axe"; }; \
	command -v soffice >/dev/null 2>&1 || { missing=1; echo "missing soffice: skipped tables/xlsx TestLibreOffice (tables.xlsx read by LibreOffice); install libreoffice-calc-nogui"; }; \
	command -v pdflatex >/dev/null 2>&1 || { missing=1; echo "missing pdflatex: skipped tables/paper TestCompileVenues, TestMissingKey, TestUncertaintyModes, TestOneColumnVenues (paper/ compiled); install texlive-latex-recommended texlive-science texlive-publishers"; }; \
	command -v pdflatex >/dev/null 2>&1 && ! kpsewhich acmart.cls >/dev/null 2>&1 && { missing=1; echo "missing acmart/IEEEtran: tables/paper compiled paper/ in article with the venues' geometry only; install texlive-publishers"; }; \
	[ -f $(ECHARTS) ] || { missing=1; echo "missing echarts: skipped templates TestEChartsPinned, and the tests see report.html with static figures only; run make echarts"; }; \
	[ -n "$$missing" ] || echo "optional clients: chromium, axe-core, soffice, pdflatex and echarts all present; no test was skipped for want of one"

# Every parser and the configuration loader has a fuzz target; `make
# test` runs each briefly (FUZZTIME) beyond its committed seed corpus. Before
# a release: make fuzz FUZZTIME=10m. The default is a count of executions, not
# a duration: with a duration, Go 1.26's fuzz coordinator can fail a target
# with "context deadline exceeded" at the end of the time and no crasher
# (go.dev/issue/75804, fixed in Go 1.27); a count has no deadline to race.
# FUZZMINTIME bounds the minimization of each new input: go test's default
# of 60 s stalls a target whose inputs are kilobytes (a Parquet file), as the
# minimizer tries removing every pair of cut points, one run each.
# 10,000 executions a target: in make test (the seeds only) a target then
# takes 1-2.5 s here, and the 12 targets about 21 s (37 CPU-seconds).
FUZZTIME ?= 10000x
FUZZMINTIME ?= 2000x
# The two targets over configurations (FuzzConfigRange: every key within its
# documented range; FuzzVerifyConfig: a bundle's config.yaml handed to verify)
# build a bundle per execution (about half a second) and their instrumented
# build takes two minutes here: `make test` runs only their seeds (as tests);
# before a release: make fuzz FUZZTIME=10m FUZZBUILDTIME=10m.
FUZZBUILDTIME ?=
# FUZZCACHE: where the inputs a fuzz run found interesting are kept, one
# folder per package (go test's own place by default, $GOCACHE/fuzz/<import
# path>, kept from run to run and replayed at the start of every later run
# of the target, by make fuzz and by go test -fuzz alike). `make test` gives
# each run a fresh empty folder instead: its brief fuzzing then starts from
# the committed seeds alone, so it takes the same time on every machine
# instead of growing with the corpus earlier runs left (335 inputs of
# FuzzCSV here, replayed in 2 s of its 3). A crasher is still written to the
# package's testdata/fuzz, as always.
FUZZCACHE ?= $(shell $(GO) env GOCACHE)/fuzz/paperbundle
# package:target, in the order they run; the two targets over whole builds
# only when FUZZBUILDTIME is set.
FUZZ_TARGETS := $(addprefix dataset:,FuzzCSV FuzzJSONL FuzzTableChunks FuzzJSONLChunks FuzzTRECRun FuzzRunChunks FuzzQrels FuzzQueries FuzzNEProbs FuzzParquet) \
	config:FuzzParse audit:FuzzScan \
	$(if $(FUZZBUILDTIME),cmd/paperbundle:FuzzConfigRange cmd/paperbundle:FuzzVerifyConfig)
# Each package's test binary is built once, instrumented for fuzzing (go
# test -c -fuzz), and run once a target in the package's folder (where its
# testdata/ is), with the flags go test -fuzz would give it. One go test
# -fuzz a target would link the same binary again every time: 1 s of the
# 2-3 s a dataset target takes here.
fuzz:
	@bins=$$(mktemp -d) || exit 1; trap 'rm -rf "$$bins"' EXIT; \
	for pt in $(FUZZ_TARGETS); do \
		pkg=$${pt%%:*}; t=$${pt##*:}; bin="$$bins/$$(echo $$pkg | tr / _).test"; time=$(FUZZTIME); \
		[ "$$pkg" != cmd/paperbundle ] || time=$(FUZZBUILDTIME); \
		[ -x "$$bin" ] || $(GO) test -c -fuzz . -o "$$bin" ./$$pkg/ || exit 1; \
		echo "fuzz $$pkg $$t ($$time)"; \
		( cd $$pkg && "$$bin" -test.run '^$$' -test.fuzz "^$$t\$$" -test.fuzztime $$time \
			-test.fuzzminimizetime $(FUZZMINTIME) -test.fuzzcachedir "$(FUZZCACHE)/$$pkg" ) >"$$bins/log" 2>&1 \
			|| { cat "$$bins/log"; echo "fuzz $$pkg $$t failed (its output is above)" >&2; exit 1; }; \
	done

# vet, staticcheck and the race detector must be clean. -short skips the
# slow demo and browser builds so this stays quick in CI.
lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...
	$(GO) test -race -short -timeout $(TEST_TIMEOUT) ./...

# The four workloads of docs/performance.md, then the Go benchmarks of every
# package, one package at a time (-p 1) so that two do not share the cores.
bench: build
	$(GO) run ./cmd/pbbench -bin $(BIN) $(BENCHFLAGS)
	$(GO) test -p 1 -run '^$$' -bench . -benchtime 3x ./...

clean:
	rm -rf bin demo results
