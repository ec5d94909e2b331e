# Shared by the launchers in bin/ (sourced, never run). Sets:
#   SLUICE_HOME      the unpacked distribution (the parent of bin/)
#   SLUICE_CONF_DIR  [SLUICE_HOME/conf]  where the launchers read their settings
#   SLUICE_DATA_DIR  [SLUICE_HOME/data]  offsets, state files and the embedded store
#   JAVA             [java on the PATH]  Java 17 or newer
# and the helpers below. Every launcher runs its program in the foreground (systemd, Kubernetes and
# supervisors keep it running); stop it with SIGTERM, which lets it save its progress.
set -euo pipefail
SLUICE_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SLUICE_CONF_DIR="${SLUICE_CONF_DIR:-$SLUICE_HOME/conf}"
SLUICE_DATA_DIR="${SLUICE_DATA_DIR:-$SLUICE_HOME/data}"
export SLUICE_HOME SLUICE_CONF_DIR SLUICE_DATA_DIR

sluice_die() { echo "$(basename "$0"): $*" >&2; exit "${2:-1}"; }

sluice_java() {
  local java_cmd="${JAVA:-java}"
  command -v "$java_cmd" >/dev/null 2>&1 || sluice_die "no Java runtime found (set JAVA or put java 17+ on PATH)" 3
  echo "$java_cmd"
}

# sluice_conf_args FILE ARRAY_NAME: turns FILE's "key = value" lines into "--key value" arguments appended to the
# named array. Blank lines and lines starting with # are skipped; ${SLUICE_HOME}, ${SLUICE_CONF_DIR} and
# ${SLUICE_DATA_DIR} in values are replaced. The key "paths" holds positional arguments (space separated).
# A line without '=' stops the launcher naming the file and the line.
sluice_conf_args() {
  local file="$1" n=0 line key value
  local -n out="$2"
  [ -f "$file" ] || sluice_die "configuration file $file is missing" 2
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    line="${line#"${line%%[![:space:]]*}"}"
    [ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
    case "$line" in *=*) ;; *) sluice_die "$file line $n: expected key = value, got: $line" 2 ;; esac
    key="${line%%=*}"; value="${line#*=}"
    key="${key%"${key##*[![:space:]]}"}"
    value="${value#"${value%%[![:space:]]*}"}"; value="${value%"${value##*[![:space:]]}"}"
    value="${value//\$\{SLUICE_HOME\}/$SLUICE_HOME}"
    value="${value//\$\{SLUICE_CONF_DIR\}/$SLUICE_CONF_DIR}"
    value="${value//\$\{SLUICE_DATA_DIR\}/$SLUICE_DATA_DIR}"
    if [ "$key" = paths ]; then
      # shellcheck disable=SC2206
      local words=($value)
      out+=("${words[@]}")
    elif [ "$value" = true ] && [ "${3:-}" = flags ]; then
      out+=("--$key")
    elif [ "$value" = false ] && [ "${3:-}" = flags ]; then
      :
    else
      out+=("--$key" "$value")
    fi
  done < "$file"
}
