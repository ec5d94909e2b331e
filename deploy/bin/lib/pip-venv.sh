# An idempotent install of one PyPI package into a venv of its own under .sluice/, shared by the install-*.sh
# scripts of the Python tools the tests use (chdb, schemathesis, kubernetes-validate). Source it, then call
#
#   pip_venv_tool VENV SPEC PRINT CHECK...
#
# VENV the venv's directory, SPEC the pip requirement, PRINT the path printed on stdout when done (a command in
# the venv), CHECK... a command that succeeds only on a working install (its output goes to stderr after an
# install). A venv marked installed whose PRINT exists and whose CHECK succeeds is left alone; any other is made
# anew, so an interrupted install never passes for a finished one.
pip_venv_tool() {
  local venv="$1" spec="$2" print="$3"
  shift 3
  if [ -x "$print" ] && [ -f "$venv/.installed" ] && "$@" >/dev/null 2>&1; then
    echo "$print"
    return 0
  fi
  echo "installing $spec into $venv" >&2
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$spec" >&2
  "$@" >&2
  touch "$venv/.installed"
  echo "$print"
}
