#!/usr/bin/env bash
# The static checks of ./pagewright test, side by side: type-aware ESLint runs on one thread for
# ~95 s while the type check (TypeScript 7, threaded), Prettier and knip together take about half
# that, so on two cores the four end about when ESLint does (one after another: ~150 s). Each
# one's output is printed whole, in a fixed order, once all have ended; any failure fails the step.
# (Under `timeout`, a cap's signal reaches the whole process group: every check stops with it.)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=$(mktemp -d)
checks=(typecheck eslint prettier knip)
declare -A command=(
  [typecheck]='pnpm typecheck'
  [eslint]='pnpm exec eslint .'
  [prettier]='pnpm exec prettier --check .'
  [knip]='pnpm knip'
)
for check in "${checks[@]}"; do
  (
    started=$SECONDS
    status=0
    ${command[$check]} >"$out/$check.log" 2>&1 || status=$?
    echo "$status $((SECONDS - started))" >"$out/$check.result"
  ) &
done
wait

failed=0
for check in "${checks[@]}"; do
  read -r status seconds <"$out/$check.result" || { status=1 seconds='?'; }
  printf '\n--- %s: %s (exit %s, %s s)\n' "$check" "${command[$check]}" "$status" "$seconds"
  cat "$out/$check.log"
  [[ $status == 0 ]] || failed=1
done
rm -rf "$out"
exit "$failed"
