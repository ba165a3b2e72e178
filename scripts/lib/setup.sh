# shellcheck shell=bash
# What ./pagewright start and ./pagewright test both need: toolchain, .env, Chromium, PostgreSQL,
# Redis, dependencies, the generated Prisma client, migrations and the build. Every step checks
# first and only acts when something is missing, so running it again is cheap and safe.

PW_PNPM_VERSION=12.21.0
# Debian's chromium-headless-shell: the headless-only build Playwright itself uses for headless runs
# (a third of the full browser's start-up and about half its CPU per page here, docs/decisions.md).
PW_DEFAULT_CHROMIUM=/usr/lib/chromium/chromium-headless-shell
PW_CHROMIUM_PACKAGE=chromium-headless-shell

# The Node.js Pagewright needs is the root package.json's engines.node (">=20.19"): pnpm refuses
# to install below it, and this check says so first, with the version found.
ensure_node() {
  local wanted
  wanted=$(sed -n 's/^ *"node": *">=\([0-9][0-9.]*\)".*/\1/p' "$PW_ROOT/package.json" | head -n 1)
  [[ -n $wanted ]] || die "package.json has no engines.node of the form \">=X.Y\"."
  step "Node.js ≥ $wanted"
  have node || die "node is not installed; Pagewright needs Node.js $wanted or newer." \
    "Install Node.js $wanted or newer (https://nodejs.org/en/download, or your distribution's" \
    "nodejs package if it is recent enough), make sure 'node' is on PATH, then re-run."
  local version
  version=$(node -p 'process.versions.node')
  node -e '
    const [have, need] = process.argv.slice(1).map((v) => v.split(".").map(Number));
    const older = have[0] < need[0] || (have[0] === need[0] && (have[1] ?? 0) < (need[1] ?? 0));
    process.exit(older ? 1 : 0);
  ' "$version" "$wanted" \
    || die "node $version found: Pagewright needs Node.js $wanted or newer (package.json engines)." \
      "Upgrade Node.js (https://nodejs.org/en/download), then re-run."
  ok "node $version found (Pagewright needs $wanted or newer)"
}

ensure_pnpm() {
  step "pnpm $PW_PNPM_VERSION"
  local current=''
  have pnpm && current=$(pnpm --version 2>/dev/null | tail -n 1)
  if [[ $current == "$PW_PNPM_VERSION" ]]; then
    ok "pnpm $current"
    return
  fi
  info "found: ${current:-no pnpm}; installing pnpm@$PW_PNPM_VERSION with npm"
  if npm install --global --no-fund --no-audit "pnpm@$PW_PNPM_VERSION"; then
    hash -r
    ok "pnpm $(pnpm --version | tail -n 1)"
  elif [[ -n $current ]]; then
    warn "could not install pnpm@$PW_PNPM_VERSION globally (no permission?); continuing with pnpm $current."
  else
    die "pnpm is missing and 'npm install --global pnpm@$PW_PNPM_VERSION' failed." \
      "Run it as a user who may install global npm packages (or as root), then re-run."
  fi
}

# Creates .env once, with fresh secrets; an existing .env is never touched, except to close the
# hole of an earlier default (migrate_env_file).
ensure_env_file() {
  step "Configuration (.env)"
  if [[ -f $PW_ROOT/.env ]]; then
    migrate_env_file
    ok ".env exists (left as it is)"
    return
  fi
  local jwt_secret encryption_key
  jwt_secret=$(random_hex 32)
  encryption_key=$(random_hex 32)
  (
    umask 077
    cat >"$PW_ROOT/.env" <<EOF
# Pagewright configuration. Created by ./pagewright on $(date -u +%Y-%m-%d); it never overwrites
# this file. Every variable is described in .env.example and in the README.
DATABASE_URL=postgresql://postgres@127.0.0.1:5432/pagewright
REDIS_URL=redis://127.0.0.1:6379
PORT=8080
HOST=0.0.0.0
PUBLIC_URL=http://localhost:8080
JWT_SECRET=$jwt_secret
ENCRYPTION_KEY=$encryption_key
SMTP_HOST=127.0.0.1
SMTP_PORT=1025
SMTP_SECURE=false
# SMTP_USER=
# SMTP_PASSWORD=
MAIL_FROM="Pagewright <no-reply@pagewright.local>"
MAILDEV_WEB_PORT=1080
PASSWORD_EXPIRY_DAYS=90
ACCESS_TOKEN_TTL_SECONDS=900
REFRESH_TOKEN_TTL_DAYS=30
CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell
LOG_LEVEL=info
# The reference F-engine that ./pagewright start runs here (docs/f-engine.md): engine datasets
# import into it, and insertors may sign in to it at http://127.0.0.1:8090, the one local origin
# allowed. A real engine on a private network goes in FENGINE_ALLOWED_ORIGINS by its exact origin.
FENGINE_URL=http://127.0.0.1:8090
FENGINE_USER=operator@fengine.local
FENGINE_PASSWORD=sandbox-pass
FENGINE_ALLOWED_ORIGINS=http://127.0.0.1:8090
EOF
  )
  ok "created .env with a random JWT_SECRET and ENCRYPTION_KEY"
}

