# shellcheck shell=bash disable=SC2016  # single-quoted node programs read process.argv
# ./pagewright test: the schema drift check, Vitest (unit + API integration) and Playwright
# (end to end). Each suite runs even when an earlier one failed; the suites start whatever they
# need themselves (their own databases, API and maildev), so the product is not started here.
# Counts come from the suites' JSON reports, summed by scripts/test-summary.mjs.

# Safety nets for a hung suite, not budgets: each suite has a cap of its own, and together they
# stay under 80 minutes (75: drift 5, static 15, Vitest 30, e2e 25), so a hung suite is stopped
# and the summary names the tests that were running before CI's 90 minutes kill the whole job.
# Each is about three times what the suite takes on an idle 2-core machine, room for a machine
# twice as slow (--stress). PAGEWRIGHT_SUITE_TIMEOUT, when set, is every suite's cap (seconds).
PW_CAP_DRIFT=${PAGEWRIGHT_SUITE_TIMEOUT:-300}
PW_CAP_STATIC=${PAGEWRIGHT_SUITE_TIMEOUT:-900}
PW_CAP_UNIT=${PAGEWRIGHT_SUITE_TIMEOUT:-1800}
PW_CAP_E2E=${PAGEWRIGHT_SUITE_TIMEOUT:-1500}

# `timeout` with the cap: SIGTERM first, SIGKILL 30 s later for a suite that ignores it.
capped() {
  local cap=$1
  shift
  timeout --kill-after=30 "$cap" "$@"
}

drop_database() {
  local admin_url
  admin_url=$(url_with_database "$DATABASE_URL" postgres)
  (cd "$PW_ROOT" && node --input-type=module -e '
    import pg from "pg";
    const [url, name] = process.argv.slice(1);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll("\"", "\"\"")}" WITH (FORCE)`);
    await client.end();
  ' "$admin_url" "$1")
}

# Migrates a new scratch database from prisma/migrations, then lets db:drift-check compare it
# with prisma/schema.prisma: a migration that was forgotten fails here.
run_drift_check() {
  step "Schema drift check"
  local name url status=0
  name=pagewright_drift_$(random_hex 4)
  url=$(url_with_database "$DATABASE_URL" "$name")
  info "scratch database $name"
  (cd "$PW_ROOT" && DATABASE_URL=$url capped "$PW_CAP_DRIFT" pnpm db:migrate &&
    DATABASE_URL=$url capped "$PW_CAP_DRIFT" pnpm db:drift-check) || status=$?
  drop_database "$name" || warn "could not drop the scratch database $name; drop it by hand."
  return "$status"
}

# Strict TypeScript across the workspace, ESLint, Prettier and knip: the house rules CI enforces,
# run side by side (scripts/static-checks.sh).
run_static_checks() {
  step "Static checks (pnpm typecheck, eslint, prettier, pnpm knip)"
  (cd "$PW_ROOT" && capped "$PW_CAP_STATIC" bash scripts/static-checks.sh)
}

# The suites never see the product's own database or key prefix (.env's, loaded for the set-up):
# every test makes its own, and one that reached for the product's would fail here, not pass
# wherever `./pagewright start` once ran (issue 37).
PW_PRODUCT_SETTINGS=(-u DATABASE_URL -u REDIS_KEY_PREFIX -u SHADOW_DATABASE_URL)

run_unit_suite() {
  step "Unit and integration tests (pnpm test:unit)"
  (cd "$PW_ROOT" && PW_RUNNING_TESTS_FILE="$PW_REPORTS/vitest.running.txt" \
    capped "$PW_CAP_UNIT" env "${PW_PRODUCT_SETTINGS[@]}" pnpm test:unit \
    --reporter=default --reporter=json --outputFile.json="$PW_REPORTS/vitest.json" \
    --reporter=./tests/support/vitest-running-reporter.ts)
}

run_e2e_suite() {
  step "End-to-end tests (pnpm test:e2e)"
  # Absolute names: Playwright resolves relative ones against the config's folder.
  (cd "$PW_ROOT" && PLAYWRIGHT_JSON_OUTPUT_NAME="$PW_REPORTS/e2e.json" \
    PW_RUNNING_TESTS_FILE="$PW_REPORTS/e2e.running.txt" \
    capped "$PW_CAP_E2E" env "${PW_PRODUCT_SETTINGS[@]}" pnpm test:e2e \
    --reporter="list,json,$PW_ROOT/tests/e2e/running-reporter.ts")
}

