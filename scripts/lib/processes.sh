# shellcheck shell=bash disable=SC2016  # single-quoted programs expand their own arguments
# The product's long-running processes: maildev, the API, the worker and the reference F-engine
# (apps/fengine-sandbox, docs/f-engine.md). Each runs in its own
# session (setsid) so that stopping it also stops its children (the worker's Chromium); its pid
# is kept in .pagewright/run/<name>.pid and its output in .pagewright/logs/<name>.log. The API,
# the worker and the F-engine sandbox run under scripts/supervise.mjs, which restarts a crashed one with backoff (1 s
# doubling to 30 s) and logs each restart in that process's log.

PW_SERVICES=(maildev api worker fengine-sandbox)

service_command() {
  case $1 in
    maildev)
      printf '%s\0' "$PW_ROOT/node_modules/.bin/maildev" --smtp "$SMTP_PORT" --web "$MAILDEV_WEB_PORT" \
        --ip 127.0.0.1 --mail-directory "$PW_STATE/mail"
      ;;
    api | worker | fengine-sandbox)
      printf '%s\0' node "$PW_ROOT/scripts/supervise.mjs" "$1" -- node "$PW_ROOT/$(service_marker "$1")"
      ;;
  esac
}

# What the process's command line must contain for a pid file to be trusted (pids get reused).
service_marker() {
  case $1 in
    maildev) echo maildev ;;
    api) echo apps/api/dist/server.js ;;
    worker) echo apps/worker/dist/main.js ;;
    fengine-sandbox) echo apps/fengine-sandbox/dist/main.js ;;
  esac
}

pid_file() { echo "$PW_STATE/run/$1.pid"; }
log_file() { echo "$PW_STATE/logs/$1.log"; }

# Prints the pid of a running instance we started, or fails.
service_pid() {
  local file pid
  file=$(pid_file "$1")
  [[ -f $file ]] || return 1
  pid=$(<"$file")
  [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$(service_marker "$1")" || return 1
  echo "$pid"
}

group_alive() { kill -0 -- "-$1" 2>/dev/null; }

stop_service() {
  local name=$1 pid
  if ! pid=$(service_pid "$name"); then
    rm -f "$(pid_file "$name")"
    return 0
  fi
  # The session leader only: a supervisor forwards the signal to its child once, so that the
  # child's shutdown is not cut short by a second one; what is left of the group after 15 s is killed.
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_until 15 bash -c '! kill -0 -- "-$0" 2>/dev/null' "$pid"; then
    warn "$name (pid $pid) did not stop within 15 s; killing it"
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  rm -f "$(pid_file "$name")"
  ok "stopped $name (pid $pid)"
}

start_service() {
  local name=$1 log
  local -a command
  mapfile -d '' -t command < <(service_command "$name")
  log=$(log_file "$name")
  mkdir -p "$PW_STATE/run" "$PW_STATE/logs" "$PW_STATE/mail"
  printf '\n----- %s: %s\n' "$(date -u '+%Y-%m-%d %H:%M:%S UTC')" "${command[*]}" >>"$log"
  (cd "$PW_ROOT" && exec setsid "${command[@]}" >>"$log" 2>&1 </dev/null 9>&-) &
  echo $! >"$(pid_file "$name")"
  ok "started $name (pid $!, log ${log#"$PW_ROOT"/})"
}

stop_all() {
  local name
  for name in fengine-sandbox worker api maildev; do stop_service "$name"; done
}

api_url() { echo "http://127.0.0.1:$PORT"; }

sandbox_url() { echo "http://127.0.0.1:${FENGINE_SANDBOX_PORT:-8090}"; }

sandbox_healthy() {
  node -e '
    fetch(process.argv[1], { signal: AbortSignal.timeout(2000) })
      .then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1));
  ' "$(sandbox_url)/health"
}

# Stops the sandbox's health wait early when it is gone or crashed on start-up.
sandbox_up_or_dead() {
  sandbox_healthy && return 0
  kill -0 "$(<"$(pid_file fengine-sandbox)")" 2>/dev/null || return 0
  service_restarted fengine-sandbox && return 0
  return 1
}

