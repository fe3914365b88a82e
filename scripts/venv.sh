# Sourced by run.sh and test.sh: creates .venv/ with the project and its test tools, once; a
# venv made before a test tool was added (pytest-xdist, pytest-rerunfailures) gets the test
# extra again.
# A fresh clone's CI spends this step's time on three things, each cut here:
# - the venv's own pip (ensurepip, 4 s of CPU, half a minute on a loaded machine): the system's
#   pip (22.3 or later: --python) installs into a venv made without one, pip included, in the
#   same single resolve, so `.venv/bin/python -m pip` still works afterwards;
# - compiling every installed module to bytecode (a quarter of pip's CPU, most of it for
#   modules nothing imports): --no-compile; what is imported is compiled on first use and kept
#   (scripts/test.sh keeps bytecode);
# - pip's own upgrade: never (it cost half a minute for nothing).
_pip_install() {
  local pip=(.venv/bin/python -m pip)
  if ! "${pip[@]}" --version >/dev/null 2>&1; then
    pip=(python3 -m pip --python .venv/bin/python)
  fi
  "${pip[@]}" install -q --disable-pip-version-check --no-compile "$@"
}
if [ ! -x .venv/bin/python ]; then
  if python3 -m pip --python "$(command -v python3)" --version >/dev/null 2>&1; then
    python3 -m venv --without-pip .venv
    _pip_install pip -e ".[test]"
  else  # an older system pip: the venv's own
    python3 -m venv .venv
    _pip_install -e ".[test]"
  fi
elif ! .venv/bin/python -c "import xdist, pytest_rerunfailures" 2>/dev/null; then
  _pip_install -e ".[test]"
fi