# Earlier versions wrote FENGINE_ALLOWED_HOSTS=127.0.0.1, which let anyone signed in reach every
# port of this machine through an engine address (issue 38). That exact default line becomes the
# bundled sandbox's origin; any other value is the operator's to rewrite as origins.
migrate_env_file() {
  local env_file=$PW_ROOT/.env
  if grep -qx 'FENGINE_ALLOWED_HOSTS=127.0.0.1' "$env_file"; then
    sed -i 's|^FENGINE_ALLOWED_HOSTS=127.0.0.1$|FENGINE_ALLOWED_ORIGINS=http://127.0.0.1:8090|' "$env_file"
    warn "FENGINE_ALLOWED_HOSTS=127.0.0.1 in .env allowed every local port; it is now FENGINE_ALLOWED_ORIGINS=http://127.0.0.1:8090 (the bundled F-engine only)."
  elif grep -Eq '^[[:space:]]*(export[[:space:]]+)?FENGINE_ALLOWED_HOSTS=[^[:space:]]' "$env_file"; then
    die "FENGINE_ALLOWED_HOSTS in .env is no longer read: it allowed every port of a host." \
      "List each engine by its exact origin in FENGINE_ALLOWED_ORIGINS instead (e.g. http://10.0.0.5:8090), then re-run."
  fi
}

# Exports .env; a variable already set in the calling environment wins over the file, so that
# `PORT=9000 ./pagewright start` does what it says.
load_env() {
  local key
  local -A preset=()
  while IFS= read -r key; do
    [[ -n ${!key+set} ]] && preset[$key]=${!key}
  done < <(sed -n 's/^[[:space:]]*\(export[[:space:]]\{1,\}\)\{0,1\}\([A-Za-z_][A-Za-z0-9_]*\)=.*/\2/p' "$PW_ROOT/.env")
  set -a
  # shellcheck source=/dev/null
  . "$PW_ROOT/.env" || die ".env could not be read as shell assignments; fix the line shown above."
  set +a
  for key in "${!preset[@]}"; do export "$key=${preset[$key]}"; done

  export DATABASE_URL=${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/pagewright}
  export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
  export PORT=${PORT:-8080}
  export SMTP_HOST=${SMTP_HOST:-127.0.0.1}
  export SMTP_PORT=${SMTP_PORT:-1025}
  export MAILDEV_WEB_PORT=${MAILDEV_WEB_PORT:-1080}
  export CHROMIUM_PATH=${CHROMIUM_PATH:-$PW_DEFAULT_CHROMIUM}
}