# Runs a suite function and says how long it took.
timed() {
  local started=$SECONDS status=0
  "$@" || status=$?
  info "$1: $((SECONDS - started)) s"
  return "$status"
}

# --stress: two processes that keep a core each busy for as long as the suites run, so that the
# suites see a machine about twice as slow as this one. They must pass there too.
PW_STRESS_PIDS=()
start_cpu_burners() {
  step "Stress: two CPU-burning processes beside the suites"
  local n
  for n in 1 2; do
    node -e 'for (;;);' &
    PW_STRESS_PIDS+=($!)
  done
  info "burners: ${PW_STRESS_PIDS[*]}"
  trap stop_cpu_burners EXIT
}
stop_cpu_burners() {
  if ((${#PW_STRESS_PIDS[@]} > 0)); then
    kill "${PW_STRESS_PIDS[@]}" 2>/dev/null || true
  fi
  PW_STRESS_PIDS=()
  return 0
}

run_tests() {
  local which=all stress=false argument
  for argument in "$@"; do
    case $argument in
      --stress) stress=true ;;
      all | static | unit | e2e | drift) which=$argument ;;
      *) die "unknown test suite '$argument'; choose all, static, unit, e2e or drift (and --stress)." ;;
    esac
  done

  prepare_machine
  build_product
  release_setup_lock

  # The stacks the Vitest files start run the build made just above (apps/*/dist), as users get
  # it: a process started through tsx transpiles its sources each time, and the suite starts some
  # forty of them. By hand, `pnpm vitest` runs the sources unless PW_TEST_USE_BUILD=1.
  export PW_TEST_USE_BUILD=${PW_TEST_USE_BUILD:-1}
  # The suites create their own databases through this server's maintenance database.
  PW_TEST_ADMIN_DATABASE_URL=${PW_TEST_ADMIN_DATABASE_URL:-$(url_with_database "$DATABASE_URL" postgres)}
  export PW_TEST_ADMIN_DATABASE_URL

  PW_REPORTS=$PW_STATE/reports
  mkdir -p "$PW_REPORTS"
  rm -f "$PW_REPORTS"/vitest.json "$PW_REPORTS"/e2e.json "$PW_REPORTS"/*.running.txt
  if [[ $stress == true ]]; then start_cpu_burners; fi

  local -a summary=()
  local status canaries=$PW_REPORTS/canaries.json planted=false
  # Canary keys under the product's key prefix, checked after the suites (scripts/test-canaries.mjs).
  if [[ $which == all || $which == unit || $which == e2e ]]; then
    step "Canaries of the product's own data"
    if node "$PW_ROOT/scripts/test-canaries.mjs" plant "$canaries"; then planted=true; fi
  fi
  if [[ $which == all || $which == drift ]]; then
    status=0
    timed run_drift_check || status=$?
    summary+=(--check "schema drift" "$status")
  fi
  if [[ $which == all || $which == static ]]; then
    status=0
    timed run_static_checks || status=$?
    summary+=(--check "typecheck + lint + knip" "$status")
  fi
  if [[ $which == all || $which == unit ]]; then
    status=0
    timed run_unit_suite || status=$?
    summary+=(--vitest "$PW_REPORTS/vitest.json" "$status")
  fi
  if [[ $which == all || $which == e2e ]]; then
    status=0
    timed run_e2e_suite || status=$?
    summary+=(--playwright "$PW_REPORTS/e2e.json" "$status")
  fi

  stop_cpu_burners
  if [[ $planted == true ]]; then
    step "Canaries of the product's own data"
    status=0
    node "$PW_ROOT/scripts/test-canaries.mjs" check "$canaries" || status=$?
    summary+=(--check "product data untouched" "$status")
  fi
  local under=''
  if [[ $stress == true ]]; then under=', under stress'; fi
  step "Results (after $((SECONDS / 60)) min $((SECONDS % 60)) s$under)"
  status=0
  node "$PW_ROOT/scripts/test-summary.mjs" "${summary[@]}" || status=$?
  exit "$status"
}