# The reference F-engine's settings: its database sits beside the product's, on the same server.
sandbox_environment() {
  export FENGINE_SANDBOX_PORT=${FENGINE_SANDBOX_PORT:-8090}
  export FENGINE_SANDBOX_HOST=${FENGINE_SANDBOX_HOST:-127.0.0.1}
  if [[ -z ${FENGINE_SANDBOX_DATABASE_URL:-} ]]; then
    local base=${DATABASE_URL%%\?*} query=''
    [[ $DATABASE_URL == *\?* ]] && query="?${DATABASE_URL#*\?}"
    export FENGINE_SANDBOX_DATABASE_URL="${base%/*}/pagewright_fengine$query"
  fi
}

api_healthy() {
  node -e '
    fetch(process.argv[1], { signal: AbortSignal.timeout(2000) })
      .then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1));
  ' "$(api_url)/api/health"
}

# Whether the supervisor has restarted the service since it was last started (its log from the
# last '-----' line start_service wrote).
service_restarted() {
  local log
  log=$(log_file "$1")
  [[ -f $log ]] && awk '/^----- /{ restarted = 0 } /"restartInMs"/{ restarted = 1 } END { exit !restarted }' "$log"
}

# Stops the health wait early when the API process is gone or crashed on start-up.
api_up_or_dead() {
  api_healthy && return 0
  kill -0 "$(<"$(pid_file api)")" 2>/dev/null || return 0
  service_restarted api && return 0
  return 1
}

# Whether /api/health counts a live worker (BullMQ's list of the run queue's workers).
worker_live() {
  node -e '
    fetch(process.argv[1], { signal: AbortSignal.timeout(2000) })
      .then((response) => response.json())
      .then((health) => process.exit(health.workers > 0 ? 0 : 1), () => process.exit(1));
  ' "$(api_url)/api/health"
}

# Stops the worker wait early when the worker crashed on start-up (its supervisor restarts it).
worker_live_or_crashed() { worker_live || service_restarted worker; }

show_log_tail() {
  local log
  log=$(log_file "$1")
  [[ -f $log ]] || return 0
  printf '    --- last lines of %s ---\n' "${log#"$PW_ROOT"/}" >&2
  tail -n 40 "$log" | sed 's/^/    /' >&2
}

# A start that fails half-way stops what it started, so that no half-running product is left.
abandon_start() {
  local service=$1
  shift
  show_log_tail "$service"
  stop_all >/dev/null 2>&1 || true
  die "$@"
}

