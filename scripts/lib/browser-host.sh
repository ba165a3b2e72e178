# shellcheck shell=bash
# ./pagewright browser-host: a Chromium for workers on other machines (docs/scaling.md "The browser
# tier"). It needs Node.js, pnpm, Chromium and the worker's build, not PostgreSQL or Redis; it runs
# in the foreground (a service manager or compose keeps it running) until Ctrl-C or SIGTERM.

run_browser_host() {
  BROWSER_HOST_TOKEN=${BROWSER_HOST_TOKEN:-}
  while (($# > 0)); do
    case $1 in
      --port) BROWSER_HOST_PORT=${2:?--port needs a number}; shift 2 ;;
      --bind) BROWSER_HOST_BIND=${2:?--bind needs an address}; shift 2 ;;
      *) die "unknown option '$1' (browser-host takes --port N and --bind ADDRESS)." ;;
    esac
  done
  take_setup_lock
  ensure_node
  ensure_env_file
  load_env
  ensure_pnpm
  ensure_chromium
  ensure_dependencies
  run_pnpm_step "Prisma client (pnpm db:generate)" db:generate
  run_pnpm_step "Build the worker (browser host)" --filter @pagewright/worker build
  ensure_browser_host_token
  release_setup_lock
  export BROWSER_HOST_PORT=${BROWSER_HOST_PORT:-3900} BROWSER_HOST_BIND=${BROWSER_HOST_BIND:-127.0.0.1}
  step "Browser host on $BROWSER_HOST_BIND:$BROWSER_HOST_PORT"
  info "workers list it in BROWSER_ENDPOINTS as  NAME=ws://:TOKEN@THIS-HOST:$BROWSER_HOST_PORT/playwright"
  info "(TOKEN: BROWSER_HOST_TOKEN in .env; --bind 0.0.0.0 to accept other machines; Ctrl-C stops it)"
  exec node "$PW_ROOT/apps/worker/dist/browser-host.js"
}

# The token workers must present; made once and kept in .env, never printed.
ensure_browser_host_token() {
  step "Browser host token"
  if ((${#BROWSER_HOST_TOKEN} >= 24)); then
    ok "BROWSER_HOST_TOKEN is set"
    return
  fi
  [[ -z ${BROWSER_HOST_TOKEN:-} ]] || die "BROWSER_HOST_TOKEN must be at least 24 characters; remove it from .env to get a new one."
  BROWSER_HOST_TOKEN=$(random_hex 32)
  printf '\n# Browser host (./pagewright browser-host): the token workers present (BROWSER_ENDPOINTS).\nBROWSER_HOST_TOKEN=%s\n' \
    "$BROWSER_HOST_TOKEN" >>"$PW_ROOT/.env"
  export BROWSER_HOST_TOKEN
  ok "made a new BROWSER_HOST_TOKEN and kept it in .env"
}
