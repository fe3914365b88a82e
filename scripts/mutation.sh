#!/usr/bin/env bash
# Mutation testing (docs/testing.md "Mutation testing", docs/mutation.md): mutmut mutates
# regulation/, views/state.py, views/routes.py and records/ ([tool.mutmut] in pyproject.toml) and
# runs the fast in-process tests that reach each mutant; then the score per module
# (scripts/mutation_score.py). Not in CI: all of it keeps both cores busy for hours; one module
# takes minutes. mutmut keeps its results in mutants/ and reruns only what changed.
#
#   scripts/mutation.sh                        # every mutant not yet decided, then the score
#   scripts/mutation.sh "records.identity*"    # one module's mutants (after new tests)
#   scripts/mutation.sh "records.sync.hlc*"    # a module of a subpackage
#   scripts/mutation.sh --fresh                # start over: a clean measurement
#   scripts/mutation.sh --score                # only print the score of the results so far
#   MUTATION_CHILDREN=1 scripts/mutation.sh    # parallel test processes (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
MUTMUT_VERSION=3.8.1
if [ "$(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("mutmut"))' 2>/dev/null)" != "$MUTMUT_VERSION" ]; then
  .venv/bin/python -m pip install -q "mutmut==$MUTMUT_VERSION"
fi
case "${1:-}" in
  --score) ;;
  --fresh)
    rm -rf mutants
    .venv/bin/python -m mutmut run --max-children "${MUTATION_CHILDREN:-2}"
    ;;
  *) .venv/bin/python -m mutmut run --max-children "${MUTATION_CHILDREN:-2}" "$@" ;;
esac
exec .venv/bin/python scripts/mutation_score.py
