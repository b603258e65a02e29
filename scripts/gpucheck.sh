#!/bin/sh
# The GPU check: everything coop can run, on the CPU executor and a Vulkan
# GPU, compared (docs/VULKAN.md). Needs a Vulkan driver; run from the
# repository root:
#   scripts/gpucheck.sh [COOP] [CORPUS]
# COOP is a coop-vulkan binary (default: built from cmd/coop-vulkan into a
# temporary folder; a coop binary does as well when coop-vulkan is next to
# it or on PATH, as coop hands Vulkan command lines to it), CORPUS the
# glslang corpus (default ../shared/corpus/glslang; skipped if absent).
# Parts: every example and every script under script/testdata with
# `coop run --backend both` (every EXPECT on both devices, every buffer
# compared); every script under scripts/refused must be refused on the GPU
# with the rule its first line names; the corpus with `coop gpucheck`.
# Ends with one summary line; exit status 1 when anything failed.
set -u
COOP=${1:-}
CORPUS=${2:-../shared/corpus/glslang}
if [ -z "$COOP" ]; then
	COOP=$(mktemp -d)/coop-vulkan
	go build -o "$COOP" ./cmd/coop-vulkan || exit 1
fi
pass=0 fail=0 broken=0 refused=0 notrefused=0
for s in examples/*.amber script/testdata/*.amber; do
	out=$("$COOP" run --backend both "$s" 2>&1)
	rc=$?
	echo "$out" | grep -v '^PASS '
	p=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p')
	f=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p')
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0}))
	if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
		broken=$((broken + 1))
		echo "BROKEN $s"
	fi
done
for s in scripts/refused/*.amber; do
	rule=$(sed -n '1s/^# REFUSED: *//p' "$s")
	if "$COOP" run --backend vulkan "$s" 2>&1 | grep -q -- "$rule"; then
		refused=$((refused + 1))
		echo "REFUSED $s ($rule)"
	else
		notrefused=$((notrefused + 1))
		echo "NOT REFUSED $s (want $rule)"
	fi
done
corpus="corpus: not run ($CORPUS absent)"
cfail=0
if [ -f "$CORPUS/MANIFEST.tsv" ]; then
	"$COOP" gpucheck --detail --corpus "$CORPUS" >"${TMPDIR:-/tmp}/gpucheck.$$" 2>&1
	grep -v '^SAME ' "${TMPDIR:-/tmp}/gpucheck.$$"
	corpus=$(grep '^corpus:' "${TMPDIR:-/tmp}/gpucheck.$$" ||
		echo "corpus: stopped after $(grep -c '^SAME ' "${TMPDIR:-/tmp}/gpucheck.$$") same modules: $(tail -1 "${TMPDIR:-/tmp}/gpucheck.$$")")
	cfail=$(echo "$corpus" | sed -n 's/^corpus: [0-9]* same, \([0-9]*\) differ,.*/\1/p')
	case $corpus in "corpus: stopped"*) cfail=1 ;; esac
	rm -f "${TMPDIR:-/tmp}/gpucheck.$$"
fi
echo "gpucheck: scripts $pass passed, $fail failed, $broken could not run; refused $refused of $((refused + notrefused)); $corpus"
[ $fail -eq 0 ] && [ $broken -eq 0 ] && [ $notrefused -eq 0 ] && [ "${cfail:-0}" -eq 0 ]
