#!/usr/bin/env bash
# Builds and installs the sluice Python package into build/python-venv (created if missing) and
# runs its tests (bindings/python/tests); extra arguments go to pytest.
#
# The build is incremental: CMake's build directory persists in bindings/python/build, and the
# build requirements are installed in the venv once and used without pip's build isolation, so
# their paths (pybind11's headers) stay the same and an unchanged tree recompiles nothing. A
# plain `pip install ./bindings/python` (isolated) works too, recompiling only the binding.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
VENV=build/python-venv
PIP=("$VENV/bin/pip" --disable-pip-version-check)
if [ ! -x "$VENV/bin/python" ]; then
  mkdir -p build
  "$PYTHON" -m venv "$VENV"
fi
"${PIP[@]}" install -q "scikit-build-core>=0.10" "pybind11>=2.12" pytest
"${PIP[@]}" install -q --no-build-isolation ./bindings/python
"$VENV/bin/python" -m pytest -q -p no:cacheprovider bindings/python/tests "$@"
