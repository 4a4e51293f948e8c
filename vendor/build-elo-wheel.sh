#!/usr/bin/env bash
# Rebuild vendor/elo-0.1.1-py3-none-any.whl from elo's source distribution.
# Needs Python 3.10 or 3.11 (setuptools < 58 installs there) and PyPI.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo 'setuptools<58' > "$work/constraints.txt"
PIP_CONSTRAINT="$work/constraints.txt" python3 -m pip download --no-deps --no-binary :all: \
    elo==0.1.1 -d "$work/sdist"
echo "d47e322e440f7463ce2b75c63b83a777aa01a60e4b37808c1bc4a2736848886f  $work/sdist/elo-0.1.1.tar.gz" \
    | sha256sum --check
PIP_CONSTRAINT="$work/constraints.txt" python3 -m pip wheel --no-deps "$work/sdist/elo-0.1.1.tar.gz" -w .