start_product() {
  step "Starting Pagewright"
  stop_all

  for file in apps/api/dist/server.js apps/worker/dist/main.js apps/fengine-sandbox/dist/main.js; do
    [[ -f $PW_ROOT/$file ]] || die "$file is missing after the build." "Check the output of 'pnpm build' above."
  done
  if port_open 127.0.0.1 "$PORT"; then
    die "port $PORT is already in use by a program that ./pagewright did not start." \
      "Stop it, or choose another PORT in .env (and PUBLIC_URL to match)."
  fi

  local mail_note started_maildev=''
  if ! is_local_host "$SMTP_HOST"; then
    mail_note="mail goes to $SMTP_HOST:$SMTP_PORT (SMTP_HOST); maildev not started"
  elif port_open 127.0.0.1 "$SMTP_PORT"; then
    mail_note="something else already listens on SMTP port $SMTP_PORT; maildev not started"
    warn "$mail_note"
  else
    start_service maildev
    started_maildev=1
    mail_note="http://localhost:$MAILDEV_WEB_PORT (maildev catches every e-mail sent to 127.0.0.1:$SMTP_PORT)"
  fi

  local sandbox_note started_sandbox=''
  sandbox_environment
  if [[ ${FENGINE_SANDBOX_START:-true} == false ]]; then
    sandbox_note="not started (FENGINE_SANDBOX_START=false)"
  elif port_open 127.0.0.1 "$FENGINE_SANDBOX_PORT"; then
    sandbox_note="something else already listens on port $FENGINE_SANDBOX_PORT (FENGINE_SANDBOX_PORT); not started"
    warn "F-engine sandbox: $sandbox_note"
  else
    NODE_ENV=${NODE_ENV:-production} start_service fengine-sandbox
    started_sandbox=1
  fi

  NODE_ENV=${NODE_ENV:-production} start_service api
  NODE_ENV=${NODE_ENV:-production} start_service worker

  step "Waiting for $(api_url)/api/health"
  local timeout=${PAGEWRIGHT_START_TIMEOUT:-90}
  wait_until "$timeout" api_up_or_dead || true
  if ! api_healthy; then
    if service_restarted api; then
      abandon_start api "the API crashed during start-up (its supervisor was restarting it; everything was stopped)." \
        "Its log is above and in .pagewright/logs/api.log."
    fi
    if service_pid api >/dev/null; then
      abandon_start api "the API ran but /api/health did not answer within $timeout s (everything was stopped)." \
        "Its log is above and in .pagewright/logs/api.log."
    fi
    abandon_start api "the API exited during start-up; its log is above (.pagewright/logs/api.log)."
  fi
  ok "API healthy"
  wait_until "$timeout" worker_live_or_crashed || true
  if ! worker_live; then
    abandon_start worker "the worker crashed during start-up, or was not live within $timeout s (everything was" \
      "stopped); its log is above and in .pagewright/logs/worker.log."
  fi
  ok "worker running"
  if [[ -n $started_maildev ]]; then
    if ! service_pid maildev >/dev/null; then
      abandon_start maildev "maildev exited during start-up; its log is above (.pagewright/logs/maildev.log)."
    fi
    ok "maildev running"
  fi
  if [[ -n $started_sandbox ]]; then
    wait_until "$timeout" sandbox_up_or_dead || true
    if ! sandbox_healthy; then
      abandon_start fengine-sandbox "the F-engine sandbox did not answer $(sandbox_url)/health within $timeout s" \
        "(everything was stopped); its log is above and in .pagewright/logs/fengine-sandbox.log."
    fi
    ok "F-engine sandbox running"
    sandbox_note="$(sandbox_url)  sign in: ${FENGINE_SANDBOX_USER:-operator@fengine.local} / ${FENGINE_SANDBOX_PASSWORD:-sandbox-pass}"
  fi

  printf '\n%sPagewright is running.%s\n' "$PW_BOLD" "$PW_RESET"
  printf '  App:        http://localhost:%s\n' "$PORT"
  printf '  Mail inbox: %s\n' "$mail_note"
  printf '  F-engine:   %s\n' "$sandbox_note"
  printf '  Logs:       .pagewright/logs/  (./pagewright logs)\n'
  printf '  Stop:       ./pagewright stop\n'
}

print_status() {
  local name pid
  for name in "${PW_SERVICES[@]}"; do
    if pid=$(service_pid "$name"); then
      printf '  %-8s running (pid %s)\n' "$name" "$pid"
    else
      printf '  %-8s stopped\n' "$name"
    fi
  done
  if api_healthy; then
    printf '  health   %s/api/health answers\n' "$(api_url)"
    printf '  app      http://localhost:%s\n' "$PORT"
  else
    printf '  health   %s/api/health does not answer\n' "$(api_url)"
  fi
  service_pid maildev >/dev/null && printf '  mail     http://localhost:%s\n' "$MAILDEV_WEB_PORT"
  service_pid fengine-sandbox >/dev/null && printf '  f-engine %s\n' "$(sandbox_url)"
  return 0
}

follow_logs() {
  local -a files=()
  local name
  for name in "${@:-${PW_SERVICES[@]}}"; do
    case " ${PW_SERVICES[*]} " in
      *" $name "*) ;;
      *) die "unknown log '$name'; choose from: ${PW_SERVICES[*]}." ;;
    esac
    [[ -f $(log_file "$name") ]] && files+=("$(log_file "$name")")
  done
  ((${#files[@]})) || die "no logs yet in .pagewright/logs/; run ./pagewright start first."
  exec tail -n 100 -F "${files[@]}"
}
