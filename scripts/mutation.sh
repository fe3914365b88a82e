#!/usr/bin/env bash
# Mutation testing (docs/testing.md "Mutation testing", docs/mutation.md): mutmut mutates
# regulation/, views/state.py, views/routes.py and records/ ([tool.mutmut] in pyproject.toml) and
# runs the fast in-process tests that reach each mutant; then the score per module
# (scripts/mutation_score.py). Not in CI: all of it keeps both cores busy for hours; one module
# takes minutes. mutmut keeps its results in mutants/ and reruns only what changed.
#
#   scripts/mutation.sh                        # every mutant not yet decided, then the score
#   scripts/mutation.sh "records.identity*"    # one module's mutants not killed yet (after new tests)
#   scripts/mutation.sh "records.sync.hlc*"    # a module of a subpackage
#   scripts/mutation.sh --quick "records.merge*"  # first pass: only the module's own tests and
#                                              # its killers (one pattern a module, several
#                                              # allowed); then the same without --quick
#   scripts/mutation.sh --fresh                # start over: a clean measurement
#   scripts/mutation.sh --score                # only print the score of the results so far
#   MUTATION_CHILDREN=1 scripts/mutation.sh    # parallel test processes (default 2)
#
# The tests' temporary folders (a LogStore on disk per test, committed with synchronous=FULL)
# are on tmpfs (/dev/shm) when there is one (tests/conftest.py): an fsync there returns at once,
# and a survivor of records/ runs its hundreds of store tests several times faster
# (bench/bench_mutation_speed.py).
# --quick (tests/mutation_order.py): a mutant runs only the tests that killed a mutant of its
# module and the module's own test files; those it survives are decided by the run without
# --quick, which runs exactly them with the whole selection (until then they count as alive).
# A pattern names mutmut's mutants, but mutmut reruns every one it names, killed ones included:
# it is given the names of those neither killed nor explained in docs/mutation.md
# (scripts/mutation_score.py --pending), unless a mutated file changed since mutmut last made
# its mutants (then the pattern as it is). Name a mutant in full to run it again anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
MUTMUT_VERSION=3.8.1
if [ "$(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("mutmut"))' 2>/dev/null)" != "$MUTMUT_VERSION" ]; then
  .venv/bin/python -m pip install -q "mutmut==$MUTMUT_VERSION"
fi
if [ "${1:-}" = "--quick" ]; then
  shift
  modules=()
  for pattern in "$@"; do
    if [[ "$pattern" != *"*" ]]; then
      echo "--quick takes modules' patterns, e.g. \"records.merge*\"" >&2
      exit 2
    fi
    modules+=("${pattern%\*}")
  done
  MUTATION_FIRST_PASS="$(IFS=,; echo "${modules[*]}")"
  export MUTATION_FIRST_PASS
fi
# Every mutated file's mutants are known from the last run (mutmut's test as well: the mutated
# copy is newer than the file).
generated() {
  local source
  while read -r source; do
    [ "mutants/$source" -nt "$source" ] || return 1
  done < <(git ls-files regulation records views/state.py views/routes.py | grep '\.py$')
}
case "${1:-}" in
  --score) ;;
  --fresh)
    rm -rf mutants
    .venv/bin/python -m mutmut run --max-children "${MUTATION_CHILDREN:-2}"
    ;;
  "") .venv/bin/python -m mutmut run --max-children "${MUTATION_CHILDREN:-2}" ;;
  *)
    names=("$@")
    if generated; then
      patterns=() names=()
      for arg in "$@"; do
        if [[ "$arg" == *"*"* ]]; then patterns+=("$arg"); else names+=("$arg"); fi
      done
      if [ "${#patterns[@]}" -gt 0 ]; then
        mapfile -t -O "${#names[@]}" names < <(.venv/bin/python scripts/mutation_score.py --pending "${patterns[@]}")
      fi
      if [ "${#names[@]}" -eq 0 ]; then
        echo "Every mutant of $* is killed or explained in docs/mutation.md."
      fi
    fi
    if [ "${#names[@]}" -gt 0 ]; then
      .venv/bin/python -m mutmut run --max-children "${MUTATION_CHILDREN:-2}" "${names[@]}"
    fi
    ;;
esac
exec .venv/bin/python scripts/mutation_score.py