# The product refuses to start without its two secrets; say so before building anything.
check_secrets() {
  local problems=() jwt_secret=${JWT_SECRET:-}
  ((${#jwt_secret} >= 32)) || problems+=("JWT_SECRET must be at least 32 characters.")
  [[ ${ENCRYPTION_KEY:-} =~ ^[0-9a-fA-F]{64}$ ]] || problems+=("ENCRYPTION_KEY must be 64 hex characters.")
  ((${#problems[@]} == 0)) && return
  step "Secrets in .env"
  die "${problems[@]}" "Generate each with 'openssl rand -hex 32' and put it in .env."
}

ensure_chromium() {
  step "Chromium ($CHROMIUM_PATH)"
  if [[ -x $CHROMIUM_PATH ]]; then
    ok "$("$CHROMIUM_PATH" --version 2>/dev/null || echo "$CHROMIUM_PATH")"
    return
  fi
  if [[ $CHROMIUM_PATH != "$PW_DEFAULT_CHROMIUM" ]]; then
    die "CHROMIUM_PATH=$CHROMIUM_PATH does not name an executable." \
      "Point CHROMIUM_PATH (in .env or the environment) at a Chromium binary, or remove it to use $PW_DEFAULT_CHROMIUM."
  fi
  if ! is_root; then
    warn "Chromium is not installed and this is not root, so it was not installed."
    warn "Run 'sudo apt-get install -y $PW_CHROMIUM_PACKAGE' (or set CHROMIUM_PATH); until then runs and end-to-end tests fail."
    return
  fi
  apt_install "$PW_CHROMIUM_PACKAGE"
  [[ -x $CHROMIUM_PATH ]] || die "the $PW_CHROMIUM_PACKAGE package installed no $CHROMIUM_PATH."
  ok "$("$CHROMIUM_PATH" --version 2>/dev/null)"
}

# ---------------------------------------------------------------------------------------------
# PostgreSQL

ensure_postgres() {
  local fields host port user password
  fields=$(url_fields "$DATABASE_URL" 5432)
  read -r host port user password _ <<<"$fields"
  step "PostgreSQL at $host:$port"

  if ! postgres_answers "$host" "$port"; then
    is_local_host "$host" || die "no PostgreSQL answers at $host:$port (DATABASE_URL)." \
      "Start that PostgreSQL server, or set DATABASE_URL in .env to one that runs."
    is_root || die "nothing answers at $host:$port and this is not root, so PostgreSQL was not installed or started." \
      "Start it yourself (e.g. 'sudo pg_ctlcluster 15 main start', or 'sudo apt-get install -y postgresql')," \
      "or run ./pagewright as root."
    start_local_postgres "$port"
  fi
  ok "accepting connections"
  check_postgres_login "$host" "$port" "$user" "$password"
}

start_local_postgres() {
  local port=$1 cluster version name cluster_port status
  if ! have pg_lsclusters || [[ -z $(pg_lsclusters -h 2>/dev/null) ]]; then
    apt_install postgresql
  fi
  cluster=$(pg_lsclusters -h | awk -v port="$port" '$3 == port { print; exit }')
  if [[ -z $cluster ]]; then
    cluster=$(pg_lsclusters -h | head -n 1)
    [[ -n $cluster ]] || die "the postgresql package is installed but has no cluster." \
      "Create one with 'pg_createcluster --start <version> main', then re-run."
    read -r _ _ cluster_port _ <<<"$cluster"
    die "no PostgreSQL cluster on this machine listens on port $port (the first one uses $cluster_port)." \
      "Set DATABASE_URL in .env to port $cluster_port, or change that cluster's port."
  fi
  read -r version name cluster_port status _ <<<"$cluster"
  info "starting cluster $version/$name (was $status)"
  pg_ctlcluster --skip-systemctl-redirect "$version" "$name" start 2>&1 | sed 's/^/    /' || true
  wait_until 30 postgres_answers 127.0.0.1 "$port" \
    || die "PostgreSQL $version/$name did not start listening on port $port within 30 s." \
      "Its log: /var/log/postgresql/postgresql-$version-$name.log"
}

# A server that answers may still refuse our user: on a machine we administer (local and root)
# make the usual Debian defaults fit a password-less development URL, anywhere else explain.
check_postgres_login() {
  local host=$1 port=$2 user=$3 password=$4 output
  [[ $user == - ]] && user=$(id -un)
  have psql || return 0
  local admin_url
  admin_url=$(url_with_database "$DATABASE_URL" postgres)
  if output=$(PGCONNECT_TIMEOUT=5 psql "$admin_url" -Atqc 'select 1' 2>&1); then
    ok "login as $user works"
    return
  fi
  if ! is_local_host "$host" || ! is_root || ! have pg_lsclusters; then
    die "PostgreSQL refused the login from DATABASE_URL: $output" \
      "Fix the user/password in DATABASE_URL (.env) or the server's pg_hba.conf."
  fi
  local cluster version name
  cluster=$(pg_lsclusters -h | awk -v port="$port" '$3 == port { print; exit }')
  [[ -n $cluster ]] || die "PostgreSQL refused the login from DATABASE_URL: $output"
  read -r version name _ <<<"$cluster"
  local as_postgres=(runuser -u postgres -- psql -X -q -p "$port" -d postgres)

  if [[ $output == *"role \"$user\" does not exist"* ]]; then
    info "creating the PostgreSQL role \"$user\" (LOGIN CREATEDB)"
    "${as_postgres[@]}" -c "CREATE ROLE \"$user\" LOGIN CREATEDB" \
      || die "could not create the role \"$user\"."
  elif [[ $password == - && ($output == *"authentication failed"* || $output == *"no password supplied"*) ]]; then
    local hba=/etc/postgresql/$version/$name/pg_hba.conf
    info "allowing password-less loopback connections in $hba (the development default)"
    sed -i '1i # Added by ./pagewright: the development DATABASE_URL has no password.\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$version" "$name" reload
    sleep 1
  else
    die "PostgreSQL refused the login from DATABASE_URL: $output" \
      "Fix the user/password in DATABASE_URL (.env) or the server's pg_hba.conf."
  fi
  output=$(PGCONNECT_TIMEOUT=5 psql "$admin_url" -Atqc 'select 1' 2>&1) \
    || die "PostgreSQL still refuses the login from DATABASE_URL: $output"
  ok "login works"
}

# ---------------------------------------------------------------------------------------------
# Redis

ensure_redis() {
  local fields host port
  fields=$(url_fields "$REDIS_URL" 6379)
  read -r host port _ <<<"$fields"
  step "Redis at $host:$port"
  if redis_answers "$host" "$port"; then
    ok "answering"
    return
  fi
  is_local_host "$host" || die "no Redis answers at $host:$port (REDIS_URL)." \
    "Start that Redis server, or set REDIS_URL in .env to one that runs."
  is_root || die "nothing answers at $host:$port and this is not root, so Redis was not installed or started." \
    "Start it yourself (e.g. 'redis-server --daemonize yes --bind 127.0.0.1'), or run ./pagewright as root."
  have redis-server || apt_install redis-server
  mkdir -p /var/lib/redis /var/log/redis
  local bind=127.0.0.1
  [[ $host == ::1 ]] && bind=::1
  info "starting redis-server on $bind:$port (data in /var/lib/redis)"
  redis-server --daemonize yes --bind "$bind" --port "$port" --dir /var/lib/redis \
    --logfile /var/log/redis/pagewright.log \
    || die "redis-server did not start; see /var/log/redis/pagewright.log."
  wait_until 15 redis_answers "$host" "$port" \
    || die "Redis did not start listening on $host:$port within 15 s; see /var/log/redis/pagewright.log."
  ok "answering"
}

# ---------------------------------------------------------------------------------------------
# Project

# Reinstalls only when the lockfile, the workspace or a manifest changed since the last install
# (or node_modules is gone): a stamp with their hash lives inside node_modules.
ensure_dependencies() {
  step "Dependencies (pnpm install)"
  local stamp=$PW_ROOT/node_modules/.pagewright-install-stamp wanted
  wanted=$(
    cd "$PW_ROOT" && {
      cat pnpm-lock.yaml pnpm-workspace.yaml
      find . -maxdepth 3 -name package.json -not -path '*/node_modules/*' | LC_ALL=C sort | xargs cat
      node --version
      pnpm --version
    } | sha256sum | cut -d' ' -f1
  )
  if [[ -d $PW_ROOT/node_modules && -f $stamp && $(<"$stamp") == "$wanted" ]]; then
    ok "node_modules matches pnpm-lock.yaml"
    return
  fi
  local node_major
  node_major=$(node -p 'process.versions.node.split(".")[0]')
  if ((node_major < 22)); then
    info "On Node $node_major, pnpm warns 'Unsupported engine' for the few dependencies that declare"
    info "node>=22: expected, they run on the Node.js package.json asks for (README, 'Node.js')."
  fi
  (cd "$PW_ROOT" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 pnpm install --frozen-lockfile --config.confirm-modules-purge=false) \
    || die "pnpm install --frozen-lockfile failed." \
      "If it says the lockfile is out of date, run 'pnpm install' and commit pnpm-lock.yaml."
  printf '%s\n' "$wanted" >"$stamp"
  ok "installed"
}

run_pnpm_step() {
  local title=$1
  shift
  step "$title"
  (cd "$PW_ROOT" && pnpm "$@") || die "'pnpm $*' failed; its output is above."
  ok "done"
}

build_product() {
  if [[ -z ${BUILD_HASH:-} ]]; then
    BUILD_HASH=$(git -C "$PW_ROOT" rev-parse --short HEAD 2>/dev/null || echo dev)
  fi
  export BUILD_HASH
  run_pnpm_step "Build ($BUILD_HASH)" build
}

# Serialises the setup of concurrent ./pagewright runs (two builds would overwrite each other's
# dist/). The lock is released before anything long-lived starts, so no child inherits it.
take_setup_lock() {
  mkdir -p "$PW_STATE"
  exec 9>"$PW_STATE/setup.lock"
  if ! flock -n 9; then
    info "another ./pagewright is setting up; waiting for it"
    flock 9
  fi
}
release_setup_lock() { exec 9>&-; }

# Everything both commands need before the database steps.
prepare_machine() {
  take_setup_lock
  ensure_node
  ensure_env_file
  load_env
  # The test suites make their own secrets; the product needs those in .env.
  [[ $PW_COMMAND == test ]] || check_secrets
  ensure_pnpm
  ensure_chromium
  ensure_postgres
  ensure_redis
  ensure_dependencies
  run_pnpm_step "Prisma client (pnpm db:generate)" db:generate
}
