# shellcheck shell=bash disable=SC2016  # single-quoted node/bash programs expand their own arguments
# Shared helpers for ./pagewright: messages, failure reporting, apt, TCP probes and URL parsing.
# Sourced by ./pagewright; expects PW_ROOT to be the repository root.

if [[ -t 1 && -z ${NO_COLOR:-} ]]; then
  PW_BOLD=$'\e[1m' PW_RED=$'\e[31m' PW_GREEN=$'\e[32m' PW_YELLOW=$'\e[33m' PW_RESET=$'\e[0m'
else
  PW_BOLD='' PW_RED='' PW_GREEN='' PW_YELLOW='' PW_RESET=''
fi

PW_STEP=''

step() {
  PW_STEP=$*
  printf '\n%s==> %s%s\n' "$PW_BOLD" "$*" "$PW_RESET"
}
info() { printf '    %s\n' "$*"; }
ok() { printf '    %s✓%s %s\n' "$PW_GREEN" "$PW_RESET" "$*"; }
warn() { printf '    %s! %s%s\n' "$PW_YELLOW" "$*" "$PW_RESET" >&2; }

# Stops the whole command with the step it was in and what to do about it.
die() {
  printf '\n%s✗ %s%s\n' "$PW_RED" "${PW_STEP:-pagewright}" "$PW_RESET" >&2
  local line
  for line in "$@"; do printf '  %s\n' "$line" >&2; done
  exit 1
}

# Any command that fails outside an explicit check ends up here (set -E + ERR trap).
on_error() {
  local status=$1 command=$2
  trap - ERR
  die "failed: '$command' (exit $status)." "The output above shows why; fix it and re-run ./pagewright $PW_COMMAND."
}

have() { command -v "$1" >/dev/null 2>&1; }
is_root() { [[ $(id -u) == 0 ]]; }

apt_updated=''
apt_install() {
  have apt-get || die "apt-get is not available to install: $*" "Install these packages with your system's package manager, then re-run."
  export DEBIAN_FRONTEND=noninteractive
  if [[ -z $apt_updated ]]; then
    info "apt-get update"
    apt-get update -q || die "apt-get update failed; check the machine's network and apt sources."
    apt_updated=1
  fi
  info "apt-get install $*"
  apt-get install -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "$@" \
    || die "apt-get install $* failed (see its output above)."
}

# Prints "host port user password database" for a postgresql:// or redis:// URL, with the default
# port filled in and '-' standing for an empty field. Decoding stays with node, which is required
# anyway, so that passwords with %-escapes and IPv6 hosts are handled once, correctly.
url_fields() {
  node -e '
    const [raw, defaultPort] = process.argv.slice(1);
    const url = new URL(raw);
    const field = (value) => (value ? decodeURIComponent(value) : "-");
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1") || "127.0.0.1";
    process.stdout.write([host, url.port || defaultPort, field(url.username), field(url.password),
      field(url.pathname.replace(/^\//, ""))].join(" ") + "\n");
  ' "$1" "$2" || die "cannot parse the URL '$1'; fix it in .env."
}

# The same URL with another database name (path), keeping credentials and query parameters.
url_with_database() {
  node -e '
    const [raw, database] = process.argv.slice(1);
    const url = new URL(raw);
    url.pathname = "/" + database;
    process.stdout.write(url.toString());
  ' "$1" "$2"
}

is_local_host() {
  case $1 in
    localhost | 127.* | ::1 | '') return 0 ;;
    *) return 1 ;;
  esac
}

port_open() {
  local host=$1 port=$2
  [[ $host == *:* ]] && host="[$host]"
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$host" "$port" 2>/dev/null
}

# A bare TCP connect is not proof enough: some networks accept every connection through a proxy.
# These speak the first bytes of each protocol, with nothing but bash.

# PostgreSQL answers an SSLRequest with one byte, S or N.
postgres_answers() {
  local host=$1 port=$2
  [[ $host == *:* ]] && host="[$host]"
  timeout 3 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "\x00\x00\x00\x08\x04\xd2\x16\x2f" >&3
    IFS= read -r -n 1 -t 2 reply <&3 && [[ $reply == S || $reply == N ]]
  ' "$host" "$port" 2>/dev/null
}

# Redis answers PING with +PONG, or with an error such as -NOAUTH when it wants a password.
redis_answers() {
  local host=$1 port=$2
  [[ $host == *:* ]] && host="[$host]"
  timeout 3 bash -c '
    exec 3<>"/dev/tcp/$0/$1" || exit 1
    printf "PING\r\n" >&3
    IFS= read -r -t 2 reply <&3 && [[ $reply == +PONG* || $reply == -* ]]
  ' "$host" "$port" 2>/dev/null
}

# wait_until SECONDS COMMAND...: polls COMMAND every half second.
wait_until() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

random_hex() {
  if have openssl; then
    openssl rand -hex "$1"
  else
    node -e 'process.stdout.write(require("node:crypto").randomBytes(Number(process.argv[1])).toString("hex"))' "$1"
  fi
}
