#!/usr/bin/env bash
# Two checks of the module boundaries. First, the folders of src form a stack: no cycle between
# them, type-only imports included (scripts/check-folder-cycles.ts prints one cycle and its imports).
# Then, each table belongs to one module: no file in src imports another module's *.entity.ts.
# src/app-data-source.ts (every entity, for the DataSource) is the one exception; an `import type`
# names a row's shape, not the table, and is allowed.
# Exits 1 and prints the offending lines on a violation. `npm run lint` enforces the same rule
# (import-x/no-restricted-paths); the entity check needs nothing but grep.
set -euo pipefail
cd "$(dirname "$0")/.."

npx ts-node --transpile-only scripts/check-folder-cycles.ts

violations=$(
  grep -rnE --include='*.ts' "from '(\.\./)+[a-z-]+/[^']*\.entity'" src |
    grep -v '^src/app-data-source\.ts:' |
    grep -v '^[^:]*:[0-9]*:import type ' |
    awk -F: '{
      split($1, own, "/");                       # src/<module>/...
      match($0, /from \x27(\.\.\/)+[a-z-]+\//);  # the first folder after the ../ run
      imported = substr($0, RSTART, RLENGTH);
      sub(/^from \x27(\.\.\/)+/, "", imported); sub(/\/$/, "", imported);
      if (imported != own[2]) print;
    }' || true
)
if [[ -n "$violations" ]]; then
  echo "Cross-module entity imports (use the owner module's service or repository):" >&2
  echo "$violations" >&2
  exit 1
fi
echo "module boundaries: no cross-module entity imports"
