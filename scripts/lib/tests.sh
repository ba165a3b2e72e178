# shellcheck shell=bash disable=SC2016  # single-quoted node programs read process.argv
# ./pagewright test: the schema drift check, Vitest (unit + API integration) and Playwright
# (end to end). Each suite runs even when an earlier one failed; the suites start whatever they
# need themselves (their own databases, API and maildev), so the product is not started here.
# Counts come from the suites' JSON reports, summed by scripts/test-summary.mjs.

PW_SUITE_TIMEOUT=${PAGEWRIGHT_SUITE_TIMEOUT:-900}

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
  (cd "$PW_ROOT" && DATABASE_URL=$url pnpm db:migrate && DATABASE_URL=$url pnpm db:drift-check) || status=$?
  drop_database "$name" || warn "could not drop the scratch database $name; drop it by hand."
  return "$status"
}

# Strict TypeScript across the workspace, ESLint and Prettier: the house rules CI enforces.
run_static_checks() {
  step "Static checks (pnpm typecheck, pnpm lint)"
  (cd "$PW_ROOT" && pnpm typecheck && pnpm lint)
}

run_unit_suite() {
  step "Unit and integration tests (pnpm test:unit)"
  (cd "$PW_ROOT" && timeout --kill-after=30 "$PW_SUITE_TIMEOUT" pnpm test:unit \
    --reporter=default --reporter=json --outputFile.json="$PW_REPORTS/vitest.json")
}

run_e2e_suite() {
  step "End-to-end tests (pnpm test:e2e)"
  # An absolute name: Playwright resolves a relative one against the config's folder.
  (cd "$PW_ROOT" && PLAYWRIGHT_JSON_OUTPUT_NAME="$PW_REPORTS/e2e.json" \
    timeout --kill-after=30 "$PW_SUITE_TIMEOUT" pnpm test:e2e --reporter=list,json)
}

run_tests() {
  local which=${1:-all}
  case $which in
    all | static | unit | e2e | drift) ;;
    *) die "unknown test suite '$which'; choose all, static, unit, e2e or drift." ;;
  esac

  prepare_machine
  build_product
  release_setup_lock

  # The suites create their own databases through this server's maintenance database.
  PW_TEST_ADMIN_DATABASE_URL=${PW_TEST_ADMIN_DATABASE_URL:-$(url_with_database "$DATABASE_URL" postgres)}
  export PW_TEST_ADMIN_DATABASE_URL

  PW_REPORTS=$PW_STATE/reports
  mkdir -p "$PW_REPORTS"
  rm -f "$PW_REPORTS/vitest.json" "$PW_REPORTS/e2e.json"

  local -a summary=()
  local status
  if [[ $which == all || $which == drift ]]; then
    status=0
    run_drift_check || status=$?
    summary+=(--check "schema drift" "$status")
  fi
  if [[ $which == all || $which == static ]]; then
    status=0
    run_static_checks || status=$?
    summary+=(--check "typecheck + lint" "$status")
  fi
  if [[ $which == all || $which == unit ]]; then
    status=0
    run_unit_suite || status=$?
    summary+=(--vitest "$PW_REPORTS/vitest.json" "$status")
  fi
  if [[ $which == all || $which == e2e ]]; then
    status=0
    run_e2e_suite || status=$?
    summary+=(--playwright "$PW_REPORTS/e2e.json" "$status")
  fi

  step "Results (after $((SECONDS / 60)) min $((SECONDS % 60)) s)"
  status=0
  node "$PW_ROOT/scripts/test-summary.mjs" "${summary[@]}" || status=$?
  exit "$status"
}
