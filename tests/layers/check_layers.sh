#!/usr/bin/env bash
# Checks that the build's layer include roots (see sluice_layer() in the top CMakeLists.txt)
# let each layer include the layers below it and nothing above: for every pair of layers, a
# one-line source including a header of the other layer is compiled (syntax only) against the
# first layer's root, and must compile exactly when the other layer is below it or the same.
# Usage: check_layers.sh <c++ compiler> <build>/layers <source>/include
set -euo pipefail
cxx=$1
roots=$2
public_include=$3

# A header of each layer that every build has.
declare -A header=(
  [util]=util/coding.h [base]=base/internal_key.h [wal]=wal/log_writer.h
  [table]=table/table.h [memory]=memory/memory_component.h [version]=version/version_set.h
  [db]=db/db_impl.h
)
# What each layer may use (besides itself): the layering of docs/design.md.
declare -A below=(
  [util]="" [base]="util" [wal]="base util" [table]="base util" [memory]="base util"
  [version]="table wal base util" [db]="memory version table wal base util"
)

failures=0
checked=0
for layer in "${!below[@]}"; do
  for other in "${!header[@]}"; do
    allowed=no
    if [[ $other == "$layer" || " ${below[$layer]} " == *" $other "* ]]; then allowed=yes; fi
    if printf '#include "%s"\n' "${header[$other]}" |
        "$cxx" -std=c++20 -fsyntax-only -x c++ -I "$roots/$layer" -I "$public_include" - \
          >/dev/null 2>&1; then
      compiled=yes
    else
      compiled=no
    fi
    checked=$((checked + 1))
    if [[ $compiled != "$allowed" ]]; then
      echo "layer $layer including ${header[$other]}: compiled=$compiled, expected $allowed"
      failures=$((failures + 1))
    fi
  done
done
echo "$checked layer/header pairs checked, $failures wrong"
[[ $failures == 0 ]]
