# Sourced by run.sh and test.sh: creates .venv/ with the project and its test tools, once; a
# venv made before a test tool was added (pytest-xdist, pytest-rerunfailures) gets the test
# extra again.
# pip is not upgraded first: the venv's own pip installs every wheel here, and an upgrade cost
# half a minute of a fresh clone's CI for nothing.
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"
elif ! .venv/bin/python -c "import xdist, pytest_rerunfailures" 2>/dev/null; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]"
fi
